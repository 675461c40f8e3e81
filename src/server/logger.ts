import pino from 'pino';

export type Logger = pino.Logger;

/** Turns one pino JSON log object into a readable line (pino-pretty's prettyFactory). */
export type Prettify = (log: Record<string, unknown>) => string;

type Destination = { write(line: string): unknown; isTTY?: boolean };

/**
 * The development prettifier, or null for JSON lines. Production never loads pino-pretty (a
 * devDependency, absent after `npm ci --omit=dev`); a development install without it logs JSON.
 */
export async function loadPrettifier(isProduction: boolean, colorize = false): Promise<Prettify | null> {
  if (isProduction) return null;
  try {
    const { prettyFactory } = await import('pino-pretty');
    return prettyFactory({ colorize, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,service', singleLine: true });
  } catch {
    return null;
  }
}

// A request line says what a developer scans for; the request id and timing fields stay in JSON.
function concise(log: Record<string, unknown>): Record<string, unknown> {
  if (log.msg !== 'request') return log;
  const { method, path, status, ms, requestId: _requestId, ...rest } = log;
  return { ...rest, msg: `${String(method)} ${String(path)} ${String(status)} ${String(ms)}ms` };
}

function prettyDestination(prettify: Prettify, out: Destination): Destination {
  return { write: (line) => out.write(prettify(concise(JSON.parse(line) as Record<string, unknown>))) };
}

/** At most this long does a line wait in the buffer when traffic is light. */
const FLUSH_EVERY_MS = 1000;

/**
 * Standard output in writes of 4 KB or more instead of one write per line: at full load the
 * request line's own write cost more than a /healthz answer. Lines still reach the output within
 * a second, and at exit, a crash included (pino's exit hook writes what is left); only a killed
 * process (SIGKILL) can lose its last second of lines.
 */
function batchedStdout(): Destination {
  const out = pino.destination({ dest: 1, minLength: 4096, sync: false });
  const timer = setInterval(() => out.flush(), FLUSH_EVERY_MS).unref();
  out.once('close', () => clearInterval(timer));
  return out;
}

/**
 * JSON lines (production, tests), or readable lines when given a prettifier (development). JSON
 * goes out in batches; a developer's terminal gets each line at once.
 */
export function createLogger(level: string, options: { prettify?: Prettify | null; destination?: Destination } = {}): Logger {
  const out = options.destination ?? (options.prettify ? pino.destination(1) : batchedStdout());
  return pino(
    {
      level,
      base: { service: 'candlewise' },
      redact: ['req.headers.cookie', 'req.headers.authorization', '*.password', '*.sessionid'],
    },
    options.prettify ? prettyDestination(options.prettify, out) : out,
  );
}

/** What the one line per request says (edge.ts). */
export type RequestLine = { requestId: string; method: string; path: string; status: number; ms: number };

/**
 * Writes the one line per request onto the logger's own output, in the shape of the logger's
 * lines (level, time, the logger's bindings, the fields, msg), keeping its level filter. Built by
 * hand because pino's object serialisation (and its redaction, with nothing to hide here) cost
 * more than a /healthz answer. Only the path comes from the client, and it is JSON-escaped.
 */
export function requestLog(logger: Logger): (line: RequestLine) => void {
  const out = (logger as unknown as Record<symbol, Destination>)[pino.symbols.streamSym]!;
  const level = logger.levels.values.info!;
  const bindings = JSON.stringify(logger.bindings()).slice(1, -1);
  const prefix = `{"level":${level},"time":`;
  const afterTime = bindings ? `,${bindings},"requestId":"` : ',"requestId":"';
  return ({ requestId, method, path, status, ms }) => {
    if (!logger.isLevelEnabled('info')) return;
    out.write(`${prefix}${Date.now()}${afterTime}${requestId}","method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"status":${status},"ms":${ms},"msg":"request"}\n`);
  };
}
