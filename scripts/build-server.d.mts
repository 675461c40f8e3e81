// Types for scripts/build-server.mjs (plain JavaScript: `npm start` runs it before any build exists).
export function buildServer(root: string, outdir?: string): Promise<void>;
