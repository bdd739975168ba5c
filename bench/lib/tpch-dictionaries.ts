/**
 * Prepared TPC-H tables (bench/suite/data.ts, Arrow IPC files) store the
 * low-cardinality string columns dictionary-encoded, as `generateTpch` (what
 * the in-memory benchmarks and the REPL use) makes them, with one shared
 * dictionary per column (src/io/tpch/schemas.ts, DICTS). Until `collect()`
 * unified the dictionaries that a file's partitions each read
 * (src/exec/dictionary-unify.ts) the loaded columns came back as plain Utf8,
 * and a benchmark comparing against hand loops that read dictionary codes
 * (bench:cache-actions' group-by) re-encoded them here. It still does for
 * any plain Utf8 column that `generateTpch` dictionary-encodes (files written
 * by other tools): the codes are the DICTS positions, so the batches equal
 * the generated ones column for column. Dictionary columns pass unchanged.
 */
import { Field, RecordBatch, Schema, Struct, Table, Type, makeData, type Data } from 'apache-arrow';
import { DICTS } from '../../src/io/tpch/schemas.js';
import type { DictColumn } from '../../src/io/tpch/column-data.js';

/** `table` with every plain Utf8 column that `generateTpch` dictionary-encodes re-encoded with its shared dictionary. */
export function withTpchDictionaries(table: Table): Table {
  const dicts = DICTS as Readonly<Record<string, DictColumn>>;
  const at = table.schema.fields.flatMap((f, i) => (f.typeId === Type.Utf8 && dicts[f.name] !== undefined ? [i] : []));
  if (at.length === 0) return table;
  const fields = table.schema.fields.map((f, i) => (at.includes(i) ? new Field(f.name, dicts[f.name]!.type, f.nullable) : f));
  const schema = new Schema(fields, table.schema.metadata);
  const batches = table.batches.map((b) => {
    const children = b.data.children.map((d, i) => (at.includes(i) ? encode(d as Data, dicts[fields[i]!.name]!) : d));
    return new RecordBatch(schema, makeData({ type: new Struct(fields), length: b.numRows, nullCount: 0, children }));
  });
  return new Table(schema, batches);
}

/** The codes of one Utf8 column (no nulls) in `dict`'s dictionary; fails on a value outside it. */
function encode(d: Data, dict: DictColumn): Data {
  if (d.nullCount > 0) throw new Error('tpch dictionaries: a column with NULLs cannot be re-encoded');
  const code = new Map<string, number>();
  for (let c = 0; c < dict.vector.length; c++) code.set(String(dict.vector.get(c)), c);
  const offsets = d.valueOffsets as Int32Array;
  const bytes = Buffer.from((d.values as Uint8Array).buffer, (d.values as Uint8Array).byteOffset, (d.values as Uint8Array).byteLength);
  const codes = new Int32Array(d.length);
  for (let i = 0; i < d.length; i++) {
    const s = bytes.toString('latin1', offsets[i]!, offsets[i + 1]!); // TPC-H strings are ASCII
    const c = code.get(s);
    if (c === undefined) throw new Error(`tpch dictionaries: '${s}' is not in the dictionary`);
    codes[i] = c;
  }
  return makeData({ type: dict.type, length: d.length, nullCount: 0, data: codes, dictionary: dict.vector });
}
