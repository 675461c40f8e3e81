// The overview's member counts as plain rules over access spans: what the database's count
// (reports.repository's accessRuns, decision 037) is tested against (access-runs.test.ts). Kept
// beside the tests, not in the product, which counts in SQL.
const DAY_MS = 24 * 60 * 60 * 1000;

/** A stretch of access one member had: from `from` until `until` (null: still open). */
export type AccessSpan = { userId: string; from: Date; until: Date | null };

/** The first position of `sorted` (ascending) holding a value above `value`; its length when none does. */
function firstAbove(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! > value) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * Members with access at the end of each day (a member counts once however many rows they hold).
 * Each span covers a run of days; a member's runs are merged and counted once per day, so a shop
 * of 100,000 members costs a pass over its spans, not one per day of the chart.
 */
export function activeMembersPerDay(days: readonly string[], spans: readonly AccessSpan[]): { day: string; members: number }[] {
  const ends = days.map((day) => new Date(`${day}T00:00:00.000Z`).getTime() + DAY_MS);
  const order = ends.map((_, index) => index).sort((a, b) => ends[a]! - ends[b]!);
  const sorted = order.map((index) => ends[index]!);
  // a span covers the days whose end is after its start and not after its end
  const runs = new Map<string, [number, number][]>();
  for (const span of spans) {
    const first = firstAbove(sorted, span.from.getTime());
    const last = span.until === null ? sorted.length - 1 : firstAbove(sorted, span.until.getTime()) - 1;
    if (first > last) continue;
    const member = runs.get(span.userId);
    if (member) member.push([first, last]);
    else runs.set(span.userId, [[first, last]]);
  }
  const change = new Array<number>(sorted.length + 1).fill(0);
  const count = (first: number, last: number) => {
    change[first]! += 1;
    change[last + 1]! -= 1;
  };
  for (const member of runs.values()) {
    member.sort((a, b) => a[0] - b[0]);
    let [first, last] = member[0]!;
    for (const [from, until] of member.slice(1)) {
      if (from <= last + 1) last = Math.max(last, until);
      else {
        count(first, last);
        [first, last] = [from, until];
      }
    }
    count(first, last);
  }
  const members = new Array<number>(sorted.length);
  let running = 0;
  for (let position = 0; position < sorted.length; position++) members[order[position]!] = running += change[position]!;
  return days.map((day, index) => ({ day, members: members[index]! }));
}

/**
 * Members who got access for the first time since `since`, and those who had it then and not at
 * `now`. The rule the overview's count in the database (accessRuns) is tested against.
 */
export function memberMovement(spans: readonly AccessSpan[], since: Date, now: Date): { newMembers: number; churned: number } {
  const covers = (span: AccessSpan, at: Date) => span.from.getTime() <= at.getTime() && (span.until === null || span.until.getTime() > at.getTime());
  const first = new Map<string, number>();
  const activeThen = new Set<string>();
  const activeNow = new Set<string>();
  for (const span of spans) {
    first.set(span.userId, Math.min(first.get(span.userId) ?? Infinity, span.from.getTime()));
    if (covers(span, since)) activeThen.add(span.userId);
    if (covers(span, now)) activeNow.add(span.userId);
  }
  const newMembers = [...first.values()].filter((at) => at >= since.getTime()).length;
  const churned = [...activeThen].filter((userId) => !activeNow.has(userId)).length;
  return { newMembers, churned };
}
