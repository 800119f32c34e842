import type { Compilable, CompiledQuery, Kysely } from 'kysely';

const SLOT = '\u0000reelsmith-slot:';

/**
 * A query built and compiled once, run many times with new values: for the lookups on every
 * authenticated request, where building Kysely's immutable query tree and compiling it cost more
 * than SQLite answering (measured with --cpu-prof on the status route).
 *
 * `build` receives a stand-in per named argument; each stand-in must be used as a plain value
 * (a `where` operand), never inside SQL text. Values fixed in `build` stay as they are.
 *
 *   const sessionById = preparedQuery(db, (slot: Slots<'id'>) => db.selectFrom('sessions').selectAll().where('id', '=', slot.id));
 *   const rows = await sessionById({ id });
 */
export type Slots<K extends string> = Record<K, string>;

export function preparedQuery<K extends string, Row, DB>(
  db: Kysely<DB>,
  names: readonly K[],
  build: (slot: Slots<K>) => Compilable<Row>,
): (values: Record<K, unknown>) => Promise<Row[]> {
  const slot = Object.fromEntries(names.map((name) => [name, `${SLOT}${name}`])) as Slots<K>;
  const compiled: CompiledQuery<Row> = build(slot).compile();
  const bindings = compiled.parameters.map((parameter) =>
    typeof parameter === 'string' && parameter.startsWith(SLOT) ? (parameter.slice(SLOT.length) as K) : null,
  );
  const missing = names.filter((name) => !bindings.includes(name));
  if (missing.length > 0) throw new Error(`preparedQuery: ${missing.join(', ')} not used as a value in the query`);
  return async (values) => {
    const parameters = compiled.parameters.map((parameter, index) => {
      const name = bindings[index];
      return name === null || name === undefined ? parameter : values[name];
    });
    const result = await db.executeQuery<Row>({ ...compiled, parameters });
    return result.rows;
  };
}
