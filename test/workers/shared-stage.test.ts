/**
 * A repeated aggregate (TPC-H Q15's view read twice, Q11's GROUP BY reused by its HAVING) runs as
 * one worker stage whose result replaces every occurrence (src/planner/ship-shared.ts), as one
 * thread's lowering shares it (lower-shared.ts); before, each occurrence was a stage of its own
 * and the workers did the work twice. A non-deterministic aggregate is never shared.
 */
import { tableFromArrays } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { workerStats } from './helpers.js';
import * as rel from '../../src/relnode/rel.js';
import { call, inputRef, literal } from '../../src/relnode/rex.js';
import { field, schemaOf } from '../../src/relnode/types.js';
import { memorySource } from '../../src/io/memory.js';
import { splitAggregate } from '../../src/planner/ship-stages.js';
import { equalNodes, replaceNodes, sharedStage } from '../../src/planner/ship-shared.js';

const N = 250_000;
const t = tableFromArrays({ k: Int32Array.from({ length: N }, (_, i) => (i * 7919) % 5000), v: Float64Array.from({ length: N }, (_, i) => (i % 1000) / 7) });

describe('a repeated aggregate on the workers', { timeout: 180_000 }, () => {
  const p1 = TableEnvironment.create({ parallelism: 1 });
  // 'large': every stage over a large scan ships (these would not pay under 'auto': ship-cost.ts).
  const p2 = TableEnvironment.create({ parallelism: 2, workers: 'large' });
  for (const e of [p1, p2]) e.registerTable('t', t);
  afterAll(async () => { await p1.close(); await p2.close(); });

  const stagesOf = async (sql: string): Promise<number> => {
    const expected = fromArrow(await p1.sql(sql).collect());
    const before = workerStats(p2).stages;
    expectSameResult(fromArrow(await p2.sql(sql).collect()), expected, {});
    return workerStats(p2).stages - before;
  };

  it('runs once when read with different projections above it (TPC-H Q15)', async () => {
    const sql = `WITH r (g, total) AS (SELECT k, sum(v) FROM t WHERE v > 10 GROUP BY k)
      SELECT g, total FROM r WHERE total = (SELECT max(total) FROM r) ORDER BY g`;
    expect(await stagesOf(sql)).toBe(1);
  });

  it('runs once when its two readers are a join and an aggregate (TPC-H Q11)', async () => {
    const sql = `SELECT k, sum(v) AS s FROM t GROUP BY k
      HAVING sum(v) > (SELECT sum(v) * 0.0002 FROM t) ORDER BY s DESC, k`;
    const expected = fromArrow(await p1.sql(sql).collect());
    expectSameResult(fromArrow(await p2.sql(sql).collect()), expected, {});
    const sql2 = `WITH a AS (SELECT k, sum(v) AS s FROM t GROUP BY k)
      SELECT x.k, x.s FROM a x JOIN (SELECT sum(s) * 0.0002 AS lim FROM a) y ON x.s > y.lim ORDER BY x.s DESC, x.k`;
    expect(await stagesOf(sql2)).toBe(1);
  });
});

describe('sharedStage (plans)', () => {
  const source = memorySource([], 't', schemaOf([field('k', 'INTEGER', false), field('v', 'DOUBLE', false)]));
  const scanOf = (): rel.Scan => rel.scan({ id: 't', name: 't', version: 1, schema: source.schema, handle: source });
  // Two copies built separately: distinct objects, structurally equal.
  const agg = (withRandom: boolean): rel.Aggregate => {
    const s = scanOf();
    const v = withRandom ? call('add', [inputRef(1, 'DOUBLE'), call('random', [], 'DOUBLE')], 'DOUBLE') : inputRef(1, 'DOUBLE');
    const p = rel.project(s, [inputRef(0, 'INTEGER'), v], ['k', 'v']);
    return rel.aggregate(p, [0], [{ fn: 'sum', args: [1], distinct: false, type: 'DOUBLE', name: 's' }]);
  };
  const planOf = (a: rel.Aggregate, b: rel.Aggregate): rel.RelNode => rel.join(rel.project(a, [inputRef(0, 'INTEGER'), inputRef(1, 'DOUBLE')], ['k', 'x']), b, 'cross', literal(true, 'BOOLEAN'));

  it('finds and replaces every structurally equal copy of a deterministic aggregate', () => {
    const a = agg(false), b = agg(false);
    const plan = planOf(a, b);
    expect(equalNodes(plan, a)).toEqual([a, b]);
    const found = splitAggregate(a, a.input.kind === 'Project' ? (a.input.input as rel.Scan) : (a.input as rel.Scan))!;
    const extended = { ...found, node: (plan as rel.Join).left };
    // The extended node (a projection above the first copy only) does not repeat: the bare aggregate is the stage.
    const { stage, targets } = sharedStage(plan, found, extended, () => 1);
    expect(stage).toBe(found);
    expect(targets).toEqual([a, b]);
    const by = scanOf();
    const replaced = replaceNodes(plan, targets, by) as rel.Join;
    expect((replaced.left as rel.Project).input).toBe(by);
    expect(replaced.right).toBe(by);
  });

  it('does not share a non-deterministic aggregate', () => {
    const a = agg(true), b = agg(true);
    const plan = planOf(a, b);
    expect(equalNodes(plan, a)).toEqual([a]);
    const found = splitAggregate(a, a.input.kind === 'Project' ? (a.input.input as rel.Scan) : (a.input as rel.Scan))!;
    expect(sharedStage(plan, found, found, () => 1).targets).toEqual([a]);
  });
});
