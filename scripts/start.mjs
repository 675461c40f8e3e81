// `npm start`: builds what is missing or stale (scripts/build.mjs), then runs the compiled server
// in this process. A client served from CLIENT_DIR is the caller's build and is left alone.
import { build } from './build.mjs';

await build(process.env.CLIENT_DIR ? ['server'] : ['client', 'server']);
await import('../dist/server/main.js');
