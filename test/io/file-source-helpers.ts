/**
 * Shared helpers for the file-source tests: temp directories, a sample table
 * of every type with NULLs, and a reader that checks batches carry canonical
 * physical types and returns plain rows (DATE as days, BIGINT/TIMESTAMP as bigint).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as arrow from 'apache-arrow';
import { expect } from 'vitest';
import { makeBatch, makeBuilder, type ColumnBuilder } from '../../src/io/columns.js';
import { isCanonical } from '../../src/io/canonical.js';
import type { ScanOptions, TableSource } from '../../src/io/source.js';
import { field, schemaOf, toArrowSchema, type SqlType } from '../../src/relnode/types.js';

/** A fresh temp directory and its remover. */
export function tempDir(prefix: string): { dir: string; path: (name: string) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `eddy-${prefix}-`));
  return { dir, path: (name) => join(dir, name), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Column names and types of the all-types sample. */
export const ALL_TYPES: readonly [string, SqlType][] = [
  ['b', 'BOOLEAN'], ['i', 'INTEGER'], ['g', 'BIGINT'], ['d', 'DOUBLE'], ['s', 'VARCHAR'], ['dt', 'DATE'], ['ts', 'TIMESTAMP'],
];

/** Rows of the all-types sample (DATE in days, TIMESTAMP in ms as bigint). */
export const ALL_TYPES_ROWS: readonly Record<string, unknown>[] = [
  { b: true, i: 1, g: 3000000000n, d: 1.5, s: 'plain', dt: 18262, ts: 1577836800123n },
  { b: null, i: null, g: null, d: null, s: null, dt: null, ts: null },
  { b: false, i: -2147483648, g: -9007199254740993n, d: -0.1, s: 'comma, "quote"\nnew line', dt: -1, ts: -1000n },
  { b: true, i: 2147483647, g: 9223372036854775807n, d: 1e300, s: 'ünïcödé ✓', dt: 2932896, ts: 253402300799999n },
  { b: false, i: 0, g: -9223372036854775808n, d: 0.30000000000000004, s: '', dt: 0, ts: 0n },
];

function append(b: ColumnBuilder, v: unknown): void {
  if (v === null) { b.appendNull(); return; }
  if ('appendString' in b) b.appendString(v as string);
  else if ('appendBigInt' in b) b.appendBigInt(v as bigint);
  else (b as { append(x: unknown): void }).append(v);
}

/** Builds a RecordBatch of the given columns and rows with the canonical builders. */
export function batchOf(cols: readonly (readonly [string, SqlType])[], rows: readonly Record<string, unknown>[]): arrow.RecordBatch {
  const schema = toArrowSchema(schemaOf(cols.map(([n, t]) => field(n, t))));
  const data = cols.map(([n, t]) => {
    const b = makeBuilder(t, rows.length);
    for (const r of rows) append(b, r[n] ?? null);
    return b.finish();
  });
  return makeBatch(schema, data, rows.length);
}

/** The all-types sample as one batch. */
export function allTypesBatch(): arrow.RecordBatch {
  return batchOf(ALL_TYPES, ALL_TYPES_ROWS);
}

/** Collects every batch of one partition (default 0). */
export async function collect(src: TableSource, opts: Partial<ScanOptions> = {}): Promise<arrow.RecordBatch[]> {
  const out: arrow.RecordBatch[] = [];
  for await (const b of src.scan({ partition: 0, batchSize: 1024, ...opts })) out.push(b);
  return out;
}

function valid(d: arrow.Data, i: number): boolean {
  if (d.nullCount === 0 || !d.nullBitmap || d.nullBitmap.length === 0) return true;
  const j = d.offset + i;
  return (d.nullBitmap[j >> 3]! & (1 << (j & 7))) !== 0;
}

/** Row i of a canonical offset-0 column read from its buffers. */
function cell(d: arrow.Data, i: number): unknown {
  if (!valid(d, i)) return null;
  const t = d.type;
  if (arrow.DataType.isDictionary(t)) return d.dictionary!.get((d.values as Int32Array)[i]!);
  switch (t.typeId) {
    case arrow.Type.Bool: return ((d.values as Uint8Array)[i >> 3]! & (1 << (i & 7))) !== 0;
    case arrow.Type.Utf8: {
      const o = d.valueOffsets as Int32Array;
      return Buffer.from((d.values as Uint8Array).subarray(o[i]!, o[i + 1]!)).toString('utf8');
    }
    default: return (d.values as ArrayLike<unknown>)[i];
  }
}

/** Asserts every batch is non-empty with canonical offset-0 columns, and returns all rows as plain objects. */
export function rowsOf(batches: readonly arrow.RecordBatch[]): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (const b of batches) {
    expect(b.numRows).toBeGreaterThan(0);
    b.schema.fields.forEach((f, k) => {
      expect(isCanonical(b.data.children[k]!.type), `${f.name}: ${String(b.data.children[k]!.type)}`).toBe(true);
      expect(b.data.children[k]!.length).toBe(b.numRows);
      expect(b.data.children[k]!.offset, `${f.name}: offset`).toBe(0);
    });
    for (let i = 0; i < b.numRows; i++) {
      const r: Record<string, unknown> = {};
      b.schema.fields.forEach((f, k) => { r[f.name] = cell(b.data.children[k]!, i); });
      rows.push(r);
    }
  }
  return rows;
}

/** Runs `fn` and returns the error it throws (failing if it does not). */
export async function errorOf(fn: () => Promise<unknown>): Promise<Error> {
  try {
    await fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error');
}

function bitmap(valid: readonly boolean[]): Uint8Array {
  const out = new Uint8Array((valid.length + 7) >> 3);
  valid.forEach((v, i) => { if (v) out[i >> 3]! |= 1 << (i & 7); });
  return out;
}

/**
 * A 3-row batch of non-canonical Arrow types (row 1 all NULL) and the rows
 * they normalize to.
 */
export function nonCanonicalBatch(): { batch: arrow.RecordBatch; rows: Record<string, unknown>[]; types: Record<string, string> } {
  const nulls = bitmap([true, false, true]);
  const base = { length: 3, nullCount: 1, nullBitmap: nulls };
  const utf8 = (strs: string[]): { valueOffsets: Int32Array; data: Uint8Array } => {
    const bytes = Buffer.from(strs.join(''));
    const offs = [0];
    for (const s of strs) offs.push(offs.at(-1)! + Buffer.byteLength(s));
    return { valueOffsets: Int32Array.from(offs), data: bytes };
  };
  const dict = new arrow.Vector([arrow.makeData({ type: new arrow.Utf8(), length: 2, ...utf8(['x', 'y']) })]);
  const decimal = new Uint32Array(12);
  decimal.set([12345, 0, 0, 0], 0);
  decimal.set([0xfffffffb, 0xffffffff, 0xffffffff, 0xffffffff], 8); // -5
  const cols: [string, arrow.Data][] = [
    ['i8', arrow.makeData({ type: new arrow.Int8(), ...base, data: Int8Array.from([1, 0, -128]) })],
    ['u16', arrow.makeData({ type: new arrow.Uint16(), ...base, data: Uint16Array.from([65535, 0, 7]) })],
    ['u32', arrow.makeData({ type: new arrow.Uint32(), ...base, data: Uint32Array.from([4294967295, 0, 1]) })],
    ['u64', arrow.makeData({ type: new arrow.Uint64(), ...base, data: BigUint64Array.from([2n ** 63n - 1n, 0n, 0n]) })],
    ['f32', arrow.makeData({ type: new arrow.Float32(), ...base, data: Float32Array.from([1.5, 0, -2.25]) })],
    ['f16', arrow.makeData({ type: new arrow.Float16(), ...base, data: Uint16Array.from([0x3c00, 0, 0xc000]) })],
    ['dec', arrow.makeData({ type: new arrow.Decimal(2, 10, 128), ...base, data: decimal })],
    ['dms', arrow.makeData({ type: new arrow.DateMillisecond(), ...base, data: BigInt64Array.from([3n * 86_400_000n, 0n, -86_400_000n]) })],
    ['tss', arrow.makeData({ type: new arrow.TimestampSecond(), ...base, data: BigInt64Array.from([1n, 0n, -1n]) })],
    ['tsus', arrow.makeData({ type: new arrow.TimestampMicrosecond(), ...base, data: BigInt64Array.from([1500n, 0n, -1500n]) })],
    ['tsns', arrow.makeData({ type: new arrow.TimestampNanosecond(), ...base, data: BigInt64Array.from([1_999_999n, 0n, -1n]) })],
    ['tstz', arrow.makeData({ type: new arrow.TimestampMillisecond('UTC'), ...base, data: BigInt64Array.from([5n, 0n, 6n]) })],
    ['lu', arrow.makeData({ type: new arrow.LargeUtf8(), ...base, valueOffsets: BigInt64Array.from([0n, 1n, 1n, 4n]), data: Buffer.from('accc') })],
    ['dict8', arrow.makeData({ type: new arrow.Dictionary(new arrow.Utf8(), new arrow.Int8()), ...base, data: Int8Array.from([0, 0, 1]), dictionary: dict })],
    ['ok', arrow.makeData({ type: new arrow.Int32(), ...base, data: Int32Array.from([1, 0, 3]) })],
  ];
  const schema = new arrow.Schema(cols.map(([n, d]) => new arrow.Field(n, d.type, true)));
  const batch = new arrow.RecordBatch(schema, arrow.makeData({ type: new arrow.Struct(schema.fields), length: 3, nullCount: 0, children: cols.map(([, d]) => d) }));
  const rows = [
    { i8: 1, u16: 65535, u32: 4294967295n, u64: 2n ** 63n - 1n, f32: 1.5, f16: 1, dec: 123.45, dms: 3, tss: 1000n, tsus: 1n, tsns: 1n, tstz: 5n, lu: 'a', dict8: 'x', ok: 1 },
    Object.fromEntries(cols.map(([n]) => [n, null])),
    { i8: -128, u16: 7, u32: 1n, u64: 0n, f32: -2.25, f16: -2, dec: -0.05, dms: -1, tss: -1000n, tsus: -2n, tsns: -1n, tstz: 6n, lu: 'ccc', dict8: 'y', ok: 3 },
  ];
  const types = {
    i8: 'INTEGER', u16: 'INTEGER', u32: 'BIGINT', u64: 'BIGINT', f32: 'DOUBLE', f16: 'DOUBLE', dec: 'DOUBLE', dms: 'DATE',
    tss: 'TIMESTAMP', tsus: 'TIMESTAMP', tsns: 'TIMESTAMP', tstz: 'TIMESTAMP', lu: 'VARCHAR', dict8: 'VARCHAR', ok: 'INTEGER',
  };
  return { batch, rows, types };
}
