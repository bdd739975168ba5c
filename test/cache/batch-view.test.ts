/**
 * Views of stored blocks (src/cache/batch-view.ts) are built without Arrow's
 * RecordBatch constructor: they must behave exactly like constructed batches
 * with this Arrow version (schema, columns, slices, tables, IPC, dictionaries).
 */
import { RecordBatch, Table, makeData, makeVector, tableFromIPC, tableToIPC, Dictionary, Float64, Int32, Utf8, type Data } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { BatchProjector } from '../../src/cache/batch-view.js';
import { batchFromColumns, utf8FromStrings } from '../../src/exec/batch.js';

function columns(n: number, dict = makeVector(utf8FromStrings(['AIR', 'MAIL', 'SHIP']))): Data[] {
  const ints = Int32Array.from({ length: n }, (_, i) => i);
  const floats = Float64Array.from({ length: n }, (_, i) => i / 2);
  const codes = Int32Array.from({ length: n }, (_, i) => i % 3);
  const bitmap = new Uint8Array((n + 7) >> 3).fill(0xff);
  bitmap[0] = 0xfe; // row 0 of the float column is NULL
  return [
    makeData({ type: new Int32(), length: n, data: ints }),
    makeData({ type: new Float64(), length: n, nullCount: 1, nullBitmap: bitmap, data: floats }),
    makeData({ type: new Dictionary(new Utf8(), new Int32()), length: n, data: codes, dictionary: dict as never }),
  ];
}

const NAMES = ['k', 'v', 'mode'];

describe('cache block views', () => {
  it('a view is a RecordBatch equal to the constructed one, sharing the column Data', () => {
    const cols = columns(10);
    const view = new BatchProjector(NAMES).view(cols, 10);
    const built = batchFromColumns(NAMES, cols, 10);
    expect(view).toBeInstanceOf(RecordBatch);
    expect(RecordBatch.isRecordBatch(view)).toBe(true);
    expect(view.numRows).toBe(10);
    expect(view.numCols).toBe(3);
    expect(view.schema.names).toEqual(NAMES);
    expect(view.schema.fields.map((f) => f.type)).toEqual(built.schema.fields.map((f) => f.type));
    view.data.children.forEach((c, i) => expect(c).toBe(cols[i]));
    expect(view.toArray().map((r) => r.toJSON())).toEqual(built.toArray().map((r) => r.toJSON()));
    expect(view.getChild('v')!.get(0)).toBeNull();
    expect(view.getChild('mode')!.get(4)).toBe('MAIL');
    expect(view.metadata.size).toBe(0);
    expect([...view.dictionaries.keys()]).toEqual([...built.dictionaries.keys()]);
    expect(view.data.nullCount).toBe(0);
  });

  it('slices, selections, tables and IPC work on views (also mixed with constructed batches)', () => {
    const p = new BatchProjector(NAMES);
    const cols = columns(10); // one set of types: a Dictionary type's id must match for one Table
    const a = p.view(cols, 10);
    const b = p.view(cols.map((c) => c.slice(0, 5)), 5);
    expect(a.slice(2, 4).toArray().map((r) => r.k)).toEqual([2, 3]);
    expect(a.select(['mode', 'k']).schema.names).toEqual(batchFromColumns(NAMES, cols, 10).select(['mode', 'k']).schema.names);
    expect(a.selectAt([1]).numCols).toBe(1);
    const t = new Table([a, b, batchFromColumns(NAMES, cols.map((c) => c.slice(7, 3)), 3)]);
    expect(t.numRows).toBe(18);
    expect([...t.getChild('k')!]).toEqual([...Array(10).keys(), 0, 1, 2, 3, 4, 7, 8, 9]);
    const back = tableFromIPC(tableToIPC(new Table([a]), 'file'));
    expect(back.toArray().map((r) => r.toJSON())).toEqual(a.toArray().map((r) => r.toJSON()));
  });

  it('reuses its schema while the column types are the same objects, and rebuilds it when one differs', () => {
    const p = new BatchProjector(NAMES);
    const cols = columns(4);
    const s1 = p.view(cols, 4).schema;
    expect(p.view(cols.map((c) => c.slice(1, 2)), 2).schema).toBe(s1);
    const other = columns(4, makeVector(utf8FromStrings(['RAIL', 'TRUCK', 'FOB']))); // new type objects
    const v = p.view(other, 4);
    expect(v.schema).not.toBe(s1);
    expect(v.schema.fields[2]!.type).toBe(other[2]!.type);
    expect(v.getChild('mode')!.get(1)).toBe('TRUCK');
  });
});
