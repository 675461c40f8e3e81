import { describe, expect, it } from 'vitest';
import { createLogger, loadPrettifier, requestLogger } from './logger';

function capture() {
  const lines: string[] = [];
  return { lines, destination: { write: (line: string) => void lines.push(line) } };
}

const REQUEST = { requestId: 'r-1', method: 'GET', path: '/api/site', status: 200, ms: 3 };

describe('createLogger', () => {
  it('writes one JSON object per line in production (no pino-pretty needed)', async () => {
    const prettify = await loadPrettifier(true);
    expect(prettify).toBeNull();
    const out = capture();
    createLogger('info', { prettify, destination: out.destination }).info(REQUEST, 'request');
    expect(out.lines).toHaveLength(1);
    expect(JSON.parse(out.lines[0]!)).toMatchObject({ ...REQUEST, msg: 'request', service: 'candlewise', level: 30 });
  });

  it('writes short readable lines in development', async () => {
    const out = capture();
    const logger = createLogger('info', { prettify: await loadPrettifier(false), destination: out.destination });
    logger.info(REQUEST, 'request');
    logger.warn({ engine: 'pglite' }, 'database ready');
    const [request, warning] = out.lines;
    expect(request).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: GET \/api\/site 200 3ms\n$/);
    expect(warning).toMatch(/^\[\d\d:\d\d:\d\d\] WARN: database ready \{"engine":"pglite"\}\n$/);
    expect(out.lines.join('')).not.toContain('"service"');
  });

  it('keeps the level filter in development', async () => {
    const out = capture();
    createLogger('warn', { prettify: await loadPrettifier(false), destination: out.destination }).info(REQUEST, 'request');
    expect(out.lines).toEqual([]);
  });
});

describe('requestLogger', () => {
  it('writes the request line as the logger does, and the logger still redacts', () => {
    const out = capture();
    const logger = createLogger('info', { destination: out.destination });
    requestLogger(logger).info(REQUEST, 'request');
    logger.info({ user: { password: 'hunter2' } }, 'sign-in');
    expect(JSON.parse(out.lines[0]!)).toMatchObject({ ...REQUEST, msg: 'request', service: 'candlewise', level: 30 });
    expect(out.lines[1]).not.toContain('hunter2');
  });

  it('keeps the level filter', () => {
    const out = capture();
    requestLogger(createLogger('warn', { destination: out.destination })).info(REQUEST, 'request');
    expect(out.lines).toEqual([]);
  });
});
