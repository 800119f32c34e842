import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { preparedQuery } from './prepared-query.js';

interface Db {
  notes: { id: number; owner: string; body: string; state: string };
}

describe('preparedQuery', () => {
  let db: Kysely<Db>;
  afterEach(async () => db?.destroy());

  async function notes() {
    db = new Kysely<Db>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) });
    await sql`create table notes (id integer primary key, owner text not null, body text not null, state text not null)`.execute(db);
    await db
      .insertInto('notes')
      .values([
        { id: 1, owner: 'ana', body: 'first', state: 'active' },
        { id: 2, owner: 'ana', body: 'second', state: 'archived' },
        { id: 3, owner: 'ben', body: 'third', state: 'active' },
      ])
      .execute();
  }

  it("binds each run's values by name, in whatever order the SQL needs them, and keeps fixed values", async () => {
    await notes();
    const find = preparedQuery(db, ['owner', 'id'] as const, (slot) =>
      db
        .selectFrom('notes')
        .select(['id', 'body'])
        .where('id', '=', slot.id as unknown as number)
        .where('state', '=', 'active')
        .where('owner', '=', slot.owner),
    );
    expect(await find({ owner: 'ana', id: 1 })).toEqual([{ id: 1, body: 'first' }]);
    expect(await find({ owner: 'ana', id: 2 })).toEqual([]); // archived: the fixed value still applies
    expect(await find({ owner: 'ana', id: 3 })).toEqual([]); // someone else's
    expect(await find({ owner: 'ben', id: 3 })).toEqual([{ id: 3, body: 'third' }]);
  });

  it('refuses a stand-in that never reached the query as a value', async () => {
    await notes();
    expect(() =>
      preparedQuery(db, ['owner', 'id'] as const, (slot) => db.selectFrom('notes').selectAll().where('owner', '=', slot.owner)),
    ).toThrow(/id not used/);
  });
});
