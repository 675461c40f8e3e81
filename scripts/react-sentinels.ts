import type { Plugin } from 'vite';

/**
 * React DOM's client makes five errors when its module is evaluated: sentinels it throws and
 * catches by identity inside its work loop (`SuspenseException` and the like), never reported with
 * their stack. Where DevTools is attached (Lighthouse, bench/long-tasks.mjs) V8 records a detailed
 * stack for every error made, and the source positions of an error made in the module's body
 * mean re-parsing that whole body (~180 kB minified): 13–20 ms of CPU at full speed, three
 * quarters of the task that evaluates React DOM after the landing page's first paint, 50–90 ms in
 * Lighthouse's 4× mobile run (docs/decisions/062, amendment). Made without a stack, as objects of
 * the Error prototype with the same message, they cost nothing to make and behave the same for
 * React. Only the production client build is touched (development builds, tests and the server's
 * renderer keep React as it is); a React whose module no longer reads as expected fails the build
 * rather than silently bringing the long task back.
 */
const SENTINELS = ['HydrationMismatchException', 'SuspenseException', 'SuspenseyCommitException', 'SuspenseActionException', 'SelectiveHydrationException'];

const REACT_DOM_CLIENT = /[\\/]react-dom[\\/]cjs[\\/]react-dom-client\.production\.js$/;

const STACKLESS = 'function stacklessSentinel(message) { return Object.create(Error.prototype, { message: { value: message, writable: true, configurable: true } }); }\n';

/** React DOM's source with its sentinel errors made without a stack. */
export function withStacklessSentinels(source: string): string {
  let code = source;
  for (const name of SENTINELS) {
    const made = new RegExp(`\\b${name} = Error\\((formatProdErrorMessage\\(\\d+\\))\\)`);
    if (!made.test(code)) throw new Error(`react-dom-client.production.js no longer makes ${name} as scripts/react-sentinels.ts expects: check what it does now`);
    code = code.replace(made, `${name} = stacklessSentinel($1)`);
  }
  return STACKLESS + code;
}

/** The Vite plugin: the production build's React DOM client with its sentinels made without a stack. */
export function stacklessReactSentinels(): Plugin {
  return {
    name: 'stackless-react-sentinels',
    apply: 'build',
    transform(code, id) {
      return REACT_DOM_CLIENT.test(id) ? { code: withStacklessSentinels(code), map: null } : null;
    },
  };
}
