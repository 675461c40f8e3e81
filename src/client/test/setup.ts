import '@testing-library/jest-dom/vitest';
import { cleanup, configure, getConfig, type Config } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// findBy*/waitFor wait on state; this bound only decides when a wait that never comes true fails.
// It is generous because a busy 2-core machine can take seconds for a render that takes 50 ms alone.
const ASYNC_TIMEOUT_MS = 30_000;

const defaultElementError = getConfig().getElementError;
/** Set by Testing Library while it polls (not in its public types). */
const polling = () => (getConfig() as Config & { _disableExpensiveErrorDiagnostics?: boolean })._disableExpensiveErrorDiagnostics === true;
configure({
  asyncUtilTimeout: ASYNC_TIMEOUT_MS,
  // Each failed poll inside findBy*/waitFor (every 50 ms and on every DOM mutation) used to print
  // the whole DOM into an error nobody sees: on the landing page that was most of a test's CPU
  // time. Testing Library marks those polls with _disableExpensiveErrorDiagnostics; the error
  // that is finally thrown (a getBy* miss, or a wait that timed out) still shows the DOM.
  getElementError(message, container) {
    if (!polling()) return defaultElementError(message, container);
    const error = new Error(message ?? '');
    error.name = 'TestingLibraryElementError';
    return error;
  },
});

// Testing Library drives a fake clock inside findBy*/waitFor (advancing it while it polls) only
// when it sees Jest's timers; this lets it see Vitest's, so tests can use a clock that moves only
// when told to (vi.useFakeTimers() without shouldAdvanceTime, which lets real time leak in).
Object.assign(globalThis, { jest: { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) } });

// The client project runs its files without isolation (one jsdom a worker: a third of the CPU of a
// fresh jsdom and fresh imports for every file), so each file starts from what a fresh jsdom
// holds: this file runs again before every test file. Within a file, tests keep sharing as before.
startLikeAFreshPage();

/** No cookies, storage, stubbed globals, spies or fake clock, and the address jsdom starts on. */
function startLikeAFreshPage() {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  for (const pair of document.cookie.split(';')) {
    const name = pair.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
}

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  localStorage.clear();
});
