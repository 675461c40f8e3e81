import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildState, fingerprint, needsBuild, recordBuild } from './build-state.mjs';

describe('needsBuild', () => {
  it.each([
    [{ outputExists: false, recorded: 'a', current: 'a' }, true],
    [{ outputExists: true, recorded: null, current: 'a' }, true],
    [{ outputExists: true, recorded: 'a', current: 'b' }, true],
    [{ outputExists: true, recorded: 'a', current: 'a' }, false],
  ])('%o → %s', (state, expected) => {
    expect(needsBuild(state)).toBe(expected);
  });
});

describe('a server build in a project folder', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const build = () => {
    write('dist/server/main.js', '// built');
    recordBuild(root, 'server', buildState(root, 'server').current);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'candlewise-build-state-'));
    write('src/server/main.ts', 'listen()');
    write('src/shared/plans.ts', 'export const plans = []');
    write('tsconfig.json', '{}');
    write('package-lock.json', '{}');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is stale before its first build and fresh after it', () => {
    expect(buildState(root, 'server').stale).toBe(true);
    build();
    expect(buildState(root, 'server').stale).toBe(false);
  });

  it('is stale again after a source or the lock file changes', () => {
    build();
    write('src/shared/plans.ts', 'export const plans = [1]');
    expect(buildState(root, 'server').stale).toBe(true);
    build();
    write('package-lock.json', '{"lockfileVersion":3}');
    expect(buildState(root, 'server').stale).toBe(true);
  });

  it('is stale when a source is added or the output is removed', () => {
    build();
    write('src/server/new-module.ts', 'export {}');
    expect(buildState(root, 'server').stale).toBe(true);
    build();
    rmSync(join(root, 'dist/server/main.js'));
    expect(buildState(root, 'server').stale).toBe(true);
  });

  it('stays fresh when only times or tests change, or the client changes', () => {
    build();
    utimesSync(join(root, 'src/server/main.ts'), new Date(), new Date(Date.now() + 60_000));
    write('src/server/main.test.ts', 'it()');
    write('src/server/test/helper.ts', 'export {}');
    write('src/client/main.tsx', 'render()');
    expect(buildState(root, 'server').stale).toBe(false);
  });

  it('tells the same contents from different paths', () => {
    const before = fingerprint(root, ['src']);
    rmSync(join(root, 'src/shared/plans.ts'));
    write('src/shared/plan.ts', 'export const plans = []');
    expect(fingerprint(root, ['src'])).not.toBe(before);
  });
});
