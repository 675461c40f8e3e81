// Running the compiled server as `npm start` does, for the benches that measure the real process:
// ports, start and stop, its memory and CPU from /proc (Linux), and a throwaway Postgres database.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { npmStart } from '../src/server/test-support/npm-start';

export const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function waitUntilUp(child: ChildProcess, url: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`${url} did not answer within 180 s`);
}

export function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

/**
 * The fields of a /proc/<pid>/stat line after the command name in parentheses: [11] and [12] are
 * its user and system time, [13] and [14] its reaped children's, in clock ticks (100 per second).
 */
const statFields = (stat: string) => stat.split(') ')[1]!.split(' ');

/** CPU time (user + system) a process has used so far, in microseconds. */
export function cpuMicros(pid: number): number {
  const fields = statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * The CPU time of every process named postgres on this machine, exited children included (a
 * backend's time moves to the postmaster's children fields when it is reaped): a local server's
 * share of a measured stretch, 0 when none runs here.
 */
export function postgresCpuMicros(): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    if (!stat.includes(' (postgres) ')) continue;
    const fields = statFields(stat);
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticks * 10_000;
}

/** Resident memory of a process in MB. */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : Number.NaN;
}

/** A fresh database beside the one `adminUrl` names (which must exist), to drop when done. */
export async function freshPostgres(adminUrl: string, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** Node's flags for a CPU profile when the bench was run with `--cpu-prof DIR` (none without it). */
export function cpuProfileFlags(argv: string[] = process.argv): string[] {
  const at = argv.indexOf('--cpu-prof');
  if (at < 0) return [];
  const dir = argv[at + 1];
  if (!dir) throw new Error('--cpu-prof needs the folder to write the profile into');
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`];
}

/**
 * `npm start` without npm in between, so that the process measured is the server itself. It
 * builds the server first when the build is missing or stale: start one instance before the next.
 * `extraFlags` go to Node after npm start's own (e.g. `--cpu-prof`, which NODE_OPTIONS refuses).
 */
export function startServer(port: number, env: Record<string, string>, logFile: string, extraFlags: string[] = []): ChildProcess {
  const log = openSync(logFile, 'a');
  const { nodeFlags, script } = npmStart();
  return spawn(process.execPath, [...nodeFlags, ...extraFlags, script], { cwd: root, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', log, log] });
}
