import { describe, expect, it } from 'vitest';
import { runInLanes } from './lanes';

const tick = () => new Promise((done) => setTimeout(done, 1));

describe('runInLanes', () => {
  it('keeps the order within a key and runs keys side by side, never more than the lanes', async () => {
    const items = ['a1', 'b1', 'a2', 'c1', 'b2', 'a3', 'd1', 'c2'];
    const seen: string[] = [];
    let inFlight = 0;
    let most = 0;
    await runInLanes(
      items,
      (item) => item[0]!,
      2,
      async (item) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await tick();
        seen.push(item);
        inFlight -= 1;
      },
    );
    expect([...seen].sort()).toEqual([...items].sort());
    for (const key of 'abcd') expect(seen.filter((item) => item[0] === key)).toEqual(items.filter((item) => item[0] === key));
    expect(most).toBe(2);
  });

  it('runs nothing for no items, and one key at a time with one lane', async () => {
    const seen: string[] = [];
    await runInLanes(
      [],
      () => 'k',
      4,
      async (item: string) => void seen.push(item),
    );
    expect(seen).toEqual([]);
    await runInLanes(
      ['a1', 'b1', 'a2'],
      (item) => item[0]!,
      1,
      async (item) => void seen.push(item),
    );
    expect(seen).toEqual(['a1', 'a2', 'b1']);
  });
});
