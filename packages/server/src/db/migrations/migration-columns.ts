import type { CreateTableBuilder, Kysely } from 'kysely';

/**
 * The column shapes the migrations keep repeating, for CreateTableBuilder.$call. Each one adds
 * exactly the columns it names, in order, with the same definitions the migrations spelled out, so a
 * migration written with them builds the schema it always built (its recorded name never changes).
 */
type Table = CreateTableBuilder<any, any>;
type Columns = (table: Table) => Table;

/** The text primary key `id`. */
export const idColumn: Columns = (table) => table.addColumn('id', 'text', (c) => c.primaryKey());

/** `user_id`, required, deleted with its user. */
export const userColumn: Columns = (table) =>
  table.addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'));

/** `id` then `user_id`: the start of a row a user owns. */
export const idAndUserColumns: Columns = (table) => userColumn(idColumn(table));

/** Required text columns, in the order given. */
export function requiredText(...names: string[]): Columns {
  return (table) => names.reduce((built, name) => built.addColumn(name, 'text', (c) => c.notNull()), table);
}

/** Nullable text columns, in the order given. */
export function optionalText(...names: string[]): Columns {
  return (table) => names.reduce((built, name) => built.addColumn(name, 'text'), table);
}

/** Required `created_at` and `updated_at` (ISO strings). */
export const timestamps: Columns = requiredText('created_at', 'updated_at');

/** A plain index on one column or, in order, on several. */
export async function createIndex(db: Kysely<any>, name: string, table: string, columns: string[]): Promise<void> {
  const index = db.schema.createIndex(name).on(table);
  await (columns.length === 1 ? index.column(columns[0]!) : index.columns(columns)).execute();
}
