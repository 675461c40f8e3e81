import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { gracefulStop, type StopParts } from './graceful-stop';

type LogLine = { level: number; msg: string } & Record<string, unknown>;

/** A stop's parts that record what happened, in order; `hang` names loops whose stop never ends. */
function stopParts(options: { hang?: string[]; failing?: string[]; cut?: number } = {}) {
  const events: string[] = [];
  const started = performance.now();
  let drainStartedAfterMs = Number.NaN;
  const lines: LogLine[] = [];
  const exits: number[] = [];
  let exited: (code: number) => void = () => undefined;
  const exitCode = new Promise<number>((resolve) => (exited = resolve));
  const loop = (name: string) => ({
    name,
    stop: async () => {
      events.push(`stopping ${name}`);
      if (options.hang?.includes(name)) await new Promise(() => undefined);
      if (options.failing?.includes(name)) throw new Error(`${name} broke`);
      events.push(`stopped ${name}`);
    },
  });
  const parts: StopParts = {
    drain: {
      inFlight: () => 2,
      close: async (graceMs) => {
        drainStartedAfterMs = performance.now() - started;
        events.push(`drain ${graceMs}`);
        return { cut: options.cut ?? 0 };
      },
    },
    loops: [loop('mail worker'), loop('tradingview loop 1')],
    closeDatabase: async () => {
      events.push('database closed');
    },
    logger: createLogger('info', { destination: { write: (line) => lines.push(JSON.parse(line) as LogLine) } }),
    noticeMs: 20,
    drainMs: 30,
    limitMs: 300,
    exit: (code) => {
      exits.push(code);
      exited(code);
    },
  };
  return { parts, events, lines, exits, exitCode, drainStartedAfterMs: () => drainStartedAfterMs };
}

describe('a graceful stop', () => {
  it('drains the requests after the notice, then stops every loop, then closes the database, and exits 0 once', async () => {
    const { parts, events, lines, exits, drainStartedAfterMs } = stopParts();
    await gracefulStop('SIGTERM', parts);

    // not before the notice's 20 ms (a timer may fire up to 1 ms early by a finer clock)
    expect(drainStartedAfterMs()).toBeGreaterThanOrEqual(19);
    // the loops stop side by side, between the drain and the database
    expect(events[0]).toBe('drain 30');
    expect(events.slice(1, -1).sort()).toEqual(['stopped mail worker', 'stopped tradingview loop 1', 'stopping mail worker', 'stopping tradingview loop 1']);
    expect(events.at(-1)).toBe('database closed');
    expect(exits).toEqual([0]);
    expect(lines[0]).toMatchObject({ msg: 'shutting down', signal: 'SIGTERM', inFlight: 2, noticeMs: 20 });
    expect(lines.find((line) => line.msg === 'stopped')).toMatchObject({ tookMs: expect.any(Number) });
    // the limit's timer is cleared: nothing exits again afterwards
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(exits).toEqual([0]);
  });

  it('says how many requests the grace period cut, and goes on', async () => {
    const { parts, lines, exits } = stopParts({ cut: 3 });
    await gracefulStop('SIGTERM', parts);
    expect(lines.find((line) => line.msg.startsWith('requests still unanswered'))).toMatchObject({ cut: 3, graceMs: 30 });
    expect(exits).toEqual([0]);
  });

  it('logs a loop that fails to stop and still closes the database and exits 0', async () => {
    const { parts, events, lines, exits } = stopParts({ failing: ['mail worker'] });
    await gracefulStop('SIGINT', parts);
    expect(lines.find((line) => line.msg === 'a background loop failed while stopping')?.err).toMatchObject({ message: 'mail worker broke' });
    expect(events.at(-1)).toBe('database closed');
    expect(exits).toEqual([0]);
  });

  it('a stop that runs out of time exits 1 once, naming its phase and the loops it still waited for', async () => {
    const { parts, events, lines, exits, exitCode } = stopParts({ hang: ['tradingview loop 1'] });
    void gracefulStop('SIGTERM', parts);

    expect(await exitCode).toBe(1);
    const tooLong = lines.find((line) => line.msg === 'shutdown took too long; exiting');
    expect(tooLong).toMatchObject({ level: 50, limitMs: 320, phase: 'stopping background loops', waitingFor: ['tradingview loop 1'], inFlight: 2 });
    expect(events).not.toContain('database closed');
    expect(exits).toEqual([1]);
  });
});
