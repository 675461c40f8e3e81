/**
 * Names for the shop's parameterised statements on a Postgres server, so that each connection
 * parses and analyses a statement once and then only binds and runs it. Unnamed, Postgres parses
 * every execution anew: on the 2-core machine that was half of its CPU per statement (65 → 31 µs
 * for a row read by key), and the renewal wave of `npm run bench:scale` runs thousands of
 * statements a second (docs/benchmarks.md).
 *
 * Each connection keeps the statements it prepared until it closes, so the names are bounded: only
 * statements with a few parameters (a list of ids makes a new text for each length) and only the
 * first MAX_NAMED texts, which the hot paths reach within the first minutes of a process.
 */
export const MAX_NAMED = 256;
export const MAX_PARAMETERS = 16;

export type StatementNames = { nameOf: (text: string, parameters: number) => string | undefined; readonly size: number };

/** One registry per pool: the same text has the same name on every connection, and two texts never share one. */
export function statementNames(limit = MAX_NAMED): StatementNames {
  const names = new Map<string, string>();
  return {
    nameOf(text, parameters) {
      if (parameters === 0 || parameters > MAX_PARAMETERS) return undefined;
      const known = names.get(text);
      if (known !== undefined || names.size >= limit) return known;
      const name = `cw_${names.size + 1}`;
      names.set(text, name);
      return name;
    },
    get size() {
      return names.size;
    },
  };
}

type Query = (...args: unknown[]) => unknown;
type QueryConfig = { text: string; name?: string; values?: unknown[] };

const isConfig = (value: unknown): value is QueryConfig => typeof value === 'object' && value !== null && typeof (value as { text?: unknown }).text === 'string';

/**
 * Gives the statements of a node-postgres connection their registry name: Drizzle's (a config
 * object and its values) and pg-pool's (the same, with a callback). A statement that already has
 * a name (Drizzle's `.prepare(name)`) keeps it.
 */
export function nameStatements(client: { query: Query }, names: StatementNames): void {
  const query = client.query.bind(client);
  client.query = (...args: unknown[]) => {
    const [config, second] = args;
    if (!isConfig(config) || config.name !== undefined) return query(...args);
    const values = Array.isArray(second) ? second : config.values;
    const name = names.nameOf(config.text, values?.length ?? 0);
    if (name === undefined) return query(...args);
    return query({ ...config, name }, ...args.slice(1));
  };
}
