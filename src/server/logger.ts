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

/** JSON lines (production, tests), or readable lines when given a prettifier (development). */
export function createLogger(level: string, options: { prettify?: Prettify | null; destination?: Destination } = {}): Logger {
  const out = options.destination ?? pino.destination(1);
  return pino(
    {
      level,
      base: { service: 'candlewise' },
      redact: ['req.headers.cookie', 'req.headers.authorization', '*.password', '*.sessionid'],
    },
    options.prettify ? prettyDestination(options.prettify, out) : out,
  );
}
