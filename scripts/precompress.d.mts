// Types for scripts/precompress.mjs (plain JavaScript, run by the client build).
export function filesToCompress(dir: string): string[];
export function precompress(dir: string): Promise<number>;
