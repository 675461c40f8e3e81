// `npm run move-to-postgres -- <postgres-url>` (move-command.ts). With the embedded database, stop
// the server first: PGlite's data directory is one process's at a time.
import { openDatabase } from '../db/client';
import { runWithDatabase } from './cli-database';
import { runMoveCommand } from './move-command';

await runWithDatabase((config, source) =>
  runMoveCommand({ config, source, openTarget: (url) => openDatabase({ kind: 'postgres', url }), print: (line) => console.log(line) }, process.argv.slice(2)),
);
