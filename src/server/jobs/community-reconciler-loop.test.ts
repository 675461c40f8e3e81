import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { communityReconcilerLoop, type CommunityReconcilerSteps } from './community-reconciler-loop';

const MINUTE = 60_000;

/** A community whose steps record what they were asked, with `due` rows waiting and a clock the test moves. */
function community(options: { due?: number; auditFails?: boolean; failingRows?: number[] } = {}) {
  const calls: string[] = [];
  let due = options.due ?? 0;
  let next = 0;
  let now = Date.parse('2026-11-30T12:00:00Z');
  const logged: string[] = [];
  const steps: CommunityReconcilerSteps<number> = {
    linkedMembers: async () => ['member-a', 'member-b'],
    syncUser: async (userId) => void calls.push(`sync ${userId}`),
    audit: async () => {
      calls.push('audit');
      if (options.auditFails) throw new Error('the community is down');
    },
    claimNextDue: async () => (due > 0 ? (due--, ++next) : null),
    processRow: async (row) => (calls.push(`row ${row}`), !(options.failingRows ?? []).includes(row)),
  };
  const destination = { write: (line: string) => void logged.push(JSON.parse(line).msg as string) };
  const loop = communityReconcilerLoop(steps, {
    name: 'chat',
    logger: createLogger('warn', { destination }),
    clock: () => new Date(now),
    auditIntervalMs: 60 * MINUTE,
    sweepIntervalMs: 15 * MINUTE,
    batchSize: 3,
  });
  return {
    loop,
    calls,
    logged,
    later: (ms: number) => void (now += ms),
  };
}

describe('the community reconcilers\' schedule', () => {
  it('resyncs every linked member and audits on the first pass, then works through the due rows', async () => {
    const { loop, calls } = community({ due: 2 });
    expect(await loop.runOnce()).toEqual({ processed: 2, succeeded: 2, failed: 0 });
    expect(calls).toEqual(['sync member-a', 'sync member-b', 'audit', 'row 1', 'row 2']);
  });

  it('sweeps again only once the sweep interval has passed, and audits only once the audit interval has', async () => {
    const { loop, calls, later } = community();
    await loop.runOnce();
    calls.length = 0;
    later(14 * MINUTE);
    await loop.runOnce();
    expect(calls).toEqual([]);
    later(1 * MINUTE);
    await loop.runOnce();
    expect(calls).toEqual(['sync member-a', 'sync member-b']);
    calls.length = 0;
    later(45 * MINUTE);
    await loop.runOnce();
    expect(calls).toEqual(['sync member-a', 'sync member-b', 'audit']);
  });

  it('takes at most a batch of due rows a pass, counting the ones that failed', async () => {
    const { loop, calls } = community({ due: 5, failingRows: [2] });
    expect(await loop.runOnce()).toEqual({ processed: 3, succeeded: 2, failed: 1 });
    expect(await loop.runOnce()).toEqual({ processed: 2, succeeded: 2, failed: 0 });
    expect(calls.filter((call) => call.startsWith('row'))).toEqual(['row 1', 'row 2', 'row 3', 'row 4', 'row 5']);
  });

  it('logs a failed audit by the community\'s name and still works through the due rows', async () => {
    const { loop, calls, logged } = community({ due: 1, auditFails: true });
    expect(await loop.runOnce()).toEqual({ processed: 1, succeeded: 1, failed: 0 });
    expect(calls).toContain('row 1');
    expect(logged).toEqual(['chat audit failed; next interval tries again']);
  });
});
