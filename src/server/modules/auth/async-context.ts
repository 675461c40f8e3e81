import { AsyncLocalStorage } from 'node:async_hooks';

/** Where better-auth keeps its process-wide state, its AsyncLocalStorage instances among it. */
const BETTER_AUTH_GLOBAL = Symbol.for('better-auth:global');

function betterAuthStorages(): AsyncLocalStorage<unknown>[] {
  const global = (globalThis as Record<symbol, { context?: Record<string, unknown> } | undefined>)[BETTER_AUTH_GLOBAL];
  return Object.values(global?.context ?? {}).filter((value): value is AsyncLocalStorage<unknown> => value instanceof AsyncLocalStorage);
}

type AuthLike = { handler: (request: Request) => Promise<Response>; api: Record<string, unknown> };

/**
 * better-auth keeps each call's state in AsyncLocalStorage. On Node 20 one enabled storage hooks
 * every promise of the process from then on, whoever made it: after the first sign-in, every
 * request of the shop paid 5–10 µs for a context only auth calls read. So the storages are
 * switched off whenever no auth call is under way (AsyncLocalStorage#disable; the next call's
 * run() switches them on again). Every auth call of the app goes through the object returned
 * here: better-auth runs its own work, background e-mails included, inside the awaited call.
 */
export function asyncContextOnlyDuringCalls<T extends AuthLike>(auth: T): T {
  let underWay = 0;
  const during =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      underWay += 1;
      try {
        return await call(...args);
      } finally {
        underWay -= 1;
        if (underWay === 0) for (const storage of betterAuthStorages()) storage.disable();
      }
    };
  const api = Object.fromEntries(
    Object.entries(auth.api).map(([name, endpoint]) => [name, typeof endpoint === 'function' ? Object.assign(during(endpoint as (...args: unknown[]) => Promise<unknown>), endpoint) : endpoint]),
  );
  return { ...auth, handler: during(auth.handler), api };
}
