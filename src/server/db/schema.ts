export * from './schema/auth';
export * from './schema/billing';
export * from './schema/platform';
export * from './schema/admin';
export * from './schema/operations';
export * from './schema/access-changes';
export * from './schema/discord';
export * from './schema/sandbox-discord';
