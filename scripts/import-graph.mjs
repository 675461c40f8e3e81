// The import graph of src/, read from the source text: which project files each file imports
// (static, type-only and string-literal dynamic imports alike), with the tsconfig path aliases
// resolved. Plain JavaScript because ESLint's config loads it (the no-import-circle rule) as well
// as the Vitest config (the suites that reach a database).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const IMPORT = /(?:^|[;\s])(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|(?:^|[;\s])import\s*\(?\s*['"]([^'"]+)['"]/gm;
const ALIASES = { '@shared/': 'shared', '@server/': 'server', '@client/': 'client' };
const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * Comments that open a line go first: one that quotes an import is not one. (Only those: a
 * string such as '/api/*' must not be taken for the start of a comment.)
 */
function withoutComments(text) {
  return text.replace(/^\s*\/\*[\s\S]*?\*\//gm, '').replace(/^\s*\/\/.*$/gm, '');
}

function resolveSpecifier(fromFile, specifier, srcRoot) {
  let base = null;
  if (specifier.startsWith('.')) base = resolve(dirname(fromFile), specifier);
  for (const [alias, folder] of Object.entries(ALIASES)) {
    if (specifier.startsWith(alias)) base = join(srcRoot, folder, specifier.slice(alias.length));
  }
  if (base === null) return null;
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    if (/\.(ts|tsx)$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

/** Map from each .ts/.tsx file under `srcRoot` to the project files it imports. */
export function importGraph(srcRoot) {
  const graph = new Map();
  for (const file of sourceFiles(srcRoot)) {
    const targets = new Set();
    for (const match of withoutComments(readFileSync(file, 'utf8')).matchAll(IMPORT)) {
      const target = resolveSpecifier(file, match[1] ?? match[2], srcRoot);
      if (target) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** The files that import `targets` directly or through other files, `targets` included. */
export function importersOf(graph, targets) {
  const reaching = new Set(targets);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [file, imports] of graph) {
      if (!reaching.has(file) && imports.some((target) => reaching.has(target))) {
        reaching.add(file);
        grew = true;
      }
    }
  }
  return reaching;
}

/** Every import circle: the strongly connected groups of two or more files, or a file importing itself. */
export function importCircles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const circles = [];
  let counter = 0;
  // Tarjan's algorithm, iterative so that a deep import chain cannot overflow the call stack
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work = [[root, 0]];
    while (work.length) {
      const frame = work[work.length - 1];
      const [file, next] = frame;
      if (next === 0) {
        index.set(file, counter);
        low.set(file, counter);
        counter += 1;
        stack.push(file);
        onStack.add(file);
      }
      const imports = graph.get(file) ?? [];
      if (next < imports.length) {
        frame[1] += 1;
        const target = imports[next];
        if (!index.has(target)) work.push([target, 0]);
        else if (onStack.has(target)) low.set(file, Math.min(low.get(file), index.get(target)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(file)));
      }
      if (low.get(file) === index.get(file)) {
        const group = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          group.push(member);
        } while (member !== file);
        if (group.length > 1 || imports.includes(file)) circles.push(group.sort());
      }
    }
  }
  return circles;
}

/**
 * The graph of the parts of src/server, as a house plan draws them: each folder of modules/ is one
 * part, each other folder one part, each loose file its own part. Tests and the test support are
 * left out: they sit above everything they exercise.
 */
export function serverPartGraph(graph, srcRoot) {
  const server = join(srcRoot, 'server') + '/';
  const partOf = (file) => {
    if (!file.startsWith(server)) return null;
    const path = file.slice(server.length);
    if (/\.test\.tsx?$/.test(path) || path.startsWith('test-support/')) return null;
    const [first, second] = path.split('/');
    if (first === 'modules' && second) return `modules/${second}`;
    return path.includes('/') ? first : path;
  };
  const parts = new Map();
  for (const [file, imports] of graph) {
    const from = partOf(file);
    if (from === null) continue;
    const targets = parts.get(from) ?? new Set();
    for (const target of imports) {
      const to = partOf(target);
      if (to !== null && to !== from) targets.add(to);
    }
    parts.set(from, targets);
  }
  return { partOf, graph: new Map([...parts].map(([part, targets]) => [part, [...targets]])) };
}
