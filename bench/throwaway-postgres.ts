// A Postgres cluster of the bench's own (initdb + pg_ctl in a temp directory), for faults the
// shared server must never see: the chaos bench restarts it in the middle of a sale. Run as root
// the cluster belongs to the `postgres` user (initdb refuses root); otherwise to the caller.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export type ThrowawayPostgres = {
  /** postgres://postgres@127.0.0.1:<port>/postgres: the admin database to create others beside. */
  url: string;
  /** Fast shutdown (every connection cut), `downMs` of outage, then up again. */
  restart: (downMs: number) => Promise<void>;
  destroy: () => void;
};

const BIN_DIRS = ['/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'];

export function startThrowawayPostgres(port: number): ThrowawayPostgres {
  const bin = BIN_DIRS.find((dir) => existsSync(join(dir, 'initdb')));
  if (!bin) throw new Error(`no initdb in ${BIN_DIRS.join(', ')}`);
  const dir = mkdtempSync(join(tmpdir(), 'candlewise-pg-'));
  const data = join(dir, 'data');
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  // as the cluster's owner, without a shell between (arguments are passed as they are)
  const command = (program: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args];
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c max_connections=100`;
  const pgCtlArgs = (...args: string[]) => ['-D', data, '-l', join(dir, 'postgres.log'), '-w', '-t', '60', ...args];
  // the restart runs while the bench's buyers are at work: it must not block their event loop
  const pgCtl = async (...args: string[]) => {
    await promisify(execFile)(...command('pg_ctl', pgCtlArgs(...args)));
  };

  execFileSync(...command('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']), { stdio: 'pipe' });
  execFileSync(...command('pg_ctl', pgCtlArgs('-o', options, 'start')), { stdio: 'pipe' });
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async restart(downMs) {
      await pgCtl('-m', 'fast', 'stop');
      await new Promise((done) => setTimeout(done, downMs));
      await pgCtl('-o', options, 'start');
    },
    destroy() {
      try {
        execFileSync(...command('pg_ctl', pgCtlArgs('-m', 'immediate', 'stop')), { stdio: 'pipe' });
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
