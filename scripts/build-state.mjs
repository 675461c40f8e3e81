// What `npm start` must build before it serves: a build is fresh when its output exists and the
// fingerprint recorded when it was made equals the fingerprint of its inputs now. A fingerprint
// hashes the inputs' paths and contents (not their times), so a checkout, a touch or a copy
// that leaves the sources as they were does not rebuild, and any edit does.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

/** Tests are not part of a build: editing one must not rebuild anything. */
const isTestPath = (path) => /\.test\.tsx?$/.test(path) || path.split(sep).includes('test');

function filesUnder(root, entry) {
  const path = join(root, entry);
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [entry];
  return readdirSync(path).flatMap((name) => filesUnder(root, join(entry, name)));
}

/**
 * The inputs of each build, relative to the project root. The client's are the Vite build's; a
 * build step that reads more (e.g. pre-rendering) adds its inputs here.
 */
export const BUILDS = {
  server: {
    inputs: ['src/server', 'src/shared', 'tsconfig.json', 'package-lock.json', 'scripts/build-server.mjs'],
    output: 'dist/server/main.js',
  },
  client: {
    inputs: ['src/client', 'src/shared', 'index.html', 'landing.html', 'legal.html', 'scripts/build-client.mjs', 'scripts/single-file-entry.mjs', 'public', 'vite.config.ts', 'vite.aliases.ts', 'package-lock.json'],
    output: 'dist/client/index.html',
  },
};

/** sha256 over the sorted paths and contents of every non-test file under `inputs`. */
export function fingerprint(root, inputs) {
  const hash = createHash('sha256');
  const files = [...new Set(inputs.flatMap((entry) => filesUnder(root, entry)))].filter((path) => !isTestPath(path)).sort();
  for (const file of files) {
    hash.update(`${file.split(sep).join('/')}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The rule: build when the output is missing, was never fingerprinted, or its inputs changed. */
export function needsBuild({ outputExists, recorded, current }) {
  return !outputExists || recorded === null || recorded !== current;
}

const recordPath = (root, name) => join(root, 'dist', '.fingerprints', name);

/** Where one build stands now: its current fingerprint and whether it must be built. */
export function buildState(root, name) {
  const { inputs, output } = BUILDS[name];
  const current = fingerprint(root, inputs);
  const record = recordPath(root, name);
  const recorded = existsSync(record) ? readFileSync(record, 'utf8').trim() : null;
  return { current, stale: needsBuild({ outputExists: existsSync(join(root, output)), recorded, current }) };
}

/** Remembers the fingerprint a build was made from (after it succeeded). */
export function recordBuild(root, name, current) {
  const record = recordPath(root, name);
  mkdirSync(dirname(record), { recursive: true });
  writeFileSync(record, `${current}\n`);
}

