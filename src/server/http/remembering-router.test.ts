import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import type { Result, Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';
import { rememberingRouter } from './remembering-router';

/** A TrieRouter that counts the walks it makes. */
function countingRouter() {
  const trie = new TrieRouter<string>();
  const counted = {
    walks: 0,
    name: 'counting',
    add: (method: string, path: string, handler: string) => trie.add(method, path, handler),
    match: (method: string, path: string): Result<string> => {
      counted.walks += 1;
      return trie.match(method, path);
    },
  } satisfies Router<string> & { walks: number };
  return counted;
}

function withRoutes(router: Router<string>) {
  router.add('ALL', '/api/*', 'session');
  router.add('GET', '/api/content/strategies/:id', 'strategy');
  router.add('GET', '/api/admin/content/images', 'images');
  router.add('GET', '/api/admin/content/:id', 'piece');
  return router;
}

const handlersOf = (result: Result<string>) => result[0].map(([handler, params]) => [handler, { ...params }]);

describe('the remembering router', () => {
  it('answers as the router it keeps, and walks it once per method and path', () => {
    const walked = countingRouter();
    const router = withRoutes(rememberingRouter(walked));
    const plain = withRoutes(new TrieRouter<string>());
    for (const [method, path] of [
      ['GET', '/api/content/strategies/midline'],
      ['GET', '/api/admin/content/images'],
      ['GET', '/api/admin/content/welcome'],
      ['POST', '/api/admin/content/welcome'],
      ['GET', '/nothing/here'],
    ] as const) {
      expect(handlersOf(router.match(method, path))).toEqual(handlersOf(plain.match(method, path)));
      expect(router.match(method, path)).toBe(router.match(method, path));
    }
    expect(walked.walks).toBe(5);
  });

  it('keeps a bounded number of paths, then starts over', () => {
    const walked = countingRouter();
    const router = withRoutes(rememberingRouter(walked, 3));
    for (const id of ['a', 'b', 'c', 'd', 'a']) router.match('GET', `/api/content/strategies/${id}`);
    // a, b, c kept; d starts over with d alone; a is walked again
    expect(walked.walks).toBe(5);
    expect(handlersOf(router.match('GET', '/api/content/strategies/d'))).toEqual([
      ['session', {}],
      ['strategy', { id: 'd' }],
    ]);
    expect(walked.walks).toBe(5);
  });

  it('serves a Hono app whose fixed and parameter segments share a level', async () => {
    const app = new Hono({ router: rememberingRouter() });
    app.get('/content/images', (c) => c.text('images'));
    app.get('/content/:id', (c) => c.text(`piece ${c.req.param('id')}`));
    for (let i = 0; i < 2; i++) {
      expect(await (await app.request('/content/images')).text()).toBe('images');
      expect(await (await app.request('/content/welcome')).text()).toBe('piece welcome');
      expect(await (await app.request('/content/other')).text()).toBe('piece other');
    }
    expect(app.router.name).toBe('SmartRouter + TrieRouter, remembered');
  });
});
