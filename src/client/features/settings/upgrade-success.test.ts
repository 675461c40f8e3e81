import { afterEach, describe, expect, it, vi } from 'vitest';
import { runUpgradeSuccessSequence, sleep } from './upgrade-success';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Records every step, with injected waits recorded as 'sleep N' instead of taking time. */
function recorder(accessResults: ('ok' | 'fail')[] = ['ok']) {
  const steps: string[] = [];
  let accessCall = 0;
  const deps = {
    notifySuccess: (toast: { title: string; description: string }) => steps.push(`toast ${toast.title} / ${toast.description}`),
    refreshSubscription: async () => {
      steps.push('refresh subscription');
    },
    refreshAccess: async () => {
      const result = accessResults[accessCall] ?? 'ok';
      accessCall += 1;
      steps.push(`refresh access (${result})`);
      if (result === 'fail') throw new Error('access check failed');
      return true;
    },
    navigate: (path: string) => steps.push(`navigate ${path}`),
    sleep: async (ms: number) => {
      steps.push(`sleep ${ms}`);
    },
  };
  return { steps, deps };
}

describe('runUpgradeSuccessSequence', () => {
  it('toasts, waits 2 s, refreshes the subscription, waits 1 s, refreshes access, waits 0.5 s, navigates', async () => {
    const { steps, deps } = recorder();
    await runUpgradeSuccessSequence('quarterly', deps);
    expect(steps).toEqual([
      'toast Plan Updated Successfully / Your subscription has been updated to Quarterly.',
      'sleep 2000',
      'refresh subscription',
      'sleep 1000',
      'refresh access (ok)',
      'sleep 500',
      'navigate /dashboard/settings?section=upgrade',
    ]);
  });

  it('carries on when the access refresh fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { steps, deps } = recorder(['fail']);
    await runUpgradeSuccessSequence('yearly', deps);
    expect(steps.slice(3)).toEqual([
      'sleep 1000',
      'refresh access (fail)',
      'sleep 500',
      'navigate /dashboard/settings?section=upgrade',
    ]);
  });

  it('carries on when the subscription refresh fails: the change itself succeeded', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { steps, deps } = recorder();
    deps.refreshSubscription = async () => {
      steps.push('refresh subscription (fail)');
      throw new Error('offline');
    };
    await runUpgradeSuccessSequence('quarterly', deps);
    expect(steps.at(-1)).toBe('navigate /dashboard/settings?section=upgrade');
    expect(steps).toContain('refresh access (ok)');
  });

  it('names EU plans by their plan name', async () => {
    const { steps, deps } = recorder();
    await runUpgradeSuccessSequence('euQuarterly', deps);
    expect(steps[0]).toBe('toast Plan Updated Successfully / Your subscription has been updated to Quarterly.');
  });

  it('stops without navigating once the member has left the page', async () => {
    const controller = new AbortController();
    const { steps, deps } = recorder();
    const sleep = deps.sleep;
    deps.sleep = async (ms) => {
      await sleep(ms);
      if (ms === 1000) controller.abort();
    };
    await runUpgradeSuccessSequence('quarterly', { ...deps, signal: controller.signal });
    expect(steps).toEqual([
      'toast Plan Updated Successfully / Your subscription has been updated to Quarterly.',
      'sleep 2000',
      'refresh subscription',
      'sleep 1000',
    ]);
  });
});

describe('sleep', () => {
  it('resolves after the given time', async () => {
    vi.useFakeTimers();
    let done = false;
    void sleep(2000).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(1999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    vi.useRealTimers();
  });
});
