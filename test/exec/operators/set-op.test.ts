import { describe, expect, it } from 'vitest';
import { setOp } from '../../../src/exec/operators/set-op.js';
import type { LiteralValue } from '../../../src/relnode/rex.js';
import { Harness, batchOf, schema, sorted } from '../helpers/fake-context.js';

type Row = LiteralValue[];
const S = schema('a:INTEGER', 's:VARCHAR');
const LEFT: Row[] = [[1, 'x'], [1, 'x'], [1, 'x'], [2, null], [2, null], [null, 'y'], [3, 'z']];
const RIGHT: Row[] = [[1, 'x'], [2, null], [2, null], [2, null], [null, 'y'], [4, 'w']];

function run(op: 'intersect' | 'except', all: boolean, left: Row[], right: Row[], batchSize = 1024): Harness {
  const h = new Harness(setOp({ op, all }), S, [S, S], batchSize);
  // Interleave inputs; dictionary-encode the strings of the right side.
  if (left.length) h.push(0, batchOf(S, left.slice(0, 3)));
  if (right.length) h.push(1, batchOf(S, right, [1]));
  if (left.length > 3) h.push(0, batchOf(S, left.slice(3)));
  return h.finish();
}

describe('setOp', () => {
  it('INTERSECT (distinct), NULLs equal', () => {
    expect(sorted(run('intersect', false, LEFT, RIGHT).rows())).toEqual(sorted([[1, 'x'], [2, null], [null, 'y']]));
  });
  it('INTERSECT ALL keeps min(l, r) copies', () => {
    expect(sorted(run('intersect', true, LEFT, RIGHT).rows())).toEqual(sorted([[1, 'x'], [2, null], [2, null], [null, 'y']]));
  });
  it('EXCEPT (distinct)', () => {
    expect(sorted(run('except', false, LEFT, RIGHT).rows())).toEqual([[3, 'z']]);
  });
  it('EXCEPT ALL keeps l − r copies', () => {
    expect(sorted(run('except', true, LEFT, RIGHT, 2).rows())).toEqual(sorted([[1, 'x'], [1, 'x'], [3, 'z']]));
  });
  it('empty sides', () => {
    expect(run('intersect', false, LEFT, []).rows()).toEqual([]);
    expect(sorted(run('except', false, LEFT, []).rows())).toEqual(sorted([[1, 'x'], [2, null], [null, 'y'], [3, 'z']]));
    expect(run('except', true, [], RIGHT).rows()).toEqual([]);
  });
  it('per epoch', () => {
    const h = new Harness(setOp({ op: 'except', all: false }), S, [S, S]);
    h.push(0, batchOf(S, [[1, 'a'], [2, 'b']]), 0).push(1, batchOf(S, [[1, 'a']]), 0);
    h.push(0, batchOf(S, [[1, 'a']]), 1);
    h.watermark(0);
    expect(h.rows(0)).toEqual([[2, 'b']]);
    h.finish();
    expect(h.rows(1)).toEqual([[1, 'a']]);
  });
});
