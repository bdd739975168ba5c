/**
 * Turning result batches into what users get: an Arrow Table labelled with
 * the plan's column names, and plain JS rows.
 */
import { Field, RecordBatch, Schema as ArrowSchema, Struct, Table as ArrowTable, Type, makeData, type Data } from 'apache-arrow';
import { toArrowType, type Schema } from '../relnode/types.js';
import { decodeDictionary } from '../exec/batch.js';

/** A result row as a plain object. */
export type Row = Record<string, unknown>;

/**
 * Assembles result batches into one Arrow Table named by `schema`. Columns
 * whose batches disagree on encoding (dictionary in one, plain in another)
 * are decoded to plain Utf8, so the table has one schema.
 */
export function assembleTable(batches: readonly RecordBatch[], schema: Schema): ArrowTable {
  const width = schema.fields.length;
  const decode: boolean[] = [];
  for (let c = 0; c < width; c++) {
    const types = new Set(batches.map((b) => b.data.children[c]!.type.typeId));
    const dicts = new Set(batches.map((b) => b.data.children[c]!.dictionary));
    decode.push(types.size > 1 || (types.has(Type.Dictionary) && dicts.size > 1));
  }
  const fieldsFor = (cols: readonly Data[]): Field[] => schema.fields.map((f, i) => new Field(f.name, cols[i]?.type ?? toArrowType(f.type), true));
  if (batches.length === 0) return new ArrowTable(new ArrowSchema(fieldsFor([])));
  const out = batches.map((b) => {
    const cols = b.data.children.map((d, i) => (decode[i] && d.typeId === Type.Dictionary ? decodeDictionary(d) : d));
    const fields = fieldsFor(cols);
    return new RecordBatch(new ArrowSchema(fields), makeData({ type: new Struct(fields), length: b.numRows, nullCount: 0, children: cols }));
  });
  return new ArrowTable(out[0]!.schema, out);
}

/** Converts an Arrow Table to plain rows: DATE and TIMESTAMP → Date, BIGINT → bigint, dictionaries → strings. */
export function rowsOf(t: ArrowTable): Row[] {
  const names = t.schema.fields.map((f) => f.name);
  const kinds = t.schema.fields.map((f) => f.type.typeId);
  const rows: Row[] = [];
  for (const batch of t.batches) {
    const cols = names.map((_, i) => batch.getChildAt(i)!);
    for (let r = 0; r < batch.numRows; r++) {
      const row: Row = {};
      for (let c = 0; c < names.length; c++) {
        let v: unknown = cols[c]!.get(r);
        if (v !== null && v !== undefined && (kinds[c] === Type.Date || kinds[c] === Type.Timestamp)) v = new Date(Number(v));
        row[names[c]!] = v ?? null;
      }
      rows.push(row);
    }
  }
  return rows;
}
