import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { localRules } from './scripts/eslint-no-import-circle.mjs';

const features = readdirSync(new URL('./src/client/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const SERVER = { group: ['@server/*', '**/server/**'], message: 'The client and the server never import each other.' };
const CLIENT = { group: ['@client/*', '**/client/**'], message: 'The client and the server never import each other.' };

export default tseslint.config(
  { ignores: ['dist', 'dist-*', 'data', 'node_modules', 'playwright-report', 'test-results', 'coverage', 'src/server/db/migrations/meta'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through src/server/config.ts.' }],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, ...restrict([SERVER]) },
  },
  // An import circle makes a module's meaning depend on load order and hides which side owns what.
  { files: ['src/**/*.{ts,tsx}'], plugins: { local: localRules }, rules: { 'local/no-import-circle': 'error' } },
  // The server's parts (module folders, other folders, loose files) stand in floors: none imports one above it.
  { files: ['src/server/**/*.ts'], ignores: ['**/*.test.ts', 'src/server/test-support/**'], rules: { 'local/no-upward-import': 'error' } },
  { files: ['src/server/**/*.ts'], rules: restrict([CLIENT, { group: ['react', 'react-dom'], message: 'No React on the server.' }]) },
  {
    files: ['src/shared/**/*.ts'],
    rules: restrict([SERVER, CLIENT, { group: ['node:*', 'react', 'pg', 'drizzle-orm*'], message: 'src/shared is pure: no I/O, no React, no Node.' }]),
  },
  {
    files: ['src/client/components/**/*.{ts,tsx}', 'src/client/lib/**/*.{ts,tsx}'],
    rules: restrict([SERVER, { group: ['@client/features/*', '@client/app/*'], message: 'Shared client code never imports features or the app shell.' }]),
  },
  {
    // The landing page calls this layer too, and its bundle stays free of zod (docs/decisions/009).
    files: ['src/client/lib/api/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            SERVER,
            { group: ['@client/features/*', '@client/app/*'], message: 'Shared client code never imports features or the app shell.' },
            { group: ['zod', '@shared/api-contract'], allowTypeImports: true, message: 'The landing bundle stays free of zod: import types only, check answers by hand.' },
          ],
        },
      ],
    },
  },
  // Features never import each other; they meet in src/client/app (imports flow one way, enforced here).
  ...features.map((feature) => ({
    files: [`src/client/features/${feature}/**/*.{ts,tsx}`],
    rules: restrict([
      SERVER,
      { group: ['@client/app/*'], message: 'Features do not import the app shell.' },
      {
        group: features.filter((other) => other !== feature).flatMap((other) => [`@client/features/${other}/*`, `../${other}/*`, `../../${other}/*`]),
        message: 'Features never import each other; share through src/client/lib, components or src/shared.',
      },
    ]),
  })),
  {
    files: ['src/server/config.ts', 'src/server/test-support/**', 'src/**/*.test.{ts,tsx}', 'e2e/**', 'scripts/**', 'bench/**', '*.config.{ts,js}'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
