/**
 * A top-k above a worker stage (src/planner/ship-stages.ts topKFromAbove): each worker keeps its
 * fetch + offset best final rows, and the calling thread's Sort merges them — the answer of one
 * thread, in order.
 */
import * as arrow from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/index.js';
import * as rel from '../../src/relnode/rel.js';
import { literal } from '../../src/relnode/rex.js';
import { field, schemaOf } from '../../src/relnode/types.js';
import { findAggregateStage, topKFromAbove } from '../../src/planner/ship-stages.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { workerStats } from './helpers.js';

const table = (name: string): rel.TableRef => ({ id: name, name, version: 1, schema: schemaOf([field('v', 'DOUBLE'), field('k', 'INTEGER')]), handle: {} });
const big = rel.scan(table('big'));
const sum = { fn: 'sum', args: [0], distinct: false, name: 's', type: 'DOUBLE' } as rel.AggCall;
const large = (s: rel.Scan): number | undefined => (s === big ? 1_000_000 : undefined);

describe('topKFromAbove', () => {
  const agg = rel.aggregate(big, [1], [sum]);
  const st = findAggregateStage(agg, large, new Set(), () => 0.5)!;
  const rows = rel.scan({ ...table('rows'), schema: st.partial.schema });

  it('adds the Sort with fetch + offset to the final rows when a top-k reads the stage', () => {
    const plan = rel.sort(agg, [{ index: 1, desc: true, nullsFirst: false }], 10, 5);
    const out = topKFromAbove(plan, st).final(rows);
    expect(out.kind).toBe('Sort');
    expect(out.kind === 'Sort' ? [out.fetch, out.offset] : undefined).toEqual([15, undefined]);
  });

  it('leaves the stage alone under a sort without fetch, or when the node has a second reader', () => {
    expect(topKFromAbove(rel.sort(agg, [{ index: 1, desc: true, nullsFirst: false }]), st)).toBe(st);
    const twice = rel.join(rel.sort(agg, [{ index: 1, desc: false, nullsFirst: false }], 3), agg, 'cross', literal(true, 'BOOLEAN'));
    expect(topKFromAbove(twice, st)).toBe(st);
  });
});

describe('a top-k over a stage on worker threads', { timeout: 120_000 }, () => {
  const N = 80_000;
  const t = arrow.tableFromArrays({
    k: Int32Array.from({ length: N }, (_, i) => (i * 7919) % 20_000),
    v: Float64Array.from({ length: N }, (_, i) => (i % 997) + i / N),
  });
  const p1 = TableEnvironment.create({ parallelism: 1 });
  const p2 = TableEnvironment.create({ parallelism: 2, workers: 'always', batchSize: 4096 });
  for (const e of [p1, p2]) e.registerTable('t', t);
  afterAll(async () => { await p1.close(); await p2.close(); });

  for (const sql of [
    'SELECT k, sum(v) AS s FROM t GROUP BY k ORDER BY s DESC, k LIMIT 10',
    'SELECT k, sum(v) AS s, count(*) AS c FROM t WHERE v > 3 GROUP BY k ORDER BY s, k LIMIT 7 OFFSET 5',
  ]) {
    it(`${sql}: the rows of one thread, in order`, async () => {
      const before = workerStats(p2).stages;
      const a = await p2.sql(sql).collect();
      expect(workerStats(p2).stages).toBeGreaterThan(before);
      const b = await p1.sql(sql).collect();
      expect(a.numRows).toBe(b.numRows);
      expectSameResult(fromArrow(a), fromArrow(b), { ordered: true });
    });
  }
});
