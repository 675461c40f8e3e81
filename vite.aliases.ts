import { fileURLToPath } from 'node:url';

const at = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** One path alias per side, shared by Vite, Vitest and tsconfig. */
export const aliases = {
  '@shared': at('./src/shared'),
  '@server': at('./src/server'),
  '@client': at('./src/client'),
};
