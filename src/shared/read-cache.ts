/** Something whose count moves whenever its data may have changed (the database's writes). */
export type ChangeCount = { readonly count: number };

export type ReadCache = {
  /** The value kept under `key`, or `load()`'s, kept for the next reads. */
  read: <T>(key: string, load: () => Promise<T>) => Promise<T>;
};

type Options = {
  /** How long a value may be kept at most: the bound on how stale a change made elsewhere can be. */
  ttlMs: number;
  changes: ChangeCount;
  now?: () => number;
  /** Past this many keys the cache starts over, so memory stays bounded whatever the traffic. */
  maxEntries?: number;
};

type Entry = { value: Promise<unknown>; expiresAt: number; count: number };

/**
 * Values read from the database, kept a short while. A key's value is loaded once and shared by
 * the reads that ask for it meanwhile, then kept until `ttlMs` has passed or `changes` has
 * moved, whichever comes first: a value loaded before a change is never answered after it. A
 * failed load is not kept. `ttlMs` 0 keeps nothing.
 */
export function createReadCache({ ttlMs, changes, now = Date.now, maxEntries = 10_000 }: Options): ReadCache {
  const entries = new Map<string, Entry>();
  return {
    read: <T>(key: string, load: () => Promise<T>): Promise<T> => {
      const at = now();
      const kept = entries.get(key);
      if (kept && kept.count === changes.count && kept.expiresAt > at) return kept.value as Promise<T>;
      if (ttlMs <= 0) return load();
      if (entries.size >= maxEntries) entries.clear();
      const entry: Entry = { value: load(), expiresAt: at + ttlMs, count: changes.count };
      entries.set(key, entry);
      const forget = () => {
        if (entries.get(key) === entry) entries.delete(key);
      };
      entry.value.then(() => {
        if (changes.count !== entry.count) forget();
      }, forget);
      return entry.value as Promise<T>;
    },
  };
}
