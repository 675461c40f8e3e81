// The server answers 404 for any address that is not one of the app's pages (src/shared/page-paths.ts):
// every page of the router must be on that list, or opening it directly would answer 404.
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { isAppPagePath } from '@shared/page-paths';
import { routes } from './router';

function pagePaths(list: readonly RouteObject[], parent = ''): string[] {
  return list.flatMap((route) => {
    if (route.path === '*') return [];
    const path = route.path === undefined ? parent : route.path.startsWith('/') ? route.path : `${parent.replace(/\/$/, '')}/${route.path}`;
    // a parameter or an area's wildcard: any value will do
    const concrete = path.replace(/\/\*$/, '/anything').replace(/:[A-Za-z]+/g, 'some-id');
    const own = route.path !== undefined || route.index ? [concrete || '/'] : [];
    return [...own, ...pagePaths(route.children ?? [], path)];
  });
}

describe('the pages the server knows', () => {
  it('include every page of the router', () => {
    const paths = pagePaths(routes);
    expect(paths).toContain('/dashboard/settings');
    expect(paths.filter((path) => !isAppPagePath(path))).toEqual([]);
  });

  it('leave out what the router sends to its not-found page', () => {
    expect(isAppPagePath('/no/such/page')).toBe(false);
  });
});
