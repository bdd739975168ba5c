/**
 * The hash aggregate reuses one group-id buffer batch after batch: a big batch followed by smaller
 * ones (the buffer then longer than the batch) must give the same groups as each batch alone
 * summed by hand — for the fused sum/count loop, a DISTINCT state and min/max.
 */
import { describe, expect, it } from 'vitest';
import { hashAggregate } from '../../../src/exec/operators/hash-aggregate.js';
import type { AggCall } from '../../../src/relnode/rel.js';
import { field, schemaOf } from '../../../src/relnode/types.js';
import { Harness, batchOf, schema, sorted } from '../helpers/fake-context.js';

const IN = schema('k:INTEGER', 'x:DOUBLE');
const call = (fn: string, type: string, distinct = false, args = [1]): AggCall => ({ fn, args, distinct, type, name: `${fn}${distinct ? 'd' : ''}` } as never);
const CALLS = [call('sum', 'DOUBLE'), call('count_star', 'BIGINT', false, []), call('count', 'BIGINT', true), call('max', 'DOUBLE')];

describe('group ids reused across batches', () => {
  it('a big batch, then smaller ones with other groups', () => {
    const sizes = [3000, 7, 1200, 1];
    const batches: (number | null)[][][] = [];
    let x = 1;
    for (const n of sizes) batches.push(Array.from({ length: n }, (_, i) => [(i * 7 + n) % (n > 100 ? 13 : 3), (x = (x * 31 + 7) % 101) / 4]));
    const out = schemaOf([field('k', 'INTEGER'), ...CALLS.map((c) => field(c.name, c.type))]);
    const h = new Harness(hashAggregate({ groupKeys: [0], aggCalls: CALLS }), out, [IN]);
    for (const b of batches) h.push(0, batchOf(IN, b));
    h.finish();
    const expected = new Map<number, { sum: number; n: number; distinct: Set<number>; max: number }>();
    for (const b of batches) for (const [k, v] of b as number[][]) {
      const e = expected.get(k!) ?? { sum: 0, n: 0, distinct: new Set<number>(), max: -Infinity };
      e.sum += v!; e.n++; e.distinct.add(v!); e.max = Math.max(e.max, v!);
      expected.set(k!, e);
    }
    const rows = sorted(h.rows());
    expect(rows.length).toBe(expected.size);
    for (const [k, sum, n, d, max] of rows as [number, number, bigint, bigint, number][]) {
      const e = expected.get(k)!;
      expect(sum).toBeCloseTo(e.sum, 9);
      expect([n, d, max]).toEqual([BigInt(e.n), BigInt(e.distinct.size), e.max]);
    }
  });
});
