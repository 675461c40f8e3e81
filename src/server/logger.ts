import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(level: string, pretty = false): Logger {
  return pino({
    level,
    base: { service: 'candlewise' },
    redact: ['req.headers.cookie', 'req.headers.authorization', '*.password', '*.sessionid'],
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true } } } : {}),
  });
}
