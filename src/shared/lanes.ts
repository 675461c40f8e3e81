// Work that must keep its order per key (one subscription's events) but not across keys: the
// items of one key run one after another in the order given, up to `lanes` keys at once.

/** Runs `work` on every item, in order within a key, with at most `lanes` keys in flight. */
export async function runInLanes<T>(items: readonly T[], keyOf: (item: T) => string, lanes: number, work: (item: T) => Promise<void>): Promise<void> {
  const byKey = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const lane = byKey.get(key);
    if (lane) lane.push(item);
    else byKey.set(key, [item]);
  }
  const waiting = [...byKey.values()];
  const runner = async () => {
    for (let lane = waiting.shift(); lane; lane = waiting.shift()) for (const item of lane) await work(item);
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, lanes), waiting.length) }, runner));
}
