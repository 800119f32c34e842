import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withStatementCache } from './statement-cache.js';

interface Db {
  notes: { id: number; body: string };
}

describe('withStatementCache', () => {
  let kysely: Kysely<Db> | undefined;
  afterEach(async () => kysely?.destroy());

  it('compiles each distinct SQL text once and keeps answering with current data', async () => {
    const sqlite = new SqliteDatabase(':memory:');
    const prepare = vi.spyOn(sqlite, 'prepare');
    kysely = new Kysely<Db>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    await sql`create table notes (id integer primary key, body text not null)`.execute(kysely);
    for (const [id, body] of [
      [1, 'one'],
      [2, 'two'],
      [3, 'three'],
    ] as const)
      await kysely.insertInto('notes').values({ id, body }).execute();
    const read = (id: number) => kysely!.selectFrom('notes').select('body').where('id', '=', id).executeTakeFirst();
    expect(await read(1)).toEqual({ body: 'one' });
    expect(await read(3)).toEqual({ body: 'three' });
    await kysely.updateTable('notes').set({ body: 'uno' }).where('id', '=', 1).execute();
    expect(await read(1)).toEqual({ body: 'uno' });
    // create + insert + select + update: four distinct texts, however many times each ran.
    expect(prepare).toHaveBeenCalledTimes(4);
  });

  it('still answers after a schema change to a table a cached statement reads', async () => {
    const sqlite = new SqliteDatabase(':memory:');
    kysely = new Kysely<Db>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    await sql`create table notes (id integer primary key, body text not null)`.execute(kysely);
    await kysely.insertInto('notes').values({ id: 1, body: 'one' }).execute();
    const all = () => kysely!.selectFrom('notes').selectAll().execute();
    expect(await all()).toEqual([{ id: 1, body: 'one' }]);
    await sql`alter table notes add column extra text`.execute(kysely);
    expect(await all()).toEqual([{ id: 1, body: 'one', extra: null }]);
  });

  it('forgets the least recently used statement beyond its limit', async () => {
    const sqlite = new SqliteDatabase(':memory:');
    const prepare = vi.spyOn(sqlite, 'prepare');
    const cached = withStatementCache(sqlite, 2);
    cached.prepare('select 1');
    cached.prepare('select 2');
    cached.prepare('select 1');
    cached.prepare('select 3'); // evicts 'select 2', the least recently used
    cached.prepare('select 1');
    cached.prepare('select 2');
    expect(prepare.mock.calls.map(([text]) => text)).toEqual(['select 1', 'select 2', 'select 3', 'select 2']);
    cached.close();
  });
});
