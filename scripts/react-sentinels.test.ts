import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withStacklessSentinels } from './react-sentinels.ts';

// the package exports only its entry points: the file beside its package.json
const reactDomClient = () => readFileSync(join(dirname(createRequire(import.meta.url).resolve('react-dom/package.json')), 'cjs', 'react-dom-client.production.js'), 'utf8');

describe('React DOM with stackless sentinels', () => {
  it('makes the installed React DOM\'s five module-level errors without a stack, and no other', () => {
    const source = reactDomClient();
    const code = withStacklessSentinels(source);
    for (const [name, number] of [['HydrationMismatchException', 519], ['SuspenseException', 460], ['SuspenseyCommitException', 474], ['SuspenseActionException', 542], ['SelectiveHydrationException', 461]] as const) {
      expect(code).toContain(`${name} = stacklessSentinel(formatProdErrorMessage(${number}))`);
    }
    const errorsMade = (text: string) => text.match(/\bError\(formatProdErrorMessage\(/g)?.length ?? 0;
    expect(errorsMade(code)).toBe(errorsMade(source) - 5);
  });

  it('gives objects that read as React\'s errors: the prototype and the message', () => {
    const made = new Function(`${withStacklessSentinels('var formatProdErrorMessage = (n) => "Minified React error #" + n;\nvar SuspenseException = Error(formatProdErrorMessage(460)), HydrationMismatchException = Error(formatProdErrorMessage(519)), SuspenseyCommitException = Error(formatProdErrorMessage(474)), SuspenseActionException = Error(formatProdErrorMessage(542)), SelectiveHydrationException = Error(formatProdErrorMessage(461));')}\nreturn SuspenseException;`)() as Error;
    expect(made).toBeInstanceOf(Error);
    expect(made.message).toBe('Minified React error #460');
    expect(made.name).toBe('Error');
    expect(made.stack).toBeUndefined();
  });

  it('refuses a React DOM that no longer makes a sentinel as expected', () => {
    expect(() => withStacklessSentinels(reactDomClient().replace('SuspenseException = Error(', 'SuspenseException = new Error('))).toThrow(/no longer makes SuspenseException/);
  });
});
