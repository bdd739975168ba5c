/**
 * A hash aggregate sizes its key table from the planner's group estimate
 * (`expectedGroups`) when it is big, capped in bytes, once the table holds
 * EXPECT_AFTER groups; a wrong estimate (over or under) changes nothing in
 * the result, and an overestimate allocates nothing for a small table.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashAggregate } from '../../../src/exec/operators/hash-aggregate.js';
import { KeyTable } from '../../../src/exec/kernels/hash.js';
import { EXPECT_AFTER } from '../../../src/exec/kernels/hash-slots.js';
import { createAggState, reserveForEstimate } from '../../../src/exec/operators/agg-states.js';
import { makeData, Int32 } from 'apache-arrow';
import type { AggCall } from '../../../src/relnode/rel.js';
import { field, schemaOf } from '../../../src/relnode/types.js';
import { Harness, batchOf, schema } from '../helpers/fake-context.js';

const IN = schema('k:INTEGER', 'd:DOUBLE');
const SUM: AggCall = { fn: 'sum', args: [1], distinct: false, type: 'DOUBLE', name: 's' };
const OUT = schemaOf([field('k', 'INTEGER'), field('s', 'DOUBLE')]);
const N = 70_000;

function run(expectedGroups?: number): number[][] {
  const h = new Harness(hashAggregate({ groupKeys: [0], aggCalls: [SUM], ...(expectedGroups !== undefined ? { expectedGroups } : {}) }), OUT, [IN], 4096);
  const rows = Array.from({ length: N }, (_, i) => [(i * 7919) % N, i / 4]);
  for (let i = 0; i < rows.length; i += 10_000) h.push(0, batchOf(IN, rows.slice(i, i + 10_000)));
  return finishRows(h);
}

/** Finishes the aggregate and returns its rows as [key, value] numbers. */
function finishRows(h: Harness): number[][] {
  h.finish();
  const out: number[][] = [];
  for (const b of h.ctx.emitted) for (let r = 0; r < b.batch.numRows; r++) out.push([b.batch.getChildAt(0)!.get(r) as number, Number(b.batch.getChildAt(1)!.get(r))]);
  return out;
}

afterEach(() => { vi.restoreAllMocks(); });

describe('hash aggregate table sizing', () => {
  it('reserves the estimated groups (capped), and only for big estimates', () => {
    const spy = vi.spyOn(KeyTable.prototype, 'expectKeys');
    const base = run();
    expect(spy).not.toHaveBeenCalled();
    expect(run(1000)).toEqual(base);
    expect(spy).not.toHaveBeenCalled();
    expect(run(N)).toEqual(base);
    expect(spy).toHaveBeenLastCalledWith(N);
    // A huge overestimate reserves at most 48 MB of slots (2 slots of 2 words per group).
    expect(run(1e12)).toEqual(base);
    expect(spy.mock.calls.at(-1)![0]).toBe(Math.floor((48 << 20) / 16));
    expect(base.length).toBe(N);
  });
});

describe('aggregate state sizing', () => {
  it('states jump to the estimated groups (capped) once EXPECT_AFTER groups exist, with the same answer', () => {
    const proto = Object.getPrototypeOf(createAggState(SUM, ['DOUBLE'])) as { reserve(groups: number): void };
    const spy = vi.spyOn(proto, 'reserve');
    // (The first test compares run() with run(N) and run(1e12): same rows.)
    const base = run(N);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy).toHaveBeenLastCalledWith(N);
    expect(base.length).toBe(N);
    // A huge overestimate: at most 2^21 groups (48 MB of a DOUBLE sum's state).
    expect(run(1e12)).toEqual(base);
    expect(spy).toHaveBeenLastCalledWith(1 << 21);
  });

  it('a small real count never reaches the jump, whatever the estimate', () => {
    const proto = Object.getPrototypeOf(createAggState(SUM, ['DOUBLE'])) as { reserve(groups: number): void };
    const spy = vi.spyOn(proto, 'reserve');
    for (const expectedGroups of [450_000, 1000]) {
      const h = new Harness(hashAggregate({ groupKeys: [0], aggCalls: [SUM], expectedGroups }), OUT, [IN], 4096);
      // 11K groups (below EXPECT_AFTER), or 20K groups above an estimate of 1000: nothing to reserve.
      const groups = expectedGroups === 1000 ? 20_000 : 11_000;
      h.push(0, batchOf(IN, Array.from({ length: groups }, (_, i) => [i, 1])));
      expect(finishRows(h).length).toBe(groups);
    }
    expect(spy).not.toHaveBeenCalled();
  });
});

describe('count(DISTINCT) pair table sizing', () => {
  const COUNT_D: AggCall = { fn: 'count', args: [1], distinct: true, type: 'BIGINT', name: 'n' };
  const IN2 = schema('g:INTEGER', 'v:INTEGER');
  const OUT2 = schemaOf([field('g', 'INTEGER'), field('n', 'BIGINT')]);
  function runDistinct(expectedInputRows?: number): number[][] {
    const h = new Harness(hashAggregate({ groupKeys: [0], aggCalls: [COUNT_D], ...(expectedInputRows !== undefined ? { expectedInputRows } : {}) }), OUT2, [IN2], 4096);
    const rows = Array.from({ length: N }, (_, i) => [i % 97, (i * 31) % 5003]);
    for (let i = 0; i < rows.length; i += 10_000) h.push(0, batchOf(IN2, rows.slice(i, i + 10_000)));
    return finishRows(h).sort((a, b) => a[0]! - b[0]!);
  }

  it('reserves the estimated input rows for the (group, value) pairs when big, with the same answer', () => {
    const spy = vi.spyOn(KeyTable.prototype, 'expectKeys');
    const base = runDistinct();
    expect(spy).not.toHaveBeenCalled();
    expect(runDistinct(1000)).toEqual(base);
    expect(spy).not.toHaveBeenCalled();
    expect(runDistinct(N)).toEqual(base);
    expect(spy).toHaveBeenLastCalledWith(N);
    expect(runDistinct(1e12)).toEqual(base);
    // (group id, INTEGER value) keys: 2 slots per pair of 3 words each.
    expect(spy.mock.calls.at(-1)![0]).toBe(Math.floor((48 << 20) / 24));
    // Against a reference: the distinct values of each group.
    const ref = new Map<number, Set<number>>();
    for (let i = 0; i < N; i++) { const g = i % 97; if (!ref.has(g)) ref.set(g, new Set()); ref.get(g)!.add((i * 31) % 5003); }
    expect(base).toEqual([...ref].map(([g, vs]) => [g, vs.size]).sort((a, b) => a[0]! - b[0]!));
  });
});

describe('expected keys (KeyTable.expectKeys)', () => {
  const keys = (from: number, n: number) => makeData({ type: new Int32(), length: n, data: Int32Array.from({ length: n }, (_, i) => ((from + i) * 7919) % 1_000_003) });

  it('a big overestimate allocates nothing while the table stays small', () => {
    const t = new KeyTable(['INTEGER', 'INTEGER', 'INTEGER']);
    reserveForEstimate(t, 450_000);
    const n = 11_000;
    const k = keys(0, n);
    t.groupIds([k, k, k], n);
    expect(t.size).toBe(n);
    // Doubling from 4 slots: the smallest power of two at least twice the groups.
    expect(t.slotCapacity).toBe(32_768);
  });

  it('the first grow past EXPECT_AFTER groups jumps to the expected size, with the same group ids', () => {
    const n = 100_000;
    const t = new KeyTable(['INTEGER']);
    const plain = new KeyTable(['INTEGER']);
    t.expectKeys(n);
    const caps = new Set<number>();
    const ids: number[] = [];
    const ref: number[] = [];
    for (let off = 0; off < n; off += 4096) {
      const len = Math.min(4096, n - off);
      const k = keys(off, len);
      ids.push(...t.groupIds([k], len));
      ref.push(...plain.groupIds([k], len));
      caps.add(t.slotCapacity);
    }
    expect(ids).toEqual(ref);
    expect(t.size).toBe(n);
    // Below EXPECT_AFTER the table doubled; then one jump to room for n keys at load 1/2.
    expect(t.slotCapacity).toBe(262_144);
    const big = [...caps].filter((c) => c > 4 * EXPECT_AFTER);
    expect(big).toEqual([262_144]);
  });
});
