import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type LoadResult = { requests: number; errors: number; rps: number; p50: number; p99: number };
/** One measurement's raw figures; several of the same target are merged by summarise(). */
export type LoadSample = { timings: number[]; errors: number; seconds: number };

type Target = { url: string; headers?: Record<string, string>; connections: number; seconds: number };

const GENERATOR = fileURLToPath(new URL('http-load.mjs', import.meta.url));

/**
 * Keeps `connections` keep-alive connections busy with GET `url` for `seconds` and reports every
 * latency. The load comes from a separate process on raw sockets (http-load.mjs), not from this
 * one. A response other than 2xx or 3xx counts as an error: a benchmark of refusals would
 * measure nothing.
 */
export function load(target: Target): Promise<LoadSample> {
  return new Promise((done, fail) => {
    execFile(process.execPath, [GENERATOR, JSON.stringify(target)], { maxBuffer: 256 * 1024 * 1024 }, (error, stdout) => {
      if (error) fail(error);
      else done(JSON.parse(stdout) as LoadSample);
    });
  });
}

/** Throughput over all samples' time, percentiles over all their latencies. */
export function summarise(samples: LoadSample[]): LoadResult {
  const timings = samples.flatMap((sample) => sample.timings).sort((a, b) => a - b);
  const seconds = samples.reduce((sum, sample) => sum + sample.seconds, 0);
  const at = (q: number) => timings[Math.min(timings.length - 1, Math.floor(q * timings.length))] ?? Number.NaN;
  return { requests: timings.length, errors: samples.reduce((sum, sample) => sum + sample.errors, 0), rps: timings.length / seconds, p50: at(0.5), p99: at(0.99) };
}
