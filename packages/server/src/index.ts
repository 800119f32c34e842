export { buildApp, type App, type BuildAppOverrides } from './app.js';
export { CONFIG_VARIABLES, ConfigError, loadConfig, parseEnv, type Config } from './config.js';
export { registerRoute, type ContractHandler, type ContractRequest, type RouteExtras } from './http/register-route.js';
export { HttpError, badRequest, conflict, forbidden, notFound, tooManyRequests, unauthorized } from './errors.js';
export { toPublicUser, type AuthUser } from './http/auth-user.js';
export { createDatabase, migrateToLatest, isUniqueViolation, type DatabaseHandle, type DatabaseDialect } from './db/connection.js';
export type { Database } from './db/schema.js';
