// The landing page's main-thread work after its first paint, counted from Chromium traces of a
// phone-sized page: every task over 50 ms and their blocking time (the part over 50 ms, what
// Lighthouse's TBT adds up), on / and /eu. Not a test: nothing is asserted; it prints a table.
//
// Two measures per run, from two page loads:
//   - "CPU time × 4": at full speed, each task's own CPU time (the trace's thread time) times four,
//     as Lighthouse's mobile simulation multiplies the tasks it timed. Other processes on a busy
//     machine hardly change it: the figure to compare between runs and machines. (Lighthouse
//     multiplies tasks that lay out the page by two only, and drops tasks under 10 ms: stricter here.)
//   - "wall, 4× slowdown": with Chromium's own 4× CPU slowdown, the tasks' durations as they ran —
//     what a slow phone would feel, plus, on a busy machine, the time the other processes took.
//
//   node bench/long-tasks.mjs                 3 runs per page on the build in dist/client
//   node bench/long-tasks.mjs --runs 5        more runs
//   CLIENT_DIR=/tmp/x node bench/long-tasks.mjs   another build; BENCH_PORT=37xx picks the server's port
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { chromium } from 'playwright';
import { root, startWebServer } from './web-server.mjs';

const clientDir = resolve(root, process.env.CLIENT_DIR ?? 'dist/client');
const runsFlag = process.argv.indexOf('--runs');
const runs = runsFlag > 0 ? Math.max(1, Number(process.argv[runsFlag + 1]) || 1) : 3;
// Lighthouse's mobile slowdown
const SLOWDOWN = 4;
const LONG_MS = 50;
const PAGES = ['/', '/eu'];
// Lighthouse's mobile device: a Moto G Power's screen
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };
// The page is done when it has been this long without a task over 50 ms (the page's own long-task reports).
const QUIET_MS = 3000;

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'loading', 'toplevel'];

/** The renderer's main-thread tasks after the first contentful paint, from a trace's events. */
export function tasksAfterPaint(events) {
  const fcp = events.find((event) => event.name === 'firstContentfulPaint');
  if (!fcp) throw new Error('the trace has no first contentful paint');
  const tasks = events
    .filter((event) => event.pid === fcp.pid && event.tid === fcp.tid && event.ph === 'X' && event.name === 'RunTask' && event.ts >= fcp.ts)
    .sort((a, b) => a.ts - b.ts);
  // only top-level tasks: a task nested in another is part of its time
  const topLevel = [];
  for (const task of tasks) {
    const last = topLevel.at(-1);
    if (last && task.ts < last.ts + last.dur) continue;
    topLevel.push(task);
  }
  return topLevel.map((task) => ({ wallMs: task.dur / 1000, cpuMs: (task.tdur ?? task.dur) / 1000 }));
}

function summarize(durations) {
  const long = durations.filter((ms) => ms > LONG_MS);
  return {
    total: durations.reduce((sum, ms) => sum + ms, 0),
    count: long.length,
    blocking: long.reduce((sum, ms) => sum + ms - LONG_MS, 0),
    longest: Math.max(0, ...durations),
  };
}

/** One page load, traced: with Chromium's slowdown (`throttled`) or at full speed. */
export async function traceLoad(browser, url, { throttled, categories = CATEGORIES }) {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  if (throttled) await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN });
  // quiet: the end of the last long task the page was told of
  await page.addInitScript(() => {
    window.__lastBusy = performance.now();
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__lastBusy = Math.max(window.__lastBusy, entry.startTime + entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await browser.startTracing(page, { categories });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction((quietMs) => performance.now() - window.__lastBusy > quietMs, QUIET_MS, { polling: 250, timeout: 120_000 });
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8'));
  await context.close();
  return trace.traceEvents;
}

async function measure(browser, url) {
  const slowed = tasksAfterPaint(await traceLoad(browser, url, { throttled: true }));
  const fast = tasksAfterPaint(await traceLoad(browser, url, { throttled: false }));
  return { wall: summarize(slowed.map((task) => task.wallMs)), cpu: summarize(fast.map((task) => task.cpuMs * SLOWDOWN)) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const loads = [loadavg()[0]];
const server = await startWebServer(clientDir);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const rows = [];
try {
  for (const path of PAGES) {
    const samples = [];
    for (let run = 0; run < runs; run++) {
      samples.push(await measure(browser, `${server.url}${path}`));
      loads.push(loadavg()[0]);
    }
    for (const kind of ['cpu', 'wall']) {
      const of = (key) => samples.map((sample) => sample[kind][key]);
      rows.push({
        page: path,
        measure: kind === 'cpu' ? 'CPU time × 4' : 'wall, 4× slowdown',
        'tasks > 50 ms (median)': median(of('count')),
        'tasks > 50 ms (runs)': of('count').join(' '),
        'blocking ms (median)': Math.round(median(of('blocking'))),
        'blocking ms (runs)': of('blocking').map(Math.round).join(' '),
        'longest ms (median)': Math.round(median(of('longest'))),
        'all tasks ms (median)': Math.round(median(of('total'))),
      });
    }
  }
} finally {
  await browser.close();
  server.stop();
}

console.log(
  `\nMain-thread tasks after the first paint, phone-sized page, ${SLOWDOWN}× CPU slowdown, ${runs} run${runs > 1 ? 's' : ''} per page, build ${clientDir}; ` +
    `load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${availableParallelism()} cores`,
);
console.table(rows);
console.log('target: no task over 50 ms (CPU time × 4), so Lighthouse\'s total blocking time stays under 50 ms');
