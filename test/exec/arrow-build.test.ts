/**
 * src/exec/arrow-build.ts builds Data and RecordBatches without apache-arrow's makeData visitor and
 * RecordBatch constructor. These tests pin that against the apache-arrow in use: every built column
 * must be field for field (and V8 map for map) what makeData gives for the same buffers, and a built
 * batch must behave as a constructed one everywhere (columns, rows, slices, selections, tables, IPC).
 * A new apache-arrow that changes the Data buffer slots, the fields the RecordBatch constructor sets, or
 * makeData's defaults makes one of them fail.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  Bool, Data, DateDay, Dictionary, Field, Float64, Int32, Int64, Null, RecordBatch, Schema, Struct, Table, TimestampMillisecond, Utf8,
  makeData, makeVector, tableFromIPC, tableToIPC,
} from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import {
  NO_BITMAP, assembleBatch, batchOf, dictionaryData, fixedData, nullPlaceholder, nullTypeData, structData, structOf, utf8Data,
} from '../../src/exec/arrow-build.js';
import { utf8FromStrings } from '../../src/exec/batch.js';

const N = 10;
const BITMAP = Uint8Array.from([0b1111_1011, 0b11]); // row 2 is NULL
const DICT = makeVector(utf8FromStrings(['AIR', 'MAIL', 'SHIP']));

/** The same column made both ways: [built, makeData]. */
function pairs(): [string, Data, Data][] {
  const ints = Int32Array.from({ length: N }, (_, i) => i * 7 - 20);
  const floats = Float64Array.from({ length: N }, (_, i) => i / 4);
  const bigs = BigInt64Array.from({ length: N }, (_, i) => BigInt(i) * 10_000_000_000n);
  const bits = Uint8Array.from([0b1010_1010, 0b01]);
  const offs = Int32Array.from({ length: N + 1 }, (_, i) => 2 * i);
  const bytes = new TextEncoder().encode('aabbccddeeffgghhiijj');
  const codes = Int32Array.from({ length: N }, (_, i) => i % 3);
  const dictType = new Dictionary(new Utf8(), new Int32());
  const struct = new Struct([new Field('a', new Int32(), true)]);
  const child = makeData({ type: new Int32(), length: N, data: ints });
  return [
    ['Int32', fixedData(new Int32(), N, 0, null, ints), makeData({ type: new Int32(), length: N, nullCount: 0, data: ints })],
    ['Float64 with NULLs', fixedData(new Float64(), N, 1, BITMAP, floats), makeData({ type: new Float64(), length: N, nullCount: 1, nullBitmap: BITMAP, data: floats })],
    ['Int64', fixedData(new Int64(), N, 0, undefined, bigs), makeData({ type: new Int64(), length: N, nullCount: 0, data: bigs })],
    ['DateDay', fixedData(new DateDay(), N, 1, BITMAP, ints), makeData({ type: new DateDay(), length: N, nullCount: 1, nullBitmap: BITMAP, data: ints })],
    ['Timestamp', fixedData(new TimestampMillisecond(), N, 0, null, bigs), makeData({ type: new TimestampMillisecond(), length: N, nullCount: 0, data: bigs })],
    ['Bool', fixedData(new Bool(), N, 1, BITMAP, bits), makeData({ type: new Bool(), length: N, nullCount: 1, nullBitmap: BITMAP, data: bits })],
    ['Utf8', utf8Data(new Utf8(), N, 1, BITMAP, offs, bytes), makeData({ type: new Utf8(), length: N, nullCount: 1, nullBitmap: BITMAP, valueOffsets: offs, data: bytes })],
    ['Dictionary', dictionaryData(dictType, N, 0, null, codes, DICT), makeData({ type: dictType, length: N, nullCount: 0, data: codes, dictionary: DICT })],
    ['Null', nullTypeData(new Null(), N), makeData({ type: new Null(), length: N, nullCount: N })],
    ['Struct', structData(struct, N, [child]), makeData({ type: struct, length: N, nullCount: 0, children: [child] })],
    ['Int32 at an offset', fixedData(new Int32(), 4, 0, null, ints, 3), makeData({ type: new Int32(), offset: 3, length: 4, nullCount: 0, data: ints })],
  ];
}

function ownFields(d: Data): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(d)) out[k] = (d as unknown as Record<string, unknown>)[k];
  return out;
}

describe('arrow-build Data', () => {
  it.each(pairs())('%s: the same fields, in the same order, with the same values as makeData', (_, built, made) => {
    expect(Object.getPrototypeOf(built)).toBe(Data.prototype);
    expect(Object.keys(built)).toEqual(Object.keys(made));
    expect(ownFields(built)).toEqual(ownFields(made));
    expect(built.buffers).toEqual(made.buffers);
    expect(built.nullCount).toBe(made.nullCount);
    expect(built.nullable).toBe(made.nullable);
    expect(built.byteLength).toBe(made.byteLength);
    expect([...makeVector(built)]).toEqual([...makeVector(made)]);
    // slices and clones of a built column stay what Arrow's own code makes of makeData's
    expect(Object.keys(built.slice(1, 3))).toEqual(Object.keys(made.slice(1, 3)));
    expect([...makeVector(built.slice(1, 3))]).toEqual([...makeVector(made.slice(1, 3))]);
  });

  it('shares the given buffers and the given dictionary (no copies)', () => {
    const ints = new Int32Array(4);
    expect(fixedData(new Int32(), 4, 0, null, ints).values).toBe(ints);
    const codes = new Int32Array(4);
    const d = dictionaryData(new Dictionary(new Utf8(), new Int32()), 4, 0, null, codes, DICT);
    expect(d.values).toBe(codes);
    expect(d.dictionary).toBe(DICT);
    expect(fixedData(new Int32(), 4, 1, BITMAP, ints).nullBitmap).toBe(BITMAP);
    expect(fixedData(new Int32(), 4, 0, null, ints).nullBitmap).toBe(NO_BITMAP);
  });

  it('reinterprets other views of the bytes as makeData does (a Buffer bitmap, Int32 words of an Int64 column)', () => {
    const words = Int32Array.from([5, 0, -1, -1]);
    const built = fixedData(new Int64(), 2, 0, null, words);
    expect(built.values).toBeInstanceOf(BigInt64Array);
    expect([...makeVector(built)]).toEqual([...makeVector(makeData({ type: new Int64(), length: 2, nullCount: 0, data: words as never }))]);
    const buf = Buffer.from([0b01]);
    const withBuffer = fixedData(new Int32(), 2, 1, buf, new Int32Array(2));
    expect(withBuffer.nullBitmap!.constructor).toBe(Uint8Array);
    expect(withBuffer.nullBitmap!.buffer).toBe(buf.buffer);
  });

  it('reuses the last Null placeholder of the same type and length, and makes a new one otherwise', () => {
    const t = new Null();
    const a = nullPlaceholder(t, 7);
    expect(nullPlaceholder(t, 7)).toBe(a);
    expect(Object.keys(a)).toEqual(Object.keys(makeData({ type: t, length: 7 })));
    expect(a.nullCount).toBe(7);
    const b = nullPlaceholder(t, 8);
    expect(b).not.toBe(a);
    expect(b.length).toBe(8);
    const other = nullPlaceholder(new Null(), 8);
    expect(other).not.toBe(b);
    expect(nullPlaceholder(t, 7)).not.toBe(a); // only the last one is kept
  });

  it('gives every kind of column the V8 map makeData gives it (checked in a child process: %HaveSameMap)', () => {
    const mod = fileURLToPath(new URL('../../src/exec/arrow-build.ts', import.meta.url));
    const script = `
      import { makeData, makeVector, Int32, Float64, Utf8, Null, Bool, Dictionary, Struct, Field } from 'apache-arrow';
      import { fixedData, utf8Data, nullTypeData, dictionaryData, structData } from ${JSON.stringify(mod)};
      const i = makeData({ type: new Int32(), length: 2, data: new Int32Array(2) });
      const u = makeData({ type: new Utf8(), length: 1, valueOffsets: new Int32Array(2), data: new Uint8Array(1) });
      const dt = new Dictionary(new Utf8(), new Int32());
      const st = new Struct([new Field('a', new Int32())]);
      const same = [
        %HaveSameMap(i, fixedData(new Int32(), 2, 0, null, new Int32Array(2))),
        %HaveSameMap(i.slice(0, 1), fixedData(new Float64(), 2, 1, new Uint8Array(1), new Float64Array(2))),
        %HaveSameMap(makeData({ type: new Bool(), length: 2, data: new Uint8Array(1) }), fixedData(new Bool(), 2, 0, null, new Uint8Array(1))),
        %HaveSameMap(u, utf8Data(new Utf8(), 1, 0, null, new Int32Array(2), new Uint8Array(1))),
        %HaveSameMap(u.slice(0, 1), utf8Data(new Utf8(), 1, 0, null, new Int32Array(2), new Uint8Array(1))),
        %HaveSameMap(makeData({ type: new Null(), length: 2 }), nullTypeData(new Null(), 2)),
        %HaveSameMap(makeData({ type: dt, length: 2, data: new Int32Array(2), dictionary: makeVector(u) }), dictionaryData(dt, 2, 0, null, new Int32Array(2), makeVector(u))),
        %HaveSameMap(makeData({ type: st, length: 2, children: [i] }), structData(st, 2, [i])),
      ];
      console.log(JSON.stringify(same));`;
    const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out.trim())).toEqual([true, true, true, true, true, true, true, true]);
  }, 30_000);
});

function columns(n: number): Data[] {
  const bm = new Uint8Array((n + 7) >> 3).fill(0xff);
  bm[0] = 0xfe; // row 0 of the float column is NULL
  return [
    fixedData(new Int32(), n, 0, null, Int32Array.from({ length: n }, (_, i) => i)),
    fixedData(new Float64(), n, 1, bm, Float64Array.from({ length: n }, (_, i) => i / 2)),
    dictionaryData(new Dictionary(new Utf8(), new Int32(), 7), n, 0, null, Int32Array.from({ length: n }, (_, i) => i % 3), DICT),
  ];
}

const SCHEMA = new Schema([new Field('k', new Int32(), true), new Field('v', new Float64(), true), new Field('mode', new Dictionary(new Utf8(), new Int32(), 7), true)]);

function rows(b: RecordBatch | Table): unknown[] {
  return b.toArray().map((r) => r.toJSON());
}

describe('arrow-build RecordBatch', () => {
  it('the RecordBatch constructor still sets exactly schema, data and _metadata', () => {
    const cols = columns(4);
    const constructed = new RecordBatch(SCHEMA, makeData({ type: new Struct(SCHEMA.fields), length: 4, nullCount: 0, children: cols }));
    expect(Object.keys(constructed)).toEqual(['schema', 'data', '_metadata']);
    expect(Object.keys(batchOf(SCHEMA, cols, 4))).toEqual(['schema', 'data', '_metadata']);
  });

  it('a built batch behaves as a constructed one: columns, rows, slices, selections, tables, IPC', () => {
    const cols = columns(10);
    const built = batchOf(SCHEMA, cols, 10);
    const constructed = new RecordBatch(SCHEMA, makeData({ type: new Struct(SCHEMA.fields), length: 10, nullCount: 0, children: cols }));
    expect(built).toBeInstanceOf(RecordBatch);
    expect(RecordBatch.isRecordBatch(built)).toBe(true);
    expect(built.schema).toBe(SCHEMA); // the shape's schema itself (the constructor returns an equal copy)
    expect(built.schema.fields).toEqual(constructed.schema.fields);
    expect(built.data.type).toEqual(constructed.data.type);
    expect(Object.keys(built.data)).toEqual(Object.keys(constructed.data));
    built.data.children.forEach((c, i) => expect(c).toBe(cols[i]));
    expect(built.numRows).toBe(10);
    expect(built.numCols).toBe(3);
    expect(built.nullCount).toBe(constructed.nullCount);
    expect(built.metadata).toEqual(constructed.metadata);
    expect([...built.dictionaries.entries()]).toEqual([...constructed.dictionaries.entries()]);
    expect(rows(built)).toEqual(rows(constructed));
    expect(built.getChild('v')!.get(0)).toBeNull();
    expect(built.getChild('mode')!.get(4)).toBe('MAIL');
    expect(rows(built.slice(2, 5))).toEqual(rows(constructed.slice(2, 5)));
    expect(rows(built.select(['mode', 'k']))).toEqual(rows(constructed.select(['mode', 'k'])));
    expect(rows(built.selectAt([1]))).toEqual(rows(constructed.selectAt([1])));
    const t = new Table([built, constructed, batchOf(SCHEMA, cols.map((c) => c.slice(7, 3)), 3)]);
    expect(t.numRows).toBe(23);
    expect([...t.getChild('k')!]).toEqual([...Array(10).keys(), ...Array(10).keys(), 7, 8, 9]);
    const back = tableFromIPC(tableToIPC(new Table([built]), 'file'));
    expect(rows(back)).toEqual(rows(constructed));
    expect(rows(tableFromIPC(tableToIPC(new Table([built]), 'stream')))).toEqual(rows(constructed));
  });

  it('pads a shorter column with NULLs as the constructor does', () => {
    const cols = columns(10);
    const padded = batchOf(SCHEMA, [cols[0]!, cols[1]!.slice(0, 6), cols[2]!], 10);
    const constructed = new RecordBatch(SCHEMA, makeData({ type: new Struct(SCHEMA.fields), length: 10, nullCount: 0, children: [cols[0]!, cols[1]!.slice(0, 6), cols[2]!] }));
    expect(rows(padded)).toEqual(rows(constructed));
    expect(padded.data.children[1]!.length).toBe(10);
    expect(padded.data.children[1]!.nullCount).toBe(constructed.data.children[1]!.nullCount);
  });

  it('makes one Struct type per schema, and assembles zero-column batches', () => {
    expect(structOf(SCHEMA)).toBe(structOf(SCHEMA));
    expect(structOf(SCHEMA).children).toBe(SCHEMA.fields);
    const empty = new Schema([]);
    const b = assembleBatch(empty, structData(structOf(empty), 5, []));
    expect(b.numRows).toBe(5);
    expect(b.numCols).toBe(0);
    expect(new Table([b]).numRows).toBe(5);
  });
});

