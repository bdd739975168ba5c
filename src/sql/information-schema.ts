/**
 * information_schema: the SQL-standard views of the catalog (`SELECT * FROM
 * information_schema.columns WHERE table_name = 'orders'`), as DuckDB and
 * PostgreSQL users expect them. This file defines the views — their names,
 * columns and rows — from a list of the catalog's relations; the API's
 * catalog (src/api/information-schema.ts) turns the rows of one catalog
 * state into a scan with a version of its own, so a query reads the catalog
 * as it was when the query was planned and a cached result never outlives
 * the catalog state it was computed from.
 *
 * Decision — names: eddy has one database, in memory (file-backed tables are
 * read lazily, but the catalog itself lives in the process), so it reports
 * DuckDB's names for an in-memory database: catalog `memory`, schema `main`
 * for every table and view, and — as DuckDB does — the information_schema
 * views themselves in catalog `system` (they are not listed in
 * information_schema.tables, as in DuckDB). Queries written for DuckDB run
 * unchanged, and `main.orders` / `memory.main.orders` name `orders`.
 *
 * Decision — columns: each view has the columns of DuckDB's view of that
 * name that carry information for eddy's types and objects, in DuckDB's
 * order, with DuckDB's names and types; the columns DuckDB always leaves
 * NULL for these types (collations, domains, identity and generated
 * columns, user-defined types, ...) are left out, so `SELECT *` stays
 * readable. Type names are spelt as DuckDB spells them (`"NULL"` for the
 * type of an untyped NULL column of a view). As in DuckDB and PostgreSQL, a
 * view's columns are nullable (is_nullable = 'YES'); a table's column is
 * 'NO' when it is declared NOT NULL.
 */
import { ValidationError } from '../relnode/errors.js';
import type { LiteralValue } from '../relnode/rex.js';
import { closest } from './binder/suggest.js';
import { field, schemaOf, type Field, type Schema, type SqlType } from '../relnode/types.js';

/** The catalog eddy reports its tables in (DuckDB's name for an in-memory database). */
export const CATALOG_NAME = 'memory';
/** The schema eddy reports its tables in. */
export const SCHEMA_NAME = 'main';
/** The schema of the catalog views, and the catalog that holds it (as in DuckDB). */
export const INFORMATION_SCHEMA = 'information_schema';
const SYSTEM_CATALOG = 'system';

/** One table or view of the catalog, as information_schema describes it. */
export interface CatalogRelation {
  readonly name: string;
  readonly kind: 'table' | 'view';
  /** The columns (a view's as its definition gives them). */
  readonly fields: readonly Field[];
  /** `CREATE VIEW ...` as the user wrote it, for views defined in SQL. */
  readonly sql?: string;
}

/** An information_schema view: its columns, and its rows over the catalog's relations. */
interface ViewDef {
  readonly schema: Schema;
  readonly rows: (relations: readonly CatalogRelation[]) => LiteralValue[][];
}

const text = (name: string): Field => field(name, 'VARCHAR');
const int = (name: string): Field => field(name, 'INTEGER');

/** DuckDB's numeric_precision / radix / scale of a type (binary precision for integers and DOUBLE). */
function numeric(t: SqlType): [number | null, number | null, number | null] {
  switch (t) {
    case 'INTEGER': return [32, 2, 0];
    case 'BIGINT': return [64, 2, 0];
    case 'DOUBLE': return [53, 2, 0];
    default: return [null, null, null];
  }
}

/** A type as DuckDB's data_type column spells it. */
function dataType(t: SqlType): string {
  return t === 'NULL' ? '"NULL"' : t;
}

const VIEWS: Readonly<Record<string, ViewDef>> = {
  columns: {
    schema: schemaOf([text('table_catalog'), text('table_schema'), text('table_name'), text('column_name'), int('ordinal_position'),
      text('column_default'), text('is_nullable'), text('data_type'), int('character_maximum_length'), int('numeric_precision'),
      int('numeric_precision_radix'), int('numeric_scale')]),
    rows: (relations) => relations.flatMap((r) => r.fields.map((f, i) => [
      CATALOG_NAME, SCHEMA_NAME, r.name, f.name, i + 1, null, r.kind === 'table' && !f.nullable ? 'NO' : 'YES', dataType(f.type), null, ...numeric(f.type),
    ])),
  },
  schemata: {
    schema: schemaOf([text('catalog_name'), text('schema_name'), text('schema_owner')]),
    rows: () => [[CATALOG_NAME, SCHEMA_NAME, 'eddy'], [SYSTEM_CATALOG, INFORMATION_SCHEMA, 'eddy']],
  },
  tables: {
    schema: schemaOf([text('table_catalog'), text('table_schema'), text('table_name'), text('table_type'), text('is_insertable_into')]),
    rows: (relations) => relations.map((r) => [CATALOG_NAME, SCHEMA_NAME, r.name, r.kind === 'table' ? 'BASE TABLE' : 'VIEW', r.kind === 'table' ? 'YES' : 'NO']),
  },
  views: {
    schema: schemaOf([text('table_catalog'), text('table_schema'), text('table_name'), text('view_definition')]),
    rows: (relations) => relations.filter((r) => r.kind === 'view').map((r) => [CATALOG_NAME, SCHEMA_NAME, r.name, r.sql ?? null]),
  },
};

/** The names of the information_schema views, sorted. */
export const INFORMATION_SCHEMA_VIEWS: readonly string[] = Object.keys(VIEWS).sort();

/** What a table name in FROM refers to. */
export type TableName =
  | { readonly schema: 'main'; readonly name: string }
  | { readonly schema: 'information_schema'; readonly view: string };

/**
 * Splits a (possibly qualified) table name: `t`, `main.t` and `memory.main.t` name table `t`;
 * `information_schema.v` and `system.information_schema.v` name a catalog view. Other qualified
 * names stay whole (and are then not found).
 */
export function parseTableName(name: string): TableName {
  if (!name.includes('.')) return { schema: 'main', name }; // the common case, on every table a query names
  const parts = name.split('.');
  const lower = parts.map((p) => p.toLowerCase());
  const last = parts[parts.length - 1]!;
  if (parts.length === 2 && lower[0] === SCHEMA_NAME) return { schema: 'main', name: last };
  if (parts.length === 3 && lower[0] === CATALOG_NAME && lower[1] === SCHEMA_NAME) return { schema: 'main', name: last };
  if (parts.length === 2 && lower[0] === INFORMATION_SCHEMA) return { schema: 'information_schema', view: lower[1]! };
  if (parts.length === 3 && lower[0] === SYSTEM_CATALOG && lower[1] === INFORMATION_SCHEMA) return { schema: 'information_schema', view: lower[2]! };
  return { schema: 'main', name };
}

/** The columns of an information_schema view; a ValidationError naming the views when there is none of that name. */
export function informationSchemaSchema(view: string): Schema {
  return viewDef(view).schema;
}

/** The rows of an information_schema view over `relations` (listed in the order given). */
export function informationSchemaRows(view: string, relations: readonly CatalogRelation[]): LiteralValue[][] {
  return viewDef(view).rows(relations);
}

function viewDef(view: string): ViewDef {
  const def = Object.hasOwn(VIEWS, view.toLowerCase()) ? VIEWS[view.toLowerCase()] : undefined;
  if (def === undefined) {
    const hint = closest(view, INFORMATION_SCHEMA_VIEWS);
    throw new ValidationError(`information_schema has no view "${view}"${hint ? `; did you mean "${hint}"?` : ''} (views: ${INFORMATION_SCHEMA_VIEWS.join(', ')})`);
  }
  return def;
}
