// Types for scripts/build-state.mjs (plain JavaScript: `npm start` runs it before any build exists).
export type BuildName = 'server' | 'client';
export const BUILDS: Record<BuildName, { inputs: string[]; output: string }>;
export function fingerprint(root: string, inputs: string[]): string;
export function needsBuild(state: { outputExists: boolean; recorded: string | null; current: string }): boolean;
export function buildState(root: string, name: BuildName): { current: string; stale: boolean };
export function recordBuild(root: string, name: BuildName, current: string): void;
