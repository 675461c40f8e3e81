import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logger';
import { createBackgroundLoop } from './background-loop';

const INTERVAL = 1_000;

/** A pass the test finishes by hand, to look at the loop while a pass is in flight. */
function controlledPasses() {
  const pending: Array<{ finish: (more?: boolean) => void; fail: (error: Error) => void }> = [];
  const pass = vi.fn(
    () =>
      new Promise<boolean>((resolve, reject) => {
        pending.push({ finish: (more = false) => resolve(more), fail: reject });
      }),
  );
  return {
    pass,
    /** Finishes the oldest pass in flight and lets the loop react. */
    async finish(more?: boolean) {
      pending.shift()?.finish(more);
      await vi.advanceTimersByTimeAsync(0);
    },
    async fail(error: Error) {
      pending.shift()?.fail(error);
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

function loopWith(pass: () => Promise<boolean | void>, extra: { firstDelayMs?: number } = {}) {
  const logger = createLogger('silent');
  const errors = vi.spyOn(logger, 'error');
  const loop = createBackgroundLoop({ pass, intervalMs: INTERVAL, logger, label: 'test loop', ...extra });
  return { loop, errors };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the background loop', () => {
  it('runs a pass at start, then one per interval, and a second start changes nothing', async () => {
    const pass = vi.fn(async () => false);
    const { loop } = loopWith(pass);
    expect(loop.start()).toBe(true);
    expect(loop.start()).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(pass).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(INTERVAL - 1);
    expect(pass).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(pass).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(3 * INTERVAL);
    expect(pass).toHaveBeenCalledTimes(5);
    await loop.stop();
  });

  it('waits firstDelayMs before the first pass when given', async () => {
    const pass = vi.fn(async () => undefined);
    const { loop } = loopWith(pass, { firstDelayMs: INTERVAL });
    loop.start();
    await vi.advanceTimersByTimeAsync(INTERVAL - 1);
    expect(pass).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(pass).toHaveBeenCalledTimes(1);
    await loop.stop();
  });

  it('runs again at once when a pass says more work waits', async () => {
    const passes = controlledPasses();
    const { loop } = loopWith(passes.pass);
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    await passes.finish(true);
    expect(passes.pass).toHaveBeenCalledTimes(2);
    await passes.finish(false);
    expect(passes.pass).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(passes.pass).toHaveBeenCalledTimes(3);
    await passes.finish();
    await loop.stop();
  });

  it('a kick while idle runs a pass now; a kick in flight runs one right after, never two at once', async () => {
    const passes = controlledPasses();
    const { loop } = loopWith(passes.pass);
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    await passes.finish();
    expect(passes.pass).toHaveBeenCalledTimes(1);

    loop.kick();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes.pass).toHaveBeenCalledTimes(2);

    loop.kick();
    loop.kick();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes.pass).toHaveBeenCalledTimes(2);
    await passes.finish();
    expect(passes.pass).toHaveBeenCalledTimes(3);
    await passes.finish();
    expect(passes.pass).toHaveBeenCalledTimes(3);
    await loop.stop();
  });

  it('logs a failed pass with its label and keeps going', async () => {
    const passes = controlledPasses();
    const { loop, errors } = loopWith(passes.pass);
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    const failure = new Error('database away');
    await passes.fail(failure);
    expect(errors).toHaveBeenCalledWith({ err: failure }, 'test loop pass failed');
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(passes.pass).toHaveBeenCalledTimes(2);
    await passes.finish();
    await loop.stop();
  });

  it('stop waits for the pass in flight, then no pass runs, even on a kick', async () => {
    const passes = controlledPasses();
    const { loop } = loopWith(passes.pass);
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = loop.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    await passes.finish(true);
    await stopping;
    expect(stopped).toBe(true);
    loop.kick();
    await vi.advanceTimersByTimeAsync(10 * INTERVAL);
    expect(passes.pass).toHaveBeenCalledTimes(1);
  });

  it('does nothing on a kick before start', async () => {
    const pass = vi.fn(async () => false);
    const { loop } = loopWith(pass);
    loop.kick();
    await vi.advanceTimersByTimeAsync(10 * INTERVAL);
    expect(pass).not.toHaveBeenCalled();
  });
});
