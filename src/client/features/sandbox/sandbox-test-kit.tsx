// Rendering helpers for the sandbox pages' component tests: the shared render helpers of
// src/client/test, with fetch mocked at the network boundary by a small router of canned answers.
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import type { SiteSettings } from '@shared/site';
import { Toaster } from '@client/components/ui/toaster';
import { errorReply, jsonResponse, renderRoutes, requestUrl, TEST_SITE_SETTINGS } from '@client/test/render';

/** The site settings these pages are rendered with unless a test passes others. */
export const SETTINGS: SiteSettings = TEST_SITE_SETTINGS;

export type Answer = { status?: number; body: unknown; delay?: Promise<void> };
export type Handler = (request: { method: string; url: string; body: unknown }) => Answer | undefined;

/** Stubs fetch; each call goes to `handler`, which answers or leaves it to a 404. */
export function mockFetch(handler: Handler) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = { method: init?.method ?? 'GET', url: requestUrl(input), body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    const answer: Answer = handler(call) ?? errorReply(404, 'not_found', 'Not found.');
    if (answer.delay) await answer.delay;
    return jsonResponse(answer.body, answer.status);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

/** Renders `element` as the page at `routePath`, opened at `path`, with the toaster mounted. */
export function renderAt(path: string, routePath: string, element: ReactNode, settings: SiteSettings = SETTINGS) {
  return renderRoutes([{ path: routePath, element }], {
    path,
    settings,
    wrap: (router) => (
      <>
        {router}
        <Toaster />
      </>
    ),
  });
}
