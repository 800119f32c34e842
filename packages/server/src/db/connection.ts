import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresAdapter, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { migrationProvider } from './migrations/index.js';
import { withStatementCache } from './statement-cache.js';
import type { Database } from './schema.js';

export type DatabaseDialect = Config['database']['dialect'];

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DatabaseDialect;
}

/** Kysely over better-sqlite3 by default, over a pg Pool when DATABASE_URL is set. */
export function createDatabase(settings: Config['database']): DatabaseHandle {
  if (settings.dialect === 'postgres') {
    // A connect timeout, so a database that stopped answering fails queries (and GET /ready) rather than hanging them.
    const pool = new pg.Pool({ connectionString: settings.url, max: 10, connectionTimeoutMillis: 5_000 });
    // PostgreSQL restarting or a proxy dropping an idle connection emits 'error' on the pool: with no
    // listener that would end the process. pg discards the broken client and the next query opens a
    // new one; queries that fail meanwhile report their own errors (and GET /ready turns 503).
    pool.on('error', () => undefined);
    // A client checked out of the pool (inside a query or a transaction) has no pool listener: pg-pool
    // removes it while the client is lent. When the connection drops then, pg fails the query and also
    // emits 'error' on the client, which without a listener of its own ended the process (seen with a
    // proxy cutting PostgreSQL mid-query). The query's own error reaches its caller; this only keeps
    // the event from being unhandled. pg-pool drops the broken client when it is released.
    pool.on('connect', (client) => client.on('error', () => undefined));
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  const sqlite = new SqliteDatabase(settings.file);
  // WAL lets readers proceed while a job writes progress; foreign keys are off by default in SQLite.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) }), dialect: 'sqlite' };
}

/** Brings the schema up to date; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  // Kysely looks for its migration tables in every schema unless told which one: with two schemas in
  // one database (tests, or deployments sharing a server) it would find another schema's table and
  // skip creating its own. The connection's current schema (search_path) is the one to migrate.
  const migrationTableSchema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({ db, provider: migrationProvider, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error : new Error(String(error));
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${cause.message}`, { cause });
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/** True when the error is a unique-constraint violation in either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
