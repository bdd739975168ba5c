/** The global-aggregate fast path (addGlobal) must agree with the grouped path on NULLs, NaN and several batches. */
import { describe, expect, it } from 'vitest';
import { hashAggregate } from '../../../src/exec/operators/hash-aggregate.js';
import { aggReturnType, type AggFn } from '../../../src/relnode/functions.js';
import type { AggCall } from '../../../src/relnode/rel.js';
import { field, schemaOf, type SqlType } from '../../../src/relnode/types.js';
import { Harness, batchOf, rowsOf, schema } from '../helpers/fake-context.js';

const S = schema('g:INTEGER', 'x:DOUBLE');
const FNS: AggFn[] = ['count', 'count_star', 'sum', 'avg', 'min', 'max'];
const calls: AggCall[] = FNS.map((fn) => ({ fn, args: fn === 'count_star' ? [] : [1], distinct: false, type: aggReturnType(fn, 'DOUBLE') as SqlType, name: fn }));

function run(groupKeys: number[], batches: (number | null)[][]): unknown[][] {
  const out = schemaOf([...groupKeys.map(() => field('g', 'INTEGER')), ...calls.map((c) => field(c.name, c.type))]);
  const h = new Harness(hashAggregate({ groupKeys, aggCalls: calls }), out, [S]);
  for (const b of batches) h.push(0, batchOf(S, b.map((x) => [1, x])));
  h.finish();
  return rowsOf(h.ctx.emitted.map((e) => e.batch)).map((r) => r.slice(groupKeys.length));
}

describe('global aggregates (fast path) agree with grouped ones', () => {
  const cases: Record<string, (number | null)[][]> = {
    'plain numbers over two batches': [[3, -1, 7.5], [2, 10]],
    'NULLs': [[null, 4, null], [1, null]],
    'NaN wins max, loses min': [[3, NaN, 1], [5]],
    'only NaN': [[NaN], [NaN]],
    'only NULLs': [[null], [null, null]],
    'NaN after the max, in a later batch': [[3, 9], [1, NaN, 2], [4]],
    'only infinities': [[Infinity, -Infinity], [Infinity]],
    'only +Infinity': [[Infinity], [Infinity]],
    '+Infinity and NaN': [[NaN, Infinity], [NaN]],
    'only -Infinity': [[-Infinity], [-Infinity, -Infinity]],
    'NaN, then NULLs and numbers': [[NaN], [null, -2, null]],
  };
  for (const [name, batches] of Object.entries(cases)) {
    it(name, () => {
      const global = run([], batches);
      const grouped = run([0], batches);
      expect(global).toEqual(grouped);
    });
  }

  it('empty input still yields one row', () => {
    expect(run([], [])).toEqual([[0n, 0n, null, null, null, null]]);
  });
});
