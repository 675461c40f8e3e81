// `npm run dev`: the API server restarting on change (tsx watch) and Vite with hot reload, side
// by side. Open http://localhost:5173; Vite proxies /api to the server on port 3000.
import { spawn } from 'node:child_process';

const env = {
  ...process.env,
  PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:5173',
  TRUSTED_ORIGINS: process.env.TRUSTED_ORIGINS ?? 'http://localhost:5173,http://localhost:3000',
  // the SPA comes from Vite in development, not from a build
  CLIENT_DIR: process.env.CLIENT_DIR ?? './.no-client-build',
};

const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'src/server/main.ts'], { stdio: 'inherit', env }),
  spawn('npx', ['vite'], { stdio: 'inherit', env }),
];

function stop(code = 0) {
  for (const child of children) child.kill('SIGTERM');
  process.exit(code);
}
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop());
process.on('SIGTERM', () => stop());
