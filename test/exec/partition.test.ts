import { describe, expect, it } from 'vitest';
import { hashRows, partitionBatch } from '../../src/exec/partition.js';
import { batchOf, rowsOf, schema } from './helpers/fake-context.js';

describe('hash partitioning', () => {
  it('equal numbers hash alike whatever their type (INTEGER, BIGINT, DOUBLE)', () => {
    const vals = [0, 5, -5, 2147483647, -2147483648, 123456];
    const i = hashRows(batchOf(schema('k:INTEGER'), vals.map((v) => [v])), [0]);
    const b = hashRows(batchOf(schema('k:BIGINT'), vals.map((v) => [BigInt(v)])), [0]);
    const d = hashRows(batchOf(schema('k:DOUBLE'), vals.map((v) => [v])), [0]);
    expect([...b]).toEqual([...i]);
    expect([...d]).toEqual([...i]);
  });

  it('a BIGINT hashes as the double it converts to, beyond 2^53 too (BIGINT = DOUBLE compares as DOUBLE)', () => {
    const bigs = [2n ** 63n - 1n, 2n ** 63n - 2n, -(2n ** 63n), 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n), -(2n ** 53n) - 1n, -(2n ** 53n) + 2n ** 32n, 2n ** 53n - 1n];
    const b = hashRows(batchOf(schema('k:BIGINT'), bigs.map((v) => [v])), [0]);
    const d = hashRows(batchOf(schema('k:DOUBLE'), bigs.map((v) => [Number(v)])), [0]);
    expect([...b]).toEqual([...d]);
  });

  it('-0 hashes as 0 and every NaN alike (the key tables compare them equal)', () => {
    const f = new Float64Array(4);
    const w = new Uint32Array(f.buffer);
    f[0] = 0; f[1] = -0; f[2] = NaN;
    w[6] = 0; w[7] = 0xfff80000; // a NaN with the sign bit set, as x86 arithmetic produces
    expect(Number.isNaN(f[3])).toBe(true);
    const h = hashRows(batchOf(schema('k:DOUBLE'), [...f].map((v) => [v])), [0]);
    const batch = batchOf(schema('k:DOUBLE'), [[0], [0], [NaN], [NaN]]);
    (batch.data.children[0]!.values as Float64Array).set(f);
    const raw = hashRows(batch, [0]);
    expect(raw[1]).toBe(raw[0]);
    expect(raw[3]).toBe(raw[2]);
    expect([...raw]).toEqual([...h]);
  });

  it('a dictionary string hashes like the same plain string', () => {
    const words = ['a', 'bb', null, 'a', 'ccc'];
    const plain = hashRows(batchOf(schema('s:VARCHAR'), words.map((w) => [w])), [0]);
    const dict = hashRows(batchOf(schema('s:VARCHAR'), words.map((w) => [w]), [0]), [0]);
    expect([...dict]).toEqual([...plain]);
  });

  it('splits a batch into disjoint parts covering every row', () => {
    const b = batchOf(schema('k:INTEGER', 's:VARCHAR'), Array.from({ length: 100 }, (_, i) => [i % 17, `v${i}`]));
    const parts = partitionBatch(b, [0], 3);
    const all = parts.flatMap((p) => (p ? rowsOf([p]) : []));
    expect(all).toHaveLength(100);
    const owner = new Map<unknown, number>();
    parts.forEach((p, idx) => { if (p) for (const r of rowsOf([p])) { expect(owner.get(r[0]) ?? idx).toBe(idx); owner.set(r[0], idx); } });
  });

  it('reads sliced columns at the right rows', () => {
    const b = batchOf(schema('k:INTEGER'), [[1], [2], [3], [4]]);
    const sliced = b.slice(2, 4);
    expect([...hashRows(sliced, [0])]).toEqual([...hashRows(batchOf(schema('k:INTEGER'), [[3], [4]]), [0])]);
  });
});
