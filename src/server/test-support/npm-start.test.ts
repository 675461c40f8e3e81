import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { PROJECT_ROOT } from '../project-root';
import { npmStart } from './npm-start';

// The image ships the compiled server without scripts/ or the build's tools, so it runs Node itself
// rather than `npm start` and repeats its flags (adding source maps for its stack traces): a change
// to one that misses the other is caught here.
test("the container image runs the server with npm start's Node flags", () => {
  const containerfile = readFileSync(join(PROJECT_ROOT, 'Containerfile'), 'utf8');
  const command = containerfile.match(/^CMD (\[.*\])$/m);
  expect(command, 'the Containerfile has a CMD in JSON form').not.toBeNull();
  const [program, ...args] = JSON.parse(command![1]!) as string[];
  expect(program).toBe('node');
  expect(args.filter((arg) => arg.startsWith('--') && arg !== '--enable-source-maps')).toEqual(npmStart().nodeFlags);
});
