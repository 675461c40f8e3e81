import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

/** Enough for every static route and the ids members read; past it, the kept answers start over. */
export const REMEMBERED_PATHS_LIMIT = 2000;

/**
 * Hono's own router, whose answer for each method and path is kept once found. The app's routes
 * mix a fixed and a parameter segment at the same level (e.g. /api/admin/content/images beside
 * /api/admin/content/:id), which Hono's RegExpRouter refuses, so it falls back to its TrieRouter:
 * that walks the tree on every request, 2 µs for a member's /api/content/strategies/:id. An
 * answer depends on the method and path alone, and Hono only reads it (its RegExpRouter hands
 * out one shared answer per fixed path itself), so the next request for the path reuses it.
 */
export function rememberingRouter<T>(router: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] }), limit = REMEMBERED_PATHS_LIMIT): Router<T> {
  let kept = new Map<string, Map<string, Result<T>>>();
  let size = 0;
  return {
    get name() {
      return `${router.name}, remembered`;
    },
    add: (method, path, handler) => router.add(method, path, handler),
    match: (method, path) => {
      let ofMethod = kept.get(method);
      const known = ofMethod?.get(path);
      if (known) return known;
      const result = router.match(method, path);
      // a client can ask for endless paths: bounded, and forgotten at once rather than by age
      if (size >= limit) {
        kept = new Map();
        size = 0;
        ofMethod = undefined;
      }
      if (!ofMethod) kept.set(method, (ofMethod = new Map()));
      ofMethod.set(path, result);
      size += 1;
      return result;
    },
  };
}
