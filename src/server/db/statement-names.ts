/**
 * Names for the shop's parameterised statements on a Postgres server, so that each connection
 * parses and analyses a statement once and then only binds and runs it. Unnamed, Postgres parses
 * every execution anew: on the 2-core machine that was half of its CPU per statement (65 → 31 µs
 * for a row read by key), and the renewal wave of `npm run bench:scale` runs thousands of
 * statements a second (docs/benchmarks.md).
 *
 * Each connection keeps what it prepared until it closes, about 45 KB a statement with its plan, so
 * the names are bounded: only statements with a few parameters (a list of ids makes a new text for
 * each length), only texts run NAMED_FROM_USE times (a one-off report or start-up read stays
 * unnamed), and no more than MAX_NAMED texts.
 */
export const MAX_NAMED = 256;
export const MAX_PARAMETERS = 16;
export const NAMED_FROM_USE = 3;

export type StatementNames = { nameOf: (text: string, parameters: number) => string | undefined; readonly size: number };

/** One registry per pool: the same text has the same name on every connection, and two texts never share one. */
export function statementNames(limit = MAX_NAMED): StatementNames {
  const names = new Map<string, string>();
  const uses = new Map<string, number>();
  return {
    nameOf(text, parameters) {
      if (parameters === 0 || parameters > MAX_PARAMETERS) return undefined;
      const known = names.get(text);
      if (known !== undefined || names.size >= limit) return known;
      const used = (uses.get(text) ?? 0) + 1;
      if (used < NAMED_FROM_USE) {
        // the texts being counted are bounded too: four for every name
        if (uses.has(text) || uses.size < 4 * limit) uses.set(text, used);
        return undefined;
      }
      uses.delete(text);
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
