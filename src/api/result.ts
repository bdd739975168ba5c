/**
 * Turning result batches into what users get: an Arrow Table labelled with
 * the plan's column names, and plain JS rows.
 *
 * A result may have several columns of one name (`SELECT a.name, b.name`).
 * The Arrow schema keeps them as they are; row objects cannot, so their keys
 * are made unique by `uniqueRowKeys` (`name`, `name_1`, ...), one rule shared
 * with the CLI's JSON output so both show every column. Every key is an own
 * enumerable property, also a column named `__proto__` (name-keys.ts).
 */
import { Field, RecordBatch, Schema as ArrowSchema, Struct, Table as ArrowTable, Type, type Data, type DataType, type Dictionary } from 'apache-arrow';
import { toArrowType, type Schema } from '../relnode/types.js';
import { assembleBatch, structData } from '../exec/arrow-build.js';
import { decodeDictionary } from '../exec/batch-concat.js';
import { unifyDictionaries } from '../exec/dictionary-unify.js';
import { setOwn } from '../relnode/name-keys.js';
import { valueReader } from '../exec/row-values.js';

/** A result row as a plain object. */
export type Row = Record<string, unknown>;

/**
 * A non-NULL value as `toArray()` and the scalar actions return it: BOOLEAN → boolean,
 * INTEGER/DOUBLE → number, BIGINT → bigint, VARCHAR → string, DATE/TIMESTAMP → Date.
 */
export type ScalarValue = number | bigint | string | boolean | Date;

/**
 * Assembles result batches into one Arrow Table named by `schema`. Columns
 * whose batches disagree on encoding (dictionary in one, plain in another)
 * are decoded to plain Utf8, so the table has one schema; columns whose
 * batches are all dictionary-encoded keep it, over one dictionary.
 */
export function assembleTable(batches: readonly RecordBatch[], schema: Schema): ArrowTable {
  const width = schema.fields.length;
  const fieldsFor = (cols: readonly Data[]): Field[] => schema.fields.map((f, i) => new Field(f.name, cols[i]?.type ?? toArrowType(f.type), true));
  if (batches.length === 0) return new ArrowTable(new ArrowSchema(fieldsFor([])));
  const decode: boolean[] = [];
  // Columns whose batches are all dictionary-encoded with different dictionary objects get one
  // dictionary (exec/dictionary-unify.ts: a file's partitions each read the same dictionary batch).
  const unified = new Map<number, readonly Data[]>();
  for (let c = 0; c < width; c++) {
    const types = new Set(batches.map((b) => b.data.children[c]!.type.typeId));
    const dicts = new Set(batches.map((b) => b.data.children[c]!.dictionary));
    const several = types.has(Type.Dictionary) && dicts.size > 1;
    if (types.size === 1 && several && batches.every((b) => isUtf8Dictionary(b.data.children[c]!.type))) {
      unified.set(c, unifyDictionaries(batches.map((b) => b.data.children[c]!)));
      decode.push(false);
      continue;
    }
    decode.push(types.size > 1 || several);
  }
  // One schema for every batch whose column types are the same objects as the previous batch's (the usual case):
  // fields, schema and struct type are built once, not per batch.
  let shared: { readonly types: readonly DataType[]; readonly schema: ArrowSchema; readonly struct: Struct } | undefined;
  const out = batches.map((b, k) => {
    if (unified.size === 0 && alreadyNamed(b, schema, decode)) return b;
    const cols = b.data.children.map((d, i) => unified.get(i)?.[k] ?? (decode[i] && d.typeId === Type.Dictionary ? decodeDictionary(d) : d));
    if (shared === undefined || cols.some((d, i) => d.type !== shared!.types[i])) {
      const fields = fieldsFor(cols);
      shared = { types: cols.map((d) => d.type), schema: new ArrowSchema(fields), struct: new Struct(fields) };
    }
    return assembleBatch(shared.schema, structData(shared.struct, b.numRows, cols));
  });
  return new ArrowTable(out[0]!.schema, out);
}

/** Dictionary<Utf8> with INTEGER codes: the one dictionary encoding eddy's batches carry (io/canonical.ts). */
function isUtf8Dictionary(t: DataType): boolean {
  if (t.typeId !== Type.Dictionary) return false;
  const d = t as Dictionary;
  return d.dictionary.typeId === Type.Utf8 && d.indices.bitWidth === 32 && d.indices.isSigned;
}

/**
 * True when a batch can go into the result as it is: its fields already carry the result's names,
 * are nullable, and have no metadata, and none of its columns is to be decoded (a RecordBatch
 * costs two Arrow Data builds and a schema copy: for a 10-row query that was a few percent).
 */
function alreadyNamed(b: RecordBatch, schema: Schema, decode: readonly boolean[]): boolean {
  const fs = b.schema.fields;
  if (fs.length !== schema.fields.length || b.schema.metadata.size > 0) return false;
  for (let i = 0; i < fs.length; i++) {
    const f = fs[i]!;
    if (f.name !== schema.fields[i]!.name || !f.nullable || f.metadata.size > 0 || (decode[i] && f.typeId === Type.Dictionary)) return false;
  }
  return true;
}

/**
 * Row-object keys for result column names, one per column, all distinct: the
 * first column of a name keeps it; each later one gets `name_1`, `name_2`, ...,
 * skipping any key that is already a column's own name (so a real column
 * `name_1` keeps its key and the second `name` becomes `name_2`).
 */
export function uniqueRowKeys(names: readonly string[]): string[] {
  const taken = new Set(names);
  const seen = new Set<string>();
  const nextSuffix = new Map<string, number>();
  return names.map((n) => {
    if (!seen.has(n)) { seen.add(n); return n; }
    let k = nextSuffix.get(n) ?? 1;
    let key = `${n}_${k}`;
    while (taken.has(key)) key = `${n}_${++k}`;
    nextSuffix.set(n, k + 1);
    taken.add(key);
    return key;
  });
}

/**
 * Converts an Arrow Table to plain rows: DATE and TIMESTAMP → Date, BIGINT →
 * bigint, dictionaries → strings. Keys are the column names made unique by
 * `uniqueRowKeys`, so columns sharing a name are all kept.
 */
export function rowsOf(t: ArrowTable): Row[] {
  const names = uniqueRowKeys(t.schema.fields.map((f) => f.name));
  const rows: Row[] = [];
  for (const batch of t.batches) {
    const cols = names.map((n, i) => valueReader(batch.data.children[i]!, n));
    for (let r = 0; r < batch.numRows; r++) {
      const row: Row = {};
      for (let c = 0; c < names.length; c++) setOwn(row, names[c]!, cols[c]!(r));
      rows.push(row);
    }
  }
  return rows;
}
