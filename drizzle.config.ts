import { defineConfig } from 'drizzle-kit';

// Only for `npm run db:generate` (a developer tool): it writes SQL migrations from the schema.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema.ts',
  out: './src/server/db/migrations',
});
