// Types for scripts/import-graph.mjs (plain JavaScript: ESLint's config loads it too).
export type ImportGraph = Map<string, string[]>;
export function importGraph(srcRoot: string): ImportGraph;
export function importersOf(graph: ImportGraph, targets: Iterable<string>): Set<string>;
export function importCircles(graph: ImportGraph): string[][];
/** src/server's parts (module folders, other folders, loose files) and what each imports; tests and test support left out. */
export function serverPartGraph(graph: ImportGraph, srcRoot: string): { partOf: (file: string) => string | null; graph: ImportGraph };
