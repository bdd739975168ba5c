/**
 * Partitioned stages (src/planner/ship-stages.ts): an aggregate with many groups per input row
 * that reads its scan through filters and projections only runs in one round, every worker
 * aggregating the rows whose group key hashes to it (TPC-H Q18's GROUP BY l_orderkey) instead of
 * pre-aggregating twice or shuffling every row through the coordinator.
 */
import * as arrow from 'apache-arrow';
import { TableEnvironment } from '../../src/api/index.js';
import { CancelledError, ExecutionError } from '../../src/relnode/errors.js';
import { afterAll, describe, expect, it } from 'vitest';
import * as rel from '../../src/relnode/rel.js';
import { call, inputRef, literal } from '../../src/relnode/rex.js';
import { field, schemaOf } from '../../src/relnode/types.js';
import { memorySource } from '../../src/io/memory.js';
import { findAggregateStage, SHUFFLE_GROUP_RATIO } from '../../src/planner/ship-stages.js';
import { morselRanges, SharedTables, shippedSource, type Morsels } from '../../src/planner/ship-tables.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { tpchEnv } from './tpch-sql.js';
import { expectPartitionedSameBits, workerStats } from './helpers.js';

const table = (name: string): rel.TableRef => ({ id: name, name, version: 1, schema: schemaOf([field('v', 'DOUBLE'), field('k', 'INTEGER')]), handle: {} });
const big = rel.scan(table('big'));
const other = rel.scan(table('other'));
const sum = { fn: 'sum', args: [0], distinct: false, name: 's', type: 'DOUBLE' } as rel.AggCall;
const large = (s: rel.Scan): number | undefined => (s === big ? 1_000_000 : undefined);

describe('which aggregates are partitioned', () => {
  it('many groups over a filtered scan: partitioned by the group key\'s table column', () => {
    const agg = rel.aggregate(rel.filter(big, call('gt', [inputRef(0, 'DOUBLE'), literal(0, 'DOUBLE')], 'BOOLEAN')), [1], [sum]);
    const st = findAggregateStage(agg, large, new Set(), () => 0.25);
    expect(st?.mode).toBe('partitioned');
    expect(st?.partitionColumn).toBe(1);
    expect(0.25).toBeGreaterThan(SHUFFLE_GROUP_RATIO);
  });

  it('few groups pre-aggregate; many groups over a join shuffle (the join side would be recomputed for every row)', () => {
    expect(findAggregateStage(rel.aggregate(big, [1], [sum]), large, new Set(), () => 0.001)?.mode).toBe('partial');
    const j = rel.join(big, other, 'inner', call('eq', [inputRef(1, 'INTEGER'), inputRef(3, 'INTEGER')], 'BOOLEAN'));
    expect(findAggregateStage(rel.aggregate(j, [1], [sum]), large, new Set(), () => 0.25)?.mode).toBe('shuffle');
  });
});

describe('a partitioned scan', () => {
  it('gives every row to exactly one worker, equal keys to the same one, in table order', () => {
    const keyOf = (i: number): number => (i * 7) % 13;
    const batches = [0, 1, 2].map((b) => new arrow.RecordBatch({
      i: arrow.makeData({ type: new arrow.Int32(), data: Int32Array.from({ length: 100 }, (_, j) => 100 * b + j) }),
      k: arrow.makeData({ type: new arrow.Int32(), data: Int32Array.from({ length: 100 }, (_, j) => keyOf(100 * b + j)) }),
    }));
    const shipped = new SharedTables().ship(memorySource(batches, 't'), [0, 1], false);
    const ranges = morselRanges(shipped.lengths, 30);
    const state = new Int32Array(new SharedArrayBuffer(8));
    const read = (worker: number, workers: number): number[] => {
      const m: Morsels = { key: 'm', ranges, worker, workers, state, byKey: 1 };
      const out: number[] = [];
      for (const b of shippedSource(shipped, 't', m).scan({ partition: 0, batchSize: 1 << 20, columns: [0] }) as Iterable<arrow.RecordBatch>) out.push(...(b.getChildAt(0)!.toArray() as Int32Array));
      return out;
    };
    for (const W of [2, 3]) {
      const parts = Array.from({ length: W }, (_, w) => read(w, W));
      for (const p of parts) expect(p).toEqual([...p].sort((a, b) => a - b));
      expect(parts.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, i) => i));
      const workerOfKey = new Map<number, number>();
      parts.forEach((p, w) => { for (const i of p) { expect(workerOfKey.get(keyOf(i)) ?? w).toBe(w); workerOfKey.set(keyOf(i), w); } });
      expect(parts.every((p) => p.length > 0)).toBe(true);
    }
  });
});

describe('partitioned stages on worker threads', { timeout: 180_000 }, () => {
  const p1 = tpchEnv(0.01, { parallelism: 1 });
  const p2 = tpchEnv(0.01, { parallelism: 2, workers: 'always', batchSize: 1024 });
  afterAll(async () => { await p1.close(); await p2.close(); });

  it('answer as one thread does, with a HAVING run by the workers and every DOUBLE sum bit-identical', async () => {
    const sql = 'SELECT l_orderkey, sum(l_quantity) AS q, sum(l_extendedprice * (1 - l_discount)) AS r, count(*) AS c FROM lineitem WHERE l_discount > 0.02 GROUP BY l_orderkey HAVING sum(l_quantity) > 100';
    const before = workerStats(p2).stages;
    const a = await p2.sql(sql).collect();
    expect(workerStats(p2).stages).toBe(before + 1);
    // lineitem is generated in l_orderkey order: contiguous ranges cut at key changes (ship-sorted.ts).
    expect(workerStats(p2).traces.at(-1)?.contiguous).toBe(true);
    const b = await p1.sql(sql).collect();
    expect(a.numRows).toBeGreaterThan(0);
    expectSameResult(fromArrow(a), fromArrow(b), {});
    // Each group's rows are added in table order on one worker, as on one thread: the same bits.
    const bits = (t: arrow.Table): Map<number, number> => new Map(t.toArray().map((r) => [Number(r.l_orderkey), r.r as number]));
    const x = bits(a);
    for (const [k, v] of bits(b)) expect(Object.is(x.get(k), v)).toBe(true);
  });
});

describe('partitioned stages over sorted and unsorted keys', { timeout: 60_000 }, () => {
  // 60k rows, ~20k groups (ratio 0.33: partitioned), runs of equal keys crossing batch boundaries.
  const N = 60_000;
  const sortedKeys = Int32Array.from({ length: N }, (_, i) => Math.floor(i / 3) - 5000);
  const perm = Int32Array.from({ length: N }, (_, i) => (i * 7919) % N);
  const v = Float64Array.from({ length: N }, (_, i) => ((i * 37) % 1001) / 7 + 1e-3 * (i % 13));
  const sorted = arrow.tableFromArrays({ k: sortedKeys, v });
  const shuffled = arrow.tableFromArrays({ k: Int32Array.from(perm, (j) => sortedKeys[j]!), v: Float64Array.from(perm, (j) => v[j]!) });
  const p1 = TableEnvironment.create({ parallelism: 1 });
  const p2 = TableEnvironment.create({ parallelism: 2, workers: 'always', batchSize: 4096 });
  for (const e of [p1, p2]) { e.registerTable('s', sorted); e.registerTable('u', shuffled); }
  afterAll(async () => { await p1.close(); await p2.close(); });

  it('an error in a worker of a sorted-key stage is the error of one thread; an aborted one rejects with CancelledError', async () => {
    const bad = 'SELECT k, sum(CAST(k * 100000000000 AS INTEGER)) AS s, count(*) AS c FROM s GROUP BY k HAVING count(*) > 1';
    const e1 = await p1.sql(bad).collect().then(() => undefined, (e: unknown) => e);
    const e2 = await p2.sql(bad).collect().then(() => undefined, (e: unknown) => e);
    expect(e1).toBeInstanceOf(ExecutionError);
    expect(e2).toBeInstanceOf(ExecutionError);
    expect((e2 as Error).message.replace(/-?\d+/g, 'N')).toBe((e1 as Error).message.replace(/-?\d+/g, 'N'));
    const ac = new AbortController();
    ac.abort();
    await expect(p2.sql('SELECT k, sum(v) AS s FROM s GROUP BY k').collect({ signal: ac.signal })).rejects.toBeInstanceOf(CancelledError);
    // The pool still runs the next query.
    const ok = 'SELECT k, count(*) AS c FROM s GROUP BY k HAVING count(*) > 2';
    expectSameResult(fromArrow(await p2.sql(ok).collect()), fromArrow(await p1.sql(ok).collect()), {});
  });

  for (const [t, contiguous] of [['s', true], ['u', false]] as const) {
    it(`${t === 's' ? 'sorted: contiguous ranges' : 'unsorted: rows picked by hash'}, the same bits as one thread`, async () => {
      const sql = `SELECT k, sum(v) AS s, count(*) AS c, max(v) AS m FROM ${t} WHERE v > 1 GROUP BY k HAVING count(*) > 1`;
      await expectPartitionedSameBits(p2, p1, sql, contiguous);
    });
  }
});
