import { describe, expect, it } from 'vitest';
import { nestedLoopJoin } from '../../../src/exec/operators/nested-loop-join.js';
import { join as joinNode, scan, type JoinType } from '../../../src/relnode/rel.js';
import { literal, type LiteralValue } from '../../../src/relnode/rex.js';
import type { Schema } from '../../../src/relnode/types.js';
import { Harness, batchOf, schema, sorted } from '../helpers/fake-context.js';
import { oracle, rowPredicate } from '../helpers/join-oracle.js';

type Row = LiteralValue[];
const L = schema('a:INTEGER', 's:VARCHAR');
const R = schema('b:DOUBLE', 't:VARCHAR');
const LEFT: Row[] = [[1, 'x'], [5, 'y'], [null, 'z'], [9, null], [3, 'x']];
const RIGHT: Row[] = [[2.5, 'p'], [0.5, 'q'], [null, 'r'], [7.5, 'x'], [4, 's']];

function outSchema(jt: JoinType): Schema {
  const t = { name: 't', version: 1, handle: {} };
  return joinNode(scan({ ...t, id: 'l', schema: L }), scan({ ...t, id: 'r', schema: R }), jt, literal(true, 'BOOLEAN')).schema;
}

/** a < b (NULL → no match), or the strings are equal. */
const cond = (r: Row): boolean => (r[0] !== null && r[2] !== null && (r[0] as number) < (r[2] as number)) || (r[1] !== null && r[1] === r[3]);

function run(jt: JoinType, left: Row[], right: Row[], withCond: boolean, batchSize: number): Harness {
  const h = new Harness(nestedLoopJoin({ joinType: jt, ...(withCond ? { condition: rowPredicate(cond) } : {}) }), outSchema(jt), [L, R], batchSize);
  for (let i = 0; i < right.length; i += 2) h.push(1, batchOf(R, right.slice(i, i + 2), i % 4 === 0 ? [1] : []));
  h.end(1);
  for (let i = 0; i < left.length; i += 2) h.push(0, batchOf(L, left.slice(i, i + 2)));
  return h.finish();
}

describe('nestedLoopJoin', () => {
  for (const jt of ['inner', 'left', 'right', 'full', 'semi', 'anti'] as const) {
    it(`${jt} join with a non-equi condition`, () => {
      const expected = oracle(jt, LEFT, RIGHT, 2, 2, (l, r) => cond([...l, ...r]));
      for (const bs of [1024, 3]) expect(sorted(run(jt, LEFT, RIGHT, true, bs).rows())).toEqual(sorted(expected));
    });
    it(`${jt} join with empty sides`, () => {
      expect(sorted(run(jt, LEFT, [], true, 4).rows())).toEqual(sorted(oracle(jt, LEFT, [], 2, 2, () => true)));
      expect(sorted(run(jt, [], RIGHT, true, 4).rows())).toEqual(sorted(oracle(jt, [], RIGHT, 2, 2, () => true)));
    });
  }

  it('cross join: every pair, in batches ≤ batchSize', () => {
    const h = run('cross', LEFT, RIGHT, false, 4);
    expect(h.rows().length).toBe(25);
    expect(sorted(h.rows())).toEqual(sorted(oracle('inner', LEFT, RIGHT, 2, 2, () => true)));
  });

  it('keeps the right side across epochs', () => {
    const h = new Harness(nestedLoopJoin({ joinType: 'right', condition: rowPredicate(cond) }), outSchema('right'), [L, R]);
    h.push(1, batchOf(R, [[2.5, 'p'], [0.5, 'q']])).end(1);
    h.push(0, batchOf(L, [[1, 'x']]), 0).watermark(0);
    h.push(0, batchOf(L, [[0, 'x']]), 1).finish();
    expect(sorted(h.rows(0))).toEqual(sorted([[1, 'x', 2.5, 'p'], [null, null, 0.5, 'q']]));
    expect(sorted(h.rows(1))).toEqual(sorted([[0, 'x', 2.5, 'p'], [0, 'x', 0.5, 'q']]));
  });
});
