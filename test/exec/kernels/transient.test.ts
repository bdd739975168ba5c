/**
 * Transient stage outputs (fused-stage.ts `transient`, compile.ts compileTransientExpr): a fused
 * numeric kernel whose caller is done with each result reuses one buffer batch after batch, only
 * columns read by sum/avg/count alone qualify (agg-fused.ts transientArgs), and grouped
 * aggregates over many batches (a short last one) still match DuckDB.
 */
import { describe, expect, it } from 'vitest';
import '../../../src/sql/index.js';
import { call, inputRef, literal } from '../../../src/relnode/rex.js';
import type { AggCall } from '../../../src/relnode/rel.js';
import { compileExpr, compileTransientExpr } from '../../../src/exec/kernels/compile.js';
import { transientArgs } from '../../../src/exec/operators/agg-fused.js';
import { useHarness } from '../../diff/harness.js';
import { expectSameResult, fromArrow } from '../../helpers/compare.js';
import { makeBatch, valuesOf } from './kernel-helpers.js';

const agg = (fn: string, args: number[], type = 'DOUBLE'): AggCall => ({ fn, args, distinct: false, type, name: fn } as never);

describe('transient kernels', () => {
  const e = call('times', [inputRef(0, 'DOUBLE'), call('minus', [literal(1, 'DOUBLE'), inputRef(1, 'DOUBLE')], 'DOUBLE')], 'DOUBLE');
  const big = makeBatch([{ type: 'DOUBLE', values: [1, 2, 3, 4] }, { type: 'DOUBLE', values: [0.5, 0, 1, 0.25] }]);
  const small = makeBatch([{ type: 'DOUBLE', values: [8, 9] }, { type: 'DOUBLE', values: [0.5, 0.5] }]);

  it('reuses its output buffer across calls, with the right values for a shorter batch', () => {
    const k = compileTransientExpr(e, big.schema);
    const a = k(big.batch);
    expect(valuesOf(a)).toEqual([0.5, 2, 0, 3]);
    const b = k(small.batch);
    expect(valuesOf(b)).toEqual([4, 4.5]);
    expect(b.values.buffer).toBe(a.values.buffer);
    const c = k(big.batch);
    expect(valuesOf(c)).toEqual([0.5, 2, 0, 3]);
  });

  it('compileExpr keeps allocating (its results may be kept)', () => {
    const k = compileExpr(e, big.schema);
    expect(k(big.batch).values.buffer).not.toBe(k(big.batch).values.buffer);
  });

  it('only arguments of sum/avg/count that are not group keys are transient', () => {
    const schema = { fields: ['DOUBLE', 'DOUBLE', 'DOUBLE', 'INTEGER', 'DOUBLE'].map((type, i) => ({ name: `c${i}`, type, nullable: true })) } as never;
    const calls = [agg('sum', [0]), agg('avg', [0]), agg('sum', [1]), agg('min', [1]), agg('count', [2], 'BIGINT'), agg('sum', [3], 'BIGINT'), agg('avg', [4])];
    expect([...transientArgs([4], calls, schema)].sort()).toEqual([0, 2]);
  });
});

describe('grouped aggregates over reused buffers (many batches) match DuckDB', () => {
  const h = useHarness({ env: { batchSize: 1000 } });
  for (const sql of [
    `SELECT l_returnflag, l_linestatus, sum(l_extendedprice * (1 - l_discount)) AS r, sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS c,
       avg(l_quantity * 2) AS q, count(*) AS n FROM lineitem WHERE l_shipdate <= DATE '1998-09-02' GROUP BY l_returnflag, l_linestatus`,
    `SELECT l_linenumber * 2 AS g, sum(l_discount * 10) AS s, min(l_tax * 3) AS m, max(l_tax * 3) AS x, avg(l_tax * 3) AS a
       FROM lineitem WHERE l_quantity < 30 GROUP BY l_linenumber * 2`,
  ]) {
    it(sql.slice(0, 60), async () => {
      expectSameResult(fromArrow(await h.env.sql(sql).collect()), await h.duck.query(sql));
    });
  }
});
