import { describe, expect, it } from 'vitest';
import { createLogger, loadPrettifier, requestLog } from './logger';

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

describe('requestLog', () => {
  it("writes the request line in the logger's own shape, one JSON object per line", () => {
    const out = capture();
    const logger = createLogger('info', { destination: out.destination });
    requestLog(logger)(REQUEST);
    logger.info(REQUEST, 'request');
    expect(out.lines).toHaveLength(2);
    expect(out.lines[0]).toMatch(/\n$/);
    const [handWritten, pinos] = out.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(handWritten).toEqual({ ...pinos, time: expect.any(Number) });
    expect(handWritten).toMatchObject({ ...REQUEST, msg: 'request', service: 'candlewise', level: 30 });
  });

  it('escapes what the client wrote into the path', () => {
    const out = capture();
    const path = '/x"},"level":60,"a":"\\\n\u2028';
    requestLog(createLogger('info', { destination: out.destination }))({ ...REQUEST, path });
    expect(out.lines).toHaveLength(1);
    expect(JSON.parse(out.lines[0]!)).toMatchObject({ path, level: 30, msg: 'request' });
  });

  it('goes through the development prettifier like any line', async () => {
    const out = capture();
    requestLog(createLogger('info', { prettify: await loadPrettifier(false), destination: out.destination }))(REQUEST);
    expect(out.lines).toHaveLength(1);
    expect(out.lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: GET \/api\/site 200 3ms\n$/);
  });

  it('keeps the level filter', () => {
    const out = capture();
    requestLog(createLogger('warn', { destination: out.destination }))(REQUEST);
    expect(out.lines).toEqual([]);
  });
});
