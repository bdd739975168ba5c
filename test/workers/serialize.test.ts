/**
 * Plans as data (src/planner/ship-serialize.ts): every optimized TPC-H plan survives
 * encode → JSON text → decode with the same digest and structure, literals JSON cannot write
 * survive, and what cannot be shipped is refused.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { digest } from '../../src/relnode/digest.js';
import { structurallyEqual } from '../../src/relnode/equal.js';
import * as rel from '../../src/relnode/rel.js';
import { literal } from '../../src/relnode/rex.js';
import { field, schemaOf } from '../../src/relnode/types.js';
import { optimize } from '../../src/planner/optimizer.js';
import { decodePlan, encodePlan, NotShippableError } from '../../src/planner/ship-serialize.js';
import { tpchEnv, tpchSql } from './tpch-sql.js';

const env = tpchEnv(0.001, { parallelism: 1 });
afterAll(() => env.close());

/** Round trip through JSON text; scans' handles come back by key. */
function roundTrip(plan: rel.RelNode): rel.RelNode {
  const handles = new Map<string, object>();
  const keys = new Map<object, string>();
  const encoded = encodePlan(plan, (s) => {
    let k = keys.get(s.table.handle);
    if (k === undefined) { k = `t${keys.size}`; keys.set(s.table.handle, k); handles.set(k, s.table.handle); }
    return k;
  });
  return decodePlan(JSON.parse(JSON.stringify(encoded)), (k) => handles.get(k)!);
}

describe('plan serialization', () => {
  for (let n = 1; n <= 22; n++) {
    it(`TPC-H Q${n}: optimized plan round-trips with the same digest and structure`, () => {
      const plan = optimize(env.sql(tpchSql(n).sql).plan);
      const back = roundTrip(plan);
      expect(digest(back)).toBe(digest(plan));
      expect(structurallyEqual(back, plan)).toBe(true);
      expect(back.schema).toEqual(plan.schema);
    });
  }

  it('literals JSON cannot write: BIGINT beyond 2^53, NaN, ±Infinity, -0', () => {
    const values = [2n ** 63n - 1n, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0];
    const v = rel.values([[values[0]!, values[1]!, values[2]!, values[3]!, values[4]!]], schemaOf([field('a', 'BIGINT'), field('b', 'DOUBLE'), field('c', 'DOUBLE'), field('d', 'DOUBLE'), field('e', 'DOUBLE')]));
    const p = rel.project(v, [literal(-0, 'DOUBLE'), literal(12345678901234567890n, 'BIGINT')], ['x', 'y']);
    const back = roundTrip(p) as rel.Project;
    const row = (back.input as rel.Values).rows[0]!;
    expect(row[0]).toBe(2n ** 63n - 1n);
    expect(Number.isNaN(row[1])).toBe(true);
    expect(row[2]).toBe(Number.POSITIVE_INFINITY);
    expect(row[3]).toBe(Number.NEGATIVE_INFINITY);
    expect(Object.is(row[4], -0)).toBe(true);
    expect(Object.is((back.exprs[0] as { value: unknown }).value, -0)).toBe(true);
    expect((back.exprs[1] as { value: unknown }).value).toBe(12345678901234567890n);
  });

  it('cache nodes and table functions are refused (the query runs on its own thread)', () => {
    const plan = optimize(env.sql('SELECT * FROM nation').plan);
    expect(() => encodePlan(rel.cacheSource('e1', plan), () => 'k')).toThrow(NotShippableError);
    const tf = rel.tableFunction('f', [plan], [], plan.schema, { lower: () => 0 }, true);
    expect(() => encodePlan(tf, () => 'k')).toThrow(NotShippableError);
  });
});
