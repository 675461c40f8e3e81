// `npm start`'s command line from package.json, for what runs the server as it does (the benches,
// main.test.ts): its Node flags size V8's heap (docs/decisions/019, 039), so a measurement or a
// test without them is of another process.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../project-root';

/** The Node flags of `npm start` and the script it runs (relative to the project). */
export function npmStart(): { nodeFlags: string[]; script: string } {
  const { scripts } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const [program, ...args] = scripts.start.split(' ');
  const script = args.pop();
  if (program !== 'node' || !script) throw new Error(`npm start runs "${scripts.start}", not node with a script: it cannot be run the same way`);
  return { nodeFlags: args, script };
}
