import type { SqliteDatabase } from 'kysely';

type BetterSqliteDatabase = SqliteDatabase & { prepare(sql: string): ReturnType<SqliteDatabase['prepare']> };

/**
 * The database handle Kysely's SqliteDialect takes, with compiled statements kept for reuse.
 *
 * Kysely calls `prepare(sql)` for every query, and better-sqlite3 compiles the SQL each time: on the
 * status route that was a quarter of the database time (measured with `npm run bench:api` under
 * --cpu-prof). Kysely emits the same SQL text for the same query shape (values are parameters), so a
 * bounded cache by SQL text serves nearly every call. Reuse is safe here: SqliteDialect runs one query
 * at a time on its single connection, and SQLite re-prepares a cached statement itself after a schema
 * change.
 */
export function withStatementCache<D extends BetterSqliteDatabase>(database: D, limit = 500): SqliteDatabase {
  const statements = new Map<string, ReturnType<SqliteDatabase['prepare']>>();
  return {
    close: () => {
      statements.clear();
      database.close();
    },
    prepare: (sql: string) => {
      const cached = statements.get(sql);
      if (cached) {
        // Map order is insertion order: re-inserting keeps the most recently used last.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > limit) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}
