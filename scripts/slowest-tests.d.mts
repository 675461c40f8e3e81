// Types for scripts/slowest-tests.mjs (plain JavaScript: npm test runs it without a loader).
export type TestDuration = { name: string; ms: number; failed: boolean; error?: string };
export function vitestDurations(report: unknown): TestDuration[];
export function playwrightDurations(report: unknown): TestDuration[];
export function slowest(durations: TestDuration[], count?: number): TestDuration[];
