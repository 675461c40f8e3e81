// Types for scripts/single-file-entry.mjs (plain JavaScript, run by the client build).
export function singleFileEntry(clientDir: string, htmlFile: string): Promise<string>;
