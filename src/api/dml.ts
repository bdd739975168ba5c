/**
 * UPDATE and DELETE on in-memory tables. Both compute the table's new
 * contents with one query over its current version (so SET values and WHERE
 * conditions may use any expression, subqueries included, and all see the
 * old rows), then register the result under the same name: the table gets a
 * new version and the cache entries built on the old one are released (C9,
 * as INSERT does). The statement is atomic: an error (a failed cast, a NOT
 * NULL column set to NULL, cancellation) leaves the table as it was.
 * Views and file-backed tables are refused: there is no stored data to
 * change (DuckDB refuses views the same way).
 */
import * as arrow from 'apache-arrow';
import { makeBatch } from '../io/columns.js';
import { encodeForStorageAsync } from '../io/dictionary-store.js';
import { isMemorySource, memorySource } from '../io/memory.js';
import { ValidationError } from '../relnode/errors.js';
import * as rel from '../relnode/rel.js';
import { assignmentCast, caseWhen, inputRef, literal, type RexNode } from '../relnode/rex.js';
import { sourceSpan } from '../relnode/source-span.js';
import type { Field } from '../relnode/types.js';
import type { Expr, Pos, Query, SelectItem, Statement } from '../sql/ast.js';
import { sqlError } from '../sql/binder/context.js';
import type { SqlContext } from '../sql/binder/index.js';
import { suggest } from '../sql/binder/scope.js';
import { missingTable } from './missing-table.js';
import type { CatalogEntry } from './catalog.js';
import type { TableEnvironment } from './environment.js';
import { bindQueryAsync } from './bind-query.js';
import { assignable, columnOf } from './insert.js';

type Update = Extract<Statement, { kind: 'update' }>;
type Delete = Extract<Statement, { kind: 'delete' }>;

/** Runs UPDATE; returns the number of rows whose WHERE was TRUE (all rows without WHERE). */
export async function updateTable(env: TableEnvironment, text: string, st: Update, signal?: AbortSignal): Promise<number> {
  const sql: SqlContext = { catalog: env.sqlCatalog, text };
  const entry = changeableTable(sql, env, st.table, 'update', st.pos);
  const target = entry.ref.schema.fields;
  const setOf = new Map<number, number>(); // target column → assignment
  st.sets.forEach((a, k) => {
    const i = target.findIndex((f) => f.name.toLowerCase() === a.column.toLowerCase());
    if (i < 0) {
      const hint = suggest(a.column, target.map((f) => f.name));
      throw sqlError(sql, a.pos, `table "${entry.ref.name}" has no column "${a.column}"${hint ? `; did you mean "${hint}"?` : ''} (columns: ${target.map((f) => f.name).join(', ')})`);
    }
    if (setOf.has(i)) throw sqlError(sql, a.pos, `column "${target[i]!.name}" is assigned twice in UPDATE ${entry.ref.name}`);
    setOf.set(i, k);
  });
  const bound = await bindQueryAsync(env, text, selectWith(st.table, st.sets.map((a) => a.value), st.where, st.pos));
  const given = bound.plan.schema.fields;
  const n = target.length;
  const flag = whereFlag(sql, st, given, n + st.sets.length);
  const exprs: RexNode[] = target.map((f, i) => {
    const k = setOf.get(i);
    if (k === undefined) return inputRef(i, f.type, f.name);
    const g = given[n + k]!;
    if (!assignable(g.type, f.type)) {
      throw sqlError(sql, st.sets[k]!.pos, `UPDATE ${entry.ref.name}: column "${f.name}" is ${f.type} but the value is ${g.type}`);
    }
    const value = assignmentCast(inputRef(n + k, g.type, g.name), f.type, columnOf(f.name, entry.ref.name), sourceSpan(text, st.sets[k]!.value.pos));
    return flag === undefined ? value : caseWhen([{ when: flag, then: value }], inputRef(i, f.type, f.name), f.type);
  });
  exprs.push(flag === undefined ? literal(true, 'BOOLEAN') : caseWhen([{ when: flag, then: literal(true, 'BOOLEAN') }], literal(false, 'BOOLEAN'), 'BOOLEAN'));
  const plan = rel.project(bound.plan, exprs, [...target.map((f) => f.name), '__eddy_updated']);
  const data = await env.collect(plan, signal);
  const schema = new arrow.Schema(data.schema.fields.slice(0, n));
  let changed = 0;
  const batches = data.batches.map((b) => {
    changed += countTrue(b.data.children[n]!);
    return makeBatch(schema, b.data.children.slice(0, n), b.numRows);
  });
  for (const [i, k] of setOf) {
    const f = target[i]!;
    if (!f.nullable && batches.some((b) => b.data.children[i]!.nullCount > 0)) {
      throw sqlError(sql, st.sets[k]!.pos, `NOT NULL constraint failed: ${entry.ref.name}.${f.name} would get a NULL`);
    }
  }
  await replaceRows(env, entry, batches, signal);
  return changed;
}

/** Runs DELETE; returns the number of rows removed. */
export async function deleteFrom(env: TableEnvironment, text: string, st: Delete, signal?: AbortSignal): Promise<number> {
  const sql: SqlContext = { catalog: env.sqlCatalog, text };
  const entry = changeableTable(sql, env, st.table, 'delete from', st.pos);
  const before = entry.source.numRows ?? 0;
  if (st.where === undefined) {
    await replaceRows(env, entry, [], signal);
    return before;
  }
  const target = entry.ref.schema.fields;
  const n = target.length;
  const bound = await bindQueryAsync(env, text, selectWith(st.table, [], st.where, st.pos));
  const flag = whereFlag(sql, st, bound.plan.schema.fields, n)!;
  // Keep the rows whose condition is FALSE or NULL.
  const kept = rel.filter(bound.plan, caseWhen([{ when: flag, then: literal(false, 'BOOLEAN') }], literal(true, 'BOOLEAN'), 'BOOLEAN'));
  const plan = rel.project(kept, target.map((f, i) => inputRef(i, f.type, f.name)), target.map((f) => f.name));
  const data = await env.collect(plan, signal);
  await replaceRows(env, entry, data.batches, signal);
  return before - data.numRows;
}

/** The catalog entry of a table UPDATE / DELETE may change, or an error saying why not. */
function changeableTable(sql: SqlContext, env: TableEnvironment, name: string, verb: string, pos: Pos): CatalogEntry {
  if (!env.hasTable(name)) throw missingTable(sql, env.listTables(), pos, name, 'table');
  if (env.isView(name)) throw sqlError(sql, pos, `cannot ${verb} view "${name}": only tables hold rows; ${verb} its tables instead`);
  const entry = env.catalog.get(name);
  if (!isMemorySource(entry.source)) {
    throw sqlError(sql, pos, `cannot ${verb} table "${entry.ref.name}": it reads ${entry.source.description}, and only in-memory tables change; CREATE TABLE copy AS SELECT * FROM ${entry.ref.name} makes one`);
  }
  return entry;
}

/** `SELECT *, v1, ..., vk[, where] FROM table`: the values and the condition computed over the current rows. */
function selectWith(table: string, values: readonly Expr[], where: Expr | undefined, pos: Pos): Query {
  const items: SelectItem[] = [{ kind: 'star', pos }];
  values.forEach((v, k) => items.push({ kind: 'expr', expr: v, alias: `__eddy_set_${k}`, pos: v.pos }));
  if (where) items.push({ kind: 'expr', expr: where, alias: '__eddy_where', pos: where.pos });
  return { kind: 'select', distinct: false, items, from: [{ kind: 'table', name: table, pos }], pos };
}

/** The WHERE condition as a reference to its column (checked BOOLEAN), or undefined without WHERE. */
function whereFlag(sql: SqlContext, st: Update | Delete, fields: readonly Field[], at: number): RexNode | undefined {
  if (st.where === undefined) return undefined;
  const f = fields[at]!;
  if (f.type !== 'BOOLEAN' && f.type !== 'NULL') throw sqlError(sql, st.where.pos, `WHERE condition must be BOOLEAN, got ${f.type}`);
  return f.type === 'NULL' ? literal(null, 'BOOLEAN') : inputRef(at, 'BOOLEAN', f.name);
}

/** Rows where a BOOLEAN column is TRUE. */
function countTrue(d: arrow.Data): number {
  const bits = d.values as Uint8Array, nulls = d.nullCount > 0 ? d.nullBitmap : undefined;
  let n = 0;
  for (let i = 0; i < d.length; i++) {
    const j = d.offset + i;
    if ((bits[j >> 3]! >> (j & 7)) & 1 && (nulls === undefined || (nulls[j >> 3]! >> (j & 7)) & 1)) n++;
  }
  return n;
}

/**
 * Registers the new rows under the table's name: a new version, and the caches built on the old one released.
 * They are stored as CREATE TABLE AS stores rows (io/dictionary-store.ts): a column that stayed dictionary-encoded
 * keeps its one dictionary; one the query decoded (an UPDATE's CASE over it gives plain strings) is encoded again.
 */
async function replaceRows(env: TableEnvironment, entry: CatalogEntry, batches: readonly arrow.RecordBatch[], signal: AbortSignal | undefined): Promise<void> {
  const store = env.storeOptions;
  const stored = store === undefined ? batches : await encodeForStorageAsync(batches, store, signal);
  if (env.catalog.get(entry.ref.name) !== entry) throw new ValidationError(`table "${entry.ref.name}" changed while the statement ran; run it again`);
  env.catalog.register(entry.ref.name, memorySource(stored, entry.ref.name, entry.ref.schema));
}
