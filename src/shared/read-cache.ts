/** Something whose count moves whenever its data may have changed (the database's writes). */
export type ChangeCount = { readonly count: number };

export type ReadCache = {
  /**
   * The value kept under `key`, or `load()`'s, kept for the next reads when `keep` (by default
   * always) accepts it; one that is not kept is still shared by the reads that asked meanwhile.
   */
  read: <T>(key: string, load: () => Promise<T>, keep?: (value: T) => boolean) => Promise<T>;
  /** How many keys are kept or loading now. */
  readonly size: number;
  /** About how much memory they take, in bytes (the measure `maxBytes` bounds). */
  readonly bytes: number;
};

type Options = {
  /** How long a value may be kept at most: the bound on how stale a change made elsewhere can be. */
  ttlMs: number;
  changes: ChangeCount;
  now?: () => number;
  /** Past this many bytes (keys and values, approximately) the oldest entries go first. */
  maxBytes?: number;
  /** A value's approximate size in bytes; by default from the strings, numbers and objects it holds. */
  sizeOf?: (value: unknown) => number;
};

/** Enough for a few thousand members' session reads within one MEMBER_CACHE_MS. */
export const READ_CACHE_MAX_BYTES = 4 * 1024 * 1024;

// A Map slot and an entry object cost about this much besides the key and value themselves.
const ENTRY_OVERHEAD = 160;

/**
 * A loose estimate of the memory a plain value holds: two bytes per string character (V8 keeps
 * non-Latin-1 strings so), a few bytes per number and per object slot. Walks with its own stack,
 * each object once.
 */
export function approximateBytes(value: unknown): number {
  let bytes = 0;
  const pending: unknown[] = [value];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') bytes += 16 + item.length * 2;
    else if (typeof item !== 'object' || item === null) bytes += 8;
    else if (!seen.has(item)) {
      seen.add(item);
      bytes += 32;
      if (item instanceof Date) continue;
      for (const [key, child] of Object.entries(item)) {
        bytes += 8 + (Array.isArray(item) ? 0 : key.length * 2);
        pending.push(child);
      }
    }
  }
  return bytes;
}

type Entry = { value: Promise<unknown>; expiresAt: number; count: number; bytes: number };

/**
 * Values read from the database, kept a short while. A key's value is loaded once and shared by
 * the reads that ask for it meanwhile, then kept until `ttlMs` has passed or `changes` has
 * moved, whichever comes first: a value loaded before a change is never answered after it. A
 * failed load is not kept, nor one `keep` refuses. `ttlMs` 0 keeps nothing.
 *
 * Memory returns as values go stale: entries sit in the order they were stored, which is also
 * the order they expire and the order of the change count they were read at, so every read first
 * drops the stale ones at the front. Past `maxBytes` the oldest go first, so that keys and values
 * of any size (a 7 KB cookie in a key) cannot grow it beyond the bound.
 */
export function createReadCache({ ttlMs, changes, now = Date.now, maxBytes = READ_CACHE_MAX_BYTES, sizeOf = approximateBytes }: Options): ReadCache {
  const entries = new Map<string, Entry>();
  let bytes = 0;

  const remove = (key: string, entry: Entry) => {
    if (entries.get(key) !== entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  // Stored no later than `at` (a clock set back makes a value stale, not fresh for longer), not
  // expired, and read since the last change.
  const fresh = (entry: Entry, at: number) => entry.count === changes.count && entry.expiresAt > at && entry.expiresAt - ttlMs <= at;
  const dropStale = (at: number) => {
    for (const [key, entry] of entries) {
      if (fresh(entry, at)) break;
      remove(key, entry);
    }
  };
  const trimToBound = () => {
    for (const [key, entry] of entries) {
      if (bytes <= maxBytes) break;
      remove(key, entry);
    }
  };

  return {
    read: <T>(key: string, load: () => Promise<T>, keep?: (value: T) => boolean): Promise<T> => {
      const at = now();
      dropStale(at);
      const kept = entries.get(key);
      if (kept && fresh(kept, at)) return kept.value as Promise<T>;
      // a stale value behind fresher ones (a clock set back) goes now, so that the new one is last
      if (kept) remove(key, kept);
      if (ttlMs <= 0) return load();
      const entry: Entry = { value: load(), expiresAt: at + ttlMs, count: changes.count, bytes: ENTRY_OVERHEAD + key.length * 2 };
      entries.set(key, entry);
      bytes += entry.bytes;
      trimToBound();
      const forget = () => remove(key, entry);
      entry.value.then((value) => {
        if (changes.count !== entry.count || (keep && !keep(value as T))) return forget();
        if (entries.get(key) !== entry) return;
        const valueBytes = sizeOf(value);
        entry.bytes += valueBytes;
        bytes += valueBytes;
        trimToBound();
      }, forget);
      return entry.value as Promise<T>;
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}
