import { describe, expect, it } from 'vitest';
import { API_PATHS } from '@shared/api-contract';
import { PATHS } from './paths';

describe('client API paths', () => {
  it('are the paths of the shared API contract', () => {
    for (const [name, path] of Object.entries(PATHS)) expect(API_PATHS[name as keyof typeof API_PATHS]).toBe(path);
  });
});
