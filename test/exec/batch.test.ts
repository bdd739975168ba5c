import { describe, expect, it } from 'vitest';
import { Bool, Int32, Null, RecordBatch, Type, makeData, makeVector, vectorFromArray } from 'apache-arrow';
import { concatBatches, concatData, concatDataSteps } from '../../src/exec/batch-concat.js';
import {
  batchFromColumns, emitInSlices, emptyBatch, nullData, sliceBatch, takeBatch, takeData,
} from '../../src/exec/batch.js';
import { toArrowType } from '../../src/relnode/types.js';
import { batchOf, column, rowsOf, schema, valueAt } from './helpers/fake-context.js';

const S = schema('i:INTEGER', 'b:BIGINT', 'd:DOUBLE', 's:VARCHAR', 'v:VARCHAR', 'f:BOOLEAN', 'dt:DATE', 'ts:TIMESTAMP');
const ROWS = [
  [1, 10n, 1.5, 'a', 'x', true, 100, 1000n],
  [null, null, null, null, null, null, null, null],
  [3, -30n, -3.5, 'ccc', 'y', false, -5, -1n],
  [4, 9007199254740993n, 4.25, 'dddd', 'x', true, 0, 0n],
];

function vals(d: ReturnType<typeof column>): unknown[] {
  return Array.from({ length: d.length }, (_, i) => valueAt(d, i));
}

describe('takeBatch', () => {
  it('gathers every canonical type, incl. dictionary columns and nulls', () => {
    const b = batchOf(S, ROWS, [4]);
    const t = takeBatch(b, Int32Array.from([3, 1, 0, 0]));
    expect(rowsOf([t])).toEqual([ROWS[3], ROWS[1], ROWS[0], ROWS[0]]);
    expect(t.data.children[4]!.typeId).toBe(Type.Dictionary);
  });

  it('Utf8: a dense selection copies in one pass; repeated long rows (more bytes than the source) still come out whole', () => {
    const strings = ['a', 'bb', null, 'c'.repeat(40), 'dd'];
    const d = column('VARCHAR', strings);
    expect(vals(takeData(d, Int32Array.from([0, 1, 3, 4])))).toEqual(['a', 'bb', 'c'.repeat(40), 'dd']);
    const dup = Int32Array.from([3, 3, 3, 3, 3, 2]);
    expect(vals(takeData(d, dup))).toEqual([...Array<string>(5).fill('c'.repeat(40)), null]);
    expect(vals(takeData(d, Int32Array.from([4, -1, 0])))).toEqual(['dd', null, 'a']);
  });

  it('negative indexes produce NULL rows', () => {
    const b = batchOf(S, ROWS, [4]);
    const t = takeBatch(b, Int32Array.from([-1, 2, -1]));
    expect(rowsOf([t])).toEqual([ROWS[1], ROWS[2], ROWS[1]]);
  });

  it('respects data offsets of slices', () => {
    const b = batchOf(S, ROWS, [4]);
    const s = sliceBatch(b, 1, 4);
    expect(rowsOf([takeBatch(s, Int32Array.from([2, 0]))])).toEqual([ROWS[3], ROWS[1]]);
  });

  it('takes only the first n indexes', () => {
    const d = column('INTEGER', [5, 6, 7]);
    expect(vals(takeData(d, Int32Array.from([2, 1, 0]), 2))).toEqual([7, 6]);
  });

  it('takes bits of booleans at unaligned offsets', () => {
    const vs = Array.from({ length: 20 }, (_, i) => (i % 3 === 0 ? null : i % 2 === 0));
    const d = column('BOOLEAN', vs).slice(5, 13);
    const sel = Int32Array.from([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(vals(takeData(d, sel))).toEqual(vs.slice(5, 13));
  });
});

describe('concat', () => {
  it('concatenates batches of all types', () => {
    const a = batchOf(S, ROWS.slice(0, 2), [4]);
    const b = batchOf(S, ROWS.slice(2), [4]);
    const c = concatBatches([a, sliceBatch(b, 0, 2)])!;
    expect(c.numRows).toBe(4);
    expect(rowsOf([c])).toEqual(ROWS);
  });

  it('merges different dictionaries into one without duplicates', () => {
    const a = column('VARCHAR', ['x', 'y', null], true);
    const b = column('VARCHAR', ['z', 'y', 'x'], ['z', 'y', 'x']);
    const c = concatData([a, b.slice(1, 2)]);
    expect(vals(c)).toEqual(['x', 'y', null, 'y', 'x']);
    expect(c.dictionary!.length).toBe(3);
  });

  it('merges parts that share some dictionaries (each dictionary remapped once), NULLs kept', () => {
    const a = column('VARCHAR', ['x', null, 'y', 'w'], true);
    const b = column('VARCHAR', ['y', 'z', null], true);
    const c = concatData([a.slice(0, 2), b.slice(0, 2), a.slice(2, 2), b.slice(2, 1), a.slice(1, 1)]);
    expect(vals(c)).toEqual(['x', null, 'y', 'z', 'y', 'w', null, null]);
    expect(c.dictionary!.length).toBe(4);
  });

  it('keeps a shared dictionary', () => {
    const a = column('VARCHAR', ['x', 'y', 'x'], true);
    const c = concatData([a.slice(0, 1), a.slice(1, 2)]);
    expect(c.dictionary).toBe(a.dictionary);
    expect(vals(c)).toEqual(['x', 'y', 'x']);
  });

  it('returns null for no batches', () => {
    expect(concatBatches([])).toBeNull();
  });
});

describe('building batches', () => {
  it('nullData of each type reads back as NULLs', () => {
    for (const t of ['INTEGER', 'BIGINT', 'DOUBLE', 'VARCHAR', 'BOOLEAN', 'DATE', 'TIMESTAMP', 'NULL'] as const) {
      expect(vals(nullData(toArrowType(t), 3))).toEqual([null, null, null]);
    }
    const dictType = column('VARCHAR', ['a'], true).type;
    expect(vals(nullData(dictType, 2))).toEqual([null, null]);
  });

  it('emptyBatch has the schema width and no rows', () => {
    const e = emptyBatch(S);
    expect(e.numRows).toBe(0);
    expect(e.schema.fields.map((f) => f.name)).toEqual(S.fields.map((f) => f.name));
  });

  it('batchFromColumns names columns after an eddy schema', () => {
    const b = batchFromColumns(schema('x:INTEGER'), [column('INTEGER', [1, 2])]);
    expect(b.schema.fields[0]!.name).toBe('x');
    expect(b.numRows).toBe(2);
  });

  it('batchFromColumns reuses the schema of one names object only while the column types stay the same', () => {
    const names = ['x', 'y'];
    const int = (xs: number[]) => makeData({ type: toArrowType('INTEGER') as Int32, length: xs.length, data: Int32Array.from(xs) });
    const a = batchFromColumns(names, [int([1, 2]), nullData(toArrowType('VARCHAR'), 2)]);
    const b = batchFromColumns(names, [int([3]), nullData(toArrowType('VARCHAR'), 1)]);
    expect(b.schema).toBe(a.schema);
    expect(b).toBeInstanceOf(RecordBatch);
    expect(b.numRows).toBe(1);
    expect(rowsOf([b])).toEqual([[3, null]]);
    expect(b.slice(0, 1).numRows).toBe(1);
    const c = batchFromColumns(names, [column('DOUBLE', [1.5]), makeData({ type: new Null(), length: 1 })]);
    expect(c.schema.fields.map((f) => f.type.typeId)).toEqual([Type.Float, Type.Null]);
    expect(c.data.children.map((d) => d.type.typeId)).toEqual([Type.Float, Type.Null]);
    // A column shorter than the batch is padded with NULLs (Arrow's own constructor does it).
    const d = batchFromColumns(names, [column('DOUBLE', [1.5, 2.5]), makeData({ type: new Null(), length: 1 })], 2);
    expect(d.numRows).toBe(2);
    expect(d.data.children[1]!.length).toBe(2);
  });

  it('emitInSlices splits at the batch size', () => {
    const b = batchOf(schema('x:INTEGER'), Array.from({ length: 10 }, (_, i) => [i]));
    const sizes: number[] = [];
    emitInSlices(b, 4, (s) => sizes.push(s.numRows));
    expect(sizes).toEqual([4, 4, 2]);
  });
});

describe('concatDataSteps (one generator for the one-call and the stepped concatenation)', () => {
  it('copies Bool and Null-mixed columns in pieces and gives what concatData gives', () => {
    const bools = Array.from({ length: 6 }, (_, b) => vectorFromArray(Array.from({ length: 1000 }, (_, i) => (i + b) % 3 === 0 ? null : (i + b) % 2 === 0), new Bool()).data[0]!);
    const ints = [vectorFromArray([1, 2, 3], new Int32()).data[0]!, makeData({ type: new Null(), length: 2, nullCount: 2 }), vectorFromArray([4, null], new Int32()).data[0]!];
    for (const parts of [bools, ints]) {
      const g = concatDataSteps(parts, 1000);
      let pieces = 0;
      let r = g.next();
      for (; !r.done; r = g.next()) pieces++;
      expect(pieces).toBe(parts === bools ? 6 : 0);
      const want = concatData(parts);
      expect(r.value.length).toBe(want.length);
      expect(r.value.nullCount).toBe(want.nullCount);
      expect(makeVector(r.value).toArray()).toEqual(makeVector(want).toArray());
    }
    expect(makeVector(concatData(ints)).toArray()).toEqual(Int32Array.from([1, 2, 3, 0, 0, 4, 0]));
    expect([...makeVector(concatData(ints))]).toEqual([1, 2, 3, null, null, 4, null]);
  });
});
