import { describe, expect, it } from 'vitest';
import { MAX_PARAMETERS, NAMED_FROM_USE, nameStatements, statementNames } from './statement-names';

/** A client that notes what it was asked, as node-postgres receives it. */
function recordingClient() {
  const calls: unknown[][] = [];
  const client = { query: (...args: unknown[]) => calls.push(args) };
  return { client, calls };
}

const nameIn = (call: unknown[] | undefined) => (call?.[0] as { name?: string }).name;
const times = (count: number, run: () => void) => Array.from({ length: count }).forEach(run);

describe('statement names', () => {
  it('names a text from its third use, the same on every connection, and two texts differently', () => {
    const names = statementNames();
    const [one, two] = [recordingClient(), recordingClient()];
    nameStatements(one.client, names);
    nameStatements(two.client, names);
    times(NAMED_FROM_USE, () => one.client.query({ text: 'select a from t where id = $1', rowMode: 'array' }, [1]));
    two.client.query({ text: 'select a from t where id = $1' }, [2]);
    times(NAMED_FROM_USE, () => one.client.query({ text: 'select b from t where id = $1' }, [3]));
    expect(one.calls.slice(0, NAMED_FROM_USE - 1).map(nameIn)).toEqual(Array(NAMED_FROM_USE - 1).fill(undefined));
    expect(one.calls[NAMED_FROM_USE - 1]).toEqual([{ text: 'select a from t where id = $1', rowMode: 'array', name: expect.any(String) }, [1]]);
    expect(nameIn(two.calls[0])).toBe(nameIn(one.calls[NAMED_FROM_USE - 1]));
    expect(nameIn(one.calls.at(-1))).toEqual(expect.any(String));
    expect(nameIn(one.calls.at(-1))).not.toBe(nameIn(one.calls[NAMED_FROM_USE - 1]));
  });

  it('passes pg-pool callbacks and values given in the config along', () => {
    const { client, calls } = recordingClient();
    nameStatements(client, statementNames());
    const callback = () => undefined;
    times(NAMED_FROM_USE, () => client.query({ text: 'select $1::int' }, [1], callback));
    times(NAMED_FROM_USE, () => client.query({ text: 'select $1::text', values: ['x'] }));
    expect(calls[NAMED_FROM_USE - 1]).toEqual([{ text: 'select $1::int', name: expect.any(String) }, [1], callback]);
    expect(calls.at(-1)).toEqual([{ text: 'select $1::text', values: ['x'], name: expect.any(String) }]);
  });

  it('leaves unnamed what has no parameters, too many, a name of its own, or is plain text', () => {
    const { client, calls } = recordingClient();
    nameStatements(client, statementNames());
    const many = Array.from({ length: MAX_PARAMETERS + 1 }, (_, index) => index);
    times(NAMED_FROM_USE, () => {
      client.query({ text: 'begin' }, []);
      client.query({ text: `select 1 where 1 in (${many.map((_, index) => `$${index + 1}`).join(', ')})` }, many);
      client.query({ text: 'select $1::int', name: 'recent_security_events' }, [1]);
      client.query('select $1::int', [1]);
    });
    expect(calls.slice(-4).map(([config]) => (typeof config === 'string' ? config : (config as { name?: string }).name))).toEqual([
      undefined,
      undefined,
      'recent_security_events',
      'select $1::int',
    ]);
  });

  it('names no more texts than its limit, and keeps the names it gave', () => {
    const names = statementNames(2);
    const nameAfterUses = (text: string, parameters: number) => {
      times(NAMED_FROM_USE - 1, () => names.nameOf(text, parameters));
      return names.nameOf(text, parameters);
    };
    const first = nameAfterUses('select $1', 1);
    expect(first).toBeDefined();
    expect(nameAfterUses('select $1, $2', 2)).toBeDefined();
    expect(nameAfterUses('select $1, $2, $3', 3)).toBeUndefined();
    expect(names.nameOf('select $1', 1)).toBe(first);
    expect(names.size).toBe(2);
  });
});
