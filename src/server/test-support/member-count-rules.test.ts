import { describe, expect, it } from 'vitest';
import { activeMembersPerDay, memberMovement } from './member-count-rules';

const NOW = new Date('2026-03-01T08:30:00Z');

describe('members over time', () => {
  const spans = [
    { userId: 'a', from: new Date('2026-02-27T10:00:00Z'), until: null },
    { userId: 'a', from: new Date('2026-02-20T10:00:00Z'), until: new Date('2026-03-10T00:00:00Z') },
    { userId: 'b', from: new Date('2026-01-01T00:00:00Z'), until: new Date('2026-02-28T12:00:00Z') },
    { userId: 'c', from: new Date('2026-03-01T01:00:00Z'), until: null },
  ];

  it('counts each member once at the end of each day they had access', () => {
    expect(activeMembersPerDay(['2026-02-27', '2026-02-28', '2026-03-01'], spans)).toEqual([
      { day: '2026-02-27', members: 2 },
      { day: '2026-02-28', members: 1 },
      { day: '2026-03-01', members: 2 },
    ]);
  });

  it('counts a member once on each day one of their rows covers, gaps between rows left out, in the order the days are asked', () => {
    const rows = [
      { userId: 'd', from: new Date('2026-02-25T00:00:00Z'), until: new Date('2026-02-27T00:00:00Z') },
      { userId: 'd', from: new Date('2026-02-26T05:00:00Z'), until: new Date('2026-02-28T00:00:00Z') },
      { userId: 'd', from: new Date('2026-03-01T23:00:00Z'), until: null },
      { userId: 'e', from: new Date('2026-03-02T00:00:00Z'), until: new Date('2026-03-01T00:00:00Z') },
    ];
    expect(activeMembersPerDay(['2026-03-01', '2026-02-26', '2026-02-27', '2026-02-28', '2026-02-25'], rows)).toEqual([
      { day: '2026-03-01', members: 1 },
      { day: '2026-02-26', members: 1 },
      { day: '2026-02-27', members: 1 },
      { day: '2026-02-28', members: 0 },
      { day: '2026-02-25', members: 1 },
    ]);
  });

  it('agrees with counting every row against every day, on many members with overlapping rows', () => {
    const days = Array.from({ length: 40 }, (_, index) => new Date(Date.UTC(2026, 1, 1 + index)).toISOString().slice(0, 10));
    let seed = 7;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    const at = () => new Date(Date.UTC(2026, 0, 20) + Math.floor(random() * 60 * 24) * 3_600_000);
    const rows = Array.from({ length: 600 }, () => {
      const from = at();
      return { userId: `m${Math.floor(random() * 150)}`, from, until: random() < 0.2 ? null : new Date(from.getTime() + Math.floor(random() * 20 * 24) * 3_600_000) };
    });
    const everyRowEveryDay = days.map((day) => {
      const end = new Date(`${day}T00:00:00.000Z`).getTime() + 86_400_000;
      return { day, members: new Set(rows.filter((row) => row.from.getTime() < end && (row.until === null || row.until.getTime() >= end)).map((row) => row.userId)).size };
    });
    expect(activeMembersPerDay(days, rows)).toEqual(everyRowEveryDay);
  });

  it('calls new who first got access since the date, churned who had it then and not now', () => {
    expect(memberMovement(spans, new Date('2026-02-15T00:00:00Z'), NOW)).toEqual({ newMembers: 2, churned: 1 });
  });
});
