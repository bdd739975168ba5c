/**
 * What INSERT and UPDATE share: which value types a column accepts, and the
 * projection that casts inserted rows to a table's columns.
 *
 * Decision: one rule for both statements (DuckDB's): a value must have the
 * column's type, a type with a common type, or be VARCHAR on either side
 * (text converts both ways, failing per value); NULL goes anywhere; a
 * NULL-typed column (Arrow Null data registered by a user) holds only NULL.
 */
import type { RecordBatch, Table as ArrowTable } from 'apache-arrow';
import { ValidationError } from '../relnode/errors.js';
import { encodeAppendedAsync, type DictionaryStoreOptions } from '../io/dictionary-store.js';
import { memorySource } from '../io/memory.js';
import type { Catalog } from './catalog.js';
import * as rel from '../relnode/rel.js';
import { assignmentCast, inputRef, literal } from '../relnode/rex.js';
import { sourceSpan, type SourceSpan } from '../relnode/source-span.js';
import type { Query } from '../sql/ast.js';
import { commonType, type Field, type SqlType } from '../relnode/types.js';

/** Whether a value of type `from` may be stored in a column of type `to`. */
export function assignable(from: SqlType, to: SqlType): boolean {
  return from === to || from === 'NULL' || commonType(from, to) !== undefined || from === 'VARCHAR' || to === 'VARCHAR';
}

/**
 * The rows of `input` as the columns `target` of table `name`: matched by
 * position to `columns` (names of target columns; all of them when omitted),
 * the other columns NULL, every value cast to its column's type. A value that
 * does not convert fails naming its column (`for column "a" of table "t"`:
 * assignmentCast), at `valueSpans[i]` — where SQL text wrote input column i —
 * when given.
 */
export function insertProjection(name: string, target: readonly Field[], input: rel.RelNode, columns?: readonly string[], valueSpans?: readonly (SourceSpan | undefined)[]): rel.RelNode {
  const targetCols = columns ? columns.map((c) => {
    const i = target.findIndex((f) => f.name.toLowerCase() === c.toLowerCase());
    if (i < 0) throw new ValidationError(`table "${name}" has no column "${c}" (columns: ${target.map((f) => f.name).join(', ')})`);
    return i;
  }) : target.map((_, i) => i);
  // A column named twice would take two values per row, one of them silently dropped (DuckDB refuses it too).
  const twice = targetCols.find((c, k) => targetCols.indexOf(c) !== k);
  if (twice !== undefined) throw new ValidationError(`column "${target[twice]!.name}" is named twice in the column list of INSERT INTO ${name}`);
  const given = input.schema.fields;
  if (given.length !== targetCols.length) throw new ValidationError(`INSERT INTO ${name} has ${given.length} values per row but ${targetCols.length} target columns`);
  const exprs = target.map((f, i) => {
    const at = targetCols.indexOf(i);
    if (at < 0) return literal(null, f.type);
    const g = given[at]!;
    // A NULL-typed column holds only NULL: no cast to NULL exists.
    if (f.type === 'NULL' && g.type !== 'NULL') throw new ValidationError(`INSERT INTO ${name}: column "${f.name}" has type NULL and can hold only NULL, but the value is ${g.type}`);
    if (!assignable(g.type, f.type)) throw new ValidationError(`INSERT INTO ${name}: column "${f.name}" is ${f.type} but the value is ${g.type}`);
    return assignmentCast(inputRef(at, g.type, g.name), f.type, columnOf(f.name, name), valueSpans?.[at]);
  });
  return rel.project(input, exprs, target.map((f) => f.name));
}

/** How a failed conversion names the column a value was stored into: `column "a" of table "t"`. */
export function columnOf(column: string, table: string): string {
  return `column "${column}" of table "${table}"`;
}

/**
 * Where SQL text wrote the value of each column an INSERT's query returns, for the caret of a
 * value that does not convert (insertProjection): a one-row VALUES' expressions, a SELECT's items
 * (all of them expressions, no `*`), through WITH. Undefined for anything else — a VALUES list of
 * several rows, whose failing row the cast does not know (its message quotes the value), a UNION.
 */
export function insertValueSpans(text: string, q: Query): (SourceSpan | undefined)[] | undefined {
  switch (q.kind) {
    case 'with': return insertValueSpans(text, q.body);
    case 'values': return q.rows.length === 1 ? q.rows[0]!.map((e) => sourceSpan(text, e.pos)) : undefined;
    case 'select': return q.items.every((it) => it.kind === 'expr') ? q.items.map((it) => (it.kind === 'expr' ? sourceSpan(text, it.expr.pos) : undefined)) : undefined;
    case 'setop': return undefined;
    default: return undefined;
  }
}

/** What appending rows needs of the environment. */
export interface InsertHost {
  readonly catalog: Catalog;
  readonly batchSize: number;
  /** How the stored rows dictionary-encode VARCHAR columns (io/dictionary-store.ts); undefined: kept as they are. */
  readonly store?: DictionaryStoreOptions | undefined;
  collect(plan: rel.RelNode, signal?: AbortSignal): Promise<ArrowTable>;
}

/**
 * Appends the rows of `input` to the registered table `name` (cast by `insertProjection`): the table
 * is registered again over its old batches and the new ones, so it gets a new version (C9: the
 * cache entries built on the old one are released). The new rows are dictionary-encoded against the
 * stored ones (io/dictionary-store.ts `encodeAppended`: a column stored over one dictionary keeps one,
 * extended; the old batches' rows are not rewritten). Returns the number of rows inserted.
 */
export async function appendRows(host: InsertHost, name: string, input: rel.RelNode, columns: readonly string[] | undefined, signal: AbortSignal | undefined, valueSpans?: readonly (SourceSpan | undefined)[]): Promise<number> {
  const entry = host.catalog.get(name);
  const plan = insertProjection(entry.ref.name, entry.ref.schema.fields, input, columns, valueSpans);
  const added = await host.collect(plan, signal);
  const old = entry.source;
  const oldBatches: RecordBatch[] = [];
  for (let p = 0; p < old.partitions; p++) {
    for await (const b of old.scan({ partition: p, batchSize: host.batchSize })) oldBatches.push(b);
  }
  const stored = host.store === undefined ? { old: oldBatches, added: added.batches } : await encodeAppendedAsync(oldBatches, added.batches, host.store, signal);
  if (host.catalog.get(name) !== entry) throw new ValidationError(`table "${entry.ref.name}" changed while the INSERT ran; run it again`);
  host.catalog.register(entry.ref.name, memorySource([...stored.old, ...stored.added], entry.ref.name, entry.ref.schema));
  return added.numRows;
}
