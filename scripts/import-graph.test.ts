import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importCircles, importGraph, importersOf, serverPartGraph } from './import-graph.mjs';

let root = '';
function tree(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'import-graph-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
const at = (path: string) => join(root, path);
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('importGraph', () => {
  it('follows relative, aliased, type-only, re-exported and dynamic imports, not comments or packages', () => {
    const src = tree({
      'shared/plans.ts': 'export const plans = 1;',
      'server/a.ts': [
        "import { plans } from '@shared/plans';",
        "import type { B } from './b';",
        "export * from './c';",
        "// import { x } from './commented';",
        '/**',
        " * import { y } from './documented';",
        ' */',
        "import { z } from 'zod';",
        "const lazy = () => import('./d');",
      ].join('\n'),
      'server/b.ts': 'export type B = 1;',
      'server/c.ts': 'export const c = 1;',
      'server/d.tsx': 'export const d = 1;',
      'server/commented.ts': '',
      'server/documented.ts': '',
    });
    expect(importGraph(src).get(at('server/a.ts'))?.sort()).toEqual([at('server/b.ts'), at('server/c.ts'), at('server/d.tsx'), at('shared/plans.ts')]);
  });
});

describe('importCircles', () => {
  it('names each circle once, type-only imports included, and nothing in a graph without one', () => {
    const src = tree({
      'a.ts': "import type { B } from './b';",
      'b.ts': "import type { A } from './a';",
      'c.ts': "import { a } from './a';\nimport { d } from './d';",
      'd.ts': "import { e } from './e';",
      'e.ts': "import { d } from './d';",
      'f.ts': "import { f } from './f';",
    });
    const circles = importCircles(importGraph(src)).map((circle) => circle.map((file) => file.slice(src.length + 1)));
    expect(circles.sort()).toEqual([['a.ts', 'b.ts'], ['d.ts', 'e.ts'], ['f.ts']]);
  });

  it('finds none where imports only run one way', () => {
    const src = tree({ 'a.ts': "import { b } from './b';", 'b.ts': "import { c } from './c';", 'c.ts': '' });
    expect(importCircles(importGraph(src))).toEqual([]);
  });
});

describe('importersOf', () => {
  it('collects the files that reach a target through any chain of imports', () => {
    const src = tree({
      'db.ts': '',
      'kit.ts': "import { db } from './db';",
      'uses-kit.test.ts': "import { kit } from './kit';",
      'pure.test.ts': "import { x } from './pure';",
      'pure.ts': '',
    });
    const reaching = [...importersOf(importGraph(src), [at('db.ts')])].map((file) => file.slice(src.length + 1)).sort();
    expect(reaching).toEqual(['db.ts', 'kit.ts', 'uses-kit.test.ts']);
  });
});

describe('serverPartGraph', () => {
  it('draws each module folder, other folder and loose file of src/server as one part, without tests or their support', () => {
    const src = tree({
      'server/app.ts': "import { a } from './modules/billing/a';\nimport { h } from './http/errors';",
      'server/modules/billing/a.ts': "import { b } from '../fulfilment/b';\nexport const a = b;",
      'server/modules/billing/c.ts': 'export const c = 1;',
      'server/modules/fulfilment/b.ts': "import { c } from '../billing/c';\nexport const b = c;",
      'server/modules/fulfilment/b.test.ts': "import '../../app';",
      'server/test-support/kit.ts': "import '../app';",
      'server/http/errors.ts': 'export const h = 1;',
    });
    const { graph, partOf } = serverPartGraph(importGraph(src), src);
    expect(Object.fromEntries([...graph].map(([part, targets]) => [part, [...targets].sort()]))).toEqual({
      'app.ts': ['http', 'modules/billing'],
      'modules/billing': ['modules/fulfilment'],
      'modules/fulfilment': ['modules/billing'],
      http: [],
    });
    expect(partOf(at('server/modules/fulfilment/b.test.ts'))).toBeNull();
    // no file circle, but the two modules import each other: one import runs back up
    expect(importCircles(importGraph(src))).toEqual([]);
    expect(importCircles(graph)).toEqual([['modules/billing', 'modules/fulfilment']]);
  });
});
