/**
 * The hash join's build phase runs in bounded steps (hash-join-build.ts): a
 * build side larger than one step's rows is hashed over several pending
 * steps, and the answer is the same as a reference join (duplicates, NULL
 * keys, sparse and dense keys, outer and semi/anti joins).
 */
import { describe, expect, it } from 'vitest';
import { Type, Utf8, makeData, vectorFromArray, type RecordBatch } from 'apache-arrow';
import { hashJoin, type HashJoinConfig } from '../../../src/exec/operators/hash-join.js';
import { BUILD_STEP_ROWS, concatInSteps } from '../../../src/exec/operators/hash-join-build.js';
import { batchFromColumns, sliceBatch } from '../../../src/exec/batch.js';
import { concatBatches } from '../../../src/exec/batch-concat.js';
import { toArrowType, type Schema } from '../../../src/relnode/types.js';
import { Harness, schema } from '../helpers/fake-context.js';

const B = schema('bk:INTEGER', 'bv:INTEGER');
const P = schema('pk:INTEGER');
const N = 2 * BUILD_STEP_ROWS + 12_345;

/** An INTEGER column; key -1 stands for NULL. */
function intBatch(s: Schema, cols: Int32Array[]): RecordBatch {
  const n = cols[0]!.length;
  const data = cols.map((v, c) => {
    if (c > 0) return makeData({ type: toArrowType('INTEGER') as never, length: n, nullCount: 0, data: v });
    const bm = new Uint8Array((n + 7) >> 3);
    let nulls = 0;
    for (let i = 0; i < n; i++) if (v[i] === -1) nulls++; else bm[i >> 3]! |= 1 << (i & 7);
    return makeData({ type: toArrowType('INTEGER') as never, length: n, nullCount: nulls, nullBitmap: nulls > 0 ? bm : undefined, data: v });
  });
  return batchFromColumns(s, data, n);
}

function run(jt: HashJoinConfig['joinType'], key: (i: number) => number, probeKeys: Int32Array): { steps: number; count: number; sumV: number } {
  const bk = Int32Array.from({ length: N }, (_, i) => key(i));
  const bv = Int32Array.from({ length: N }, (_, i) => i % 1000);
  const out = jt === 'semi' || jt === 'anti' ? P : schema('pk:INTEGER', 'bk:INTEGER', 'bv:INTEGER');
  const h = new Harness(hashJoin({ joinType: jt, leftKeys: [0], rightKeys: [0], buildSide: 'right' }), out, [P, B], 65536);
  for (let off = 0; off < N; off += 65536) {
    const end = Math.min(N, off + 65536);
    h.push(1, intBatch(B, [bk.slice(off, end), bv.slice(off, end)]));
  }
  const before = h.ctx.steps;
  h.end(1);
  const steps = h.ctx.steps - before;
  h.push(0, intBatch(P, [probeKeys]));
  h.finish();
  let count = 0;
  let sumV = 0;
  for (const { batch } of h.ctx.emitted) {
    count += batch.numRows;
    if (batch.numCols > 2) { const v = batch.data.children[2]!.values as Int32Array; for (let i = 0; i < batch.numRows; i++) sumV += v[i]!; }
  }
  return { steps, count, sumV };
}

/** The reference: counts per key, then the same aggregates. */
function reference(jt: HashJoinConfig['joinType'], key: (i: number) => number, probeKeys: Int32Array): { count: number; sumV: number } {
  const byKey = new Map<number, { n: number; v: number }>();
  for (let i = 0; i < N; i++) {
    const k = key(i);
    if (k === -1) continue;
    const e = byKey.get(k) ?? { n: 0, v: 0 };
    e.n++; e.v += i % 1000;
    byKey.set(k, e);
  }
  let count = 0;
  let sumV = 0;
  for (const p of probeKeys) {
    const e = p === -1 ? undefined : byKey.get(p);
    if (jt === 'semi') { if (e) count++; continue; }
    if (jt === 'anti') { if (!e) count++; continue; }
    if (e) { count += e.n; sumV += e.v; } else if (jt === 'left') count++;
  }
  return { count, sumV };
}

const probe = Int32Array.from({ length: 20_000 }, (_, i) => (i % 97 === 0 ? -1 : (i * 7919) % (N + 5000)));

describe('hash join build in bounded steps', () => {
  const keys: [string, (i: number) => number][] = [
    ['unique dense keys', (i) => i],
    ['duplicates and NULL keys', (i) => (i % 31 === 0 ? -1 : i % 50_000)],
    ['sparse keys', (i) => (i * 2654435761) % 1_000_000_007 & 0x3fffffff],
  ];
  const cases: [number, HashJoinConfig['joinType']][] = [[0, 'inner'], [1, 'inner'], [1, 'left'], [1, 'anti'], [2, 'semi']];
  for (const [ki, jt] of cases) {
    const [name, key] = keys[ki]!;
    {
      it(`${jt} join, ${name}: several steps, same answer`, () => {
        const got = run(jt, key, probe);
        expect(got.steps).toBeGreaterThan(2);
        const want = reference(jt, key, probe);
        expect(got.count).toBe(want.count);
        if (jt === 'inner' || jt === 'left') expect(got.sumV).toBe(want.sumV);
      });
    }
  }
});

describe('concatInSteps', () => {
  it('gives what concatData gives, copying big Utf8 and fixed-width columns over several pieces', () => {
    const parts: RecordBatch[] = [];
    const rows = 36_000;
    for (let b = 0; b < 8; b++) {
      const n = rows + b;
      const ints = makeData({ type: toArrowType('INTEGER') as never, length: n, nullCount: 0, data: Int32Array.from({ length: n }, (_, i) => i * 7 + b) });
      const bm = new Uint8Array((n + 7) >> 3);
      let nulls = 0;
      for (let i = 0; i < n; i++) if ((i + b) % 5 === 0) nulls++; else bm[i >> 3]! |= 1 << (i & 7);
      const dbl = makeData({ type: toArrowType('DOUBLE') as never, length: n, nullCount: nulls, nullBitmap: bm, data: Float64Array.from({ length: n }, (_, i) => i / 3 + b) });
      const strs = Array.from({ length: n }, (_, i) => ((i + b) % 7 === 0 ? null : `s${b}-${i}`));
      const utf = vectorFromArray(strs, new Utf8()).data[0]!;
      const batch = batchFromColumns(['i', 'd', 's'], [ints, dbl, utf], n);
      parts.push(b % 2 === 1 ? sliceBatch(batch, 3, n) : batch); // sliced parts have an offset
    }
    const g = concatInSteps(parts);
    let pieces = 0;
    let r = g.next();
    for (; !r.done; r = g.next()) pieces++;
    const got = r.value!;
    const want = concatBatches(parts)!;
    expect(pieces).toBeGreaterThan(3); // one piece per column before; ~290k rows a column at 2^18 rows per piece
    expect(got.numRows).toBe(want.numRows);
    for (let c = 0; c < 3; c++) {
      const a = got.getChildAt(c)!;
      const b = want.getChildAt(c)!;
      expect(a.nullCount).toBe(b.nullCount);
      for (let i = 0; i < got.numRows; i += 997) expect(a.get(i)).toEqual(b.get(i));
      expect(a.get(got.numRows - 1)).toEqual(b.get(got.numRows - 1));
    }
  });
  it('copies only the columns read: an all-NULL placeholder of the whole length for the others', () => {
    const parts: RecordBatch[] = [];
    for (let b = 0; b < 3; b++) {
      const n = 1000 + b;
      const ints = makeData({ type: toArrowType('INTEGER') as never, length: n, nullCount: 0, data: Int32Array.from({ length: n }, (_, i) => i + 10 * b) });
      const utf = vectorFromArray(Array.from({ length: n }, (_, i) => `v${i}`), new Utf8()).data[0]!;
      parts.push(batchFromColumns(['i', 's'], [ints, utf], n));
    }
    const g = concatInSteps(parts, [true, false]);
    let r = g.next();
    while (!r.done) r = g.next();
    const got = r.value!;
    expect(got.numRows).toBe(3003);
    expect(got.data.children[1]!.typeId).toBe(Type.Null);
    expect(got.data.children[1]!.length).toBe(3003);
    expect(got.getChildAt(0)!.get(2002)).toBe(21);
  });
});
