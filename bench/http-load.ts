import { Agent, request } from 'node:http';

export type LoadResult = { requests: number; errors: number; rps: number; p50: number; p99: number };
/** One measurement's raw figures; several of the same target are merged by summarise(). */
export type LoadSample = { timings: number[]; errors: number; seconds: number };

type Target = { url: string; headers?: Record<string, string>; connections: number; seconds: number };

/**
 * Keeps `connections` keep-alive connections busy with GET `url` for `seconds` and reports the
 * throughput and the latency percentiles. A response other than 2xx counts as an error: a
 * benchmark of refusals would measure nothing.
 */
export async function load({ url, headers = {}, connections, seconds }: Target): Promise<LoadSample> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const timings: number[] = [];
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;

  const once = () =>
    new Promise<void>((done) => {
      const started = performance.now();
      const req = request(url, { agent, headers: { 'accept-encoding': 'gzip', ...headers } }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode && res.statusCode < 300) timings.push(performance.now() - started);
          else errors += 1;
          done();
        });
      });
      req.on('error', () => {
        errors += 1;
        done();
      });
      req.end();
    });

  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) await once();
    }),
  );
  agent.destroy();
  return { timings, errors, seconds: (performance.now() - started) / 1000 };
}

/** Throughput over all samples' time, percentiles over all their latencies. */
export function summarise(samples: LoadSample[]): LoadResult {
  const timings = samples.flatMap((sample) => sample.timings).sort((a, b) => a - b);
  const seconds = samples.reduce((sum, sample) => sum + sample.seconds, 0);
  const at = (q: number) => timings[Math.min(timings.length - 1, Math.floor(q * timings.length))] ?? Number.NaN;
  return { requests: timings.length, errors: samples.reduce((sum, sample) => sum + sample.errors, 0), rps: timings.length / seconds, p50: at(0.5), p99: at(0.99) };
}
