// Latency of pages asked one at a time, as an operator clicks through the console: each page in
// turn, `rounds` times, after a warm-up; p50 and p95 per page.

export type Page = { label: string; path: string };
export type PageTiming = { label: string; p50: number; p95: number; status: number };

const WARM_UP = 2;

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

export async function timePages(base: string, cookie: string, pages: Page[], rounds: number): Promise<PageTiming[]> {
  const timings = pages.map(() => [] as number[]);
  const statuses = pages.map(() => 0);
  for (let round = -WARM_UP; round < rounds; round++) {
    for (const [index, { path }] of pages.entries()) {
      const started = performance.now();
      const response = await fetch(`${base}${path}`, { headers: { cookie } });
      await response.arrayBuffer();
      const elapsed = performance.now() - started;
      statuses[index] = response.status;
      if (round >= 0) timings[index]!.push(elapsed);
    }
  }
  return pages.map(({ label }, index) => {
    const sorted = timings[index]!.sort((a, b) => a - b);
    return { label, p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), status: statuses[index]! };
  });
}
