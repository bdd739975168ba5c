import { describe, expect, it } from 'vitest';
import { groupLimitOperator } from '../../../src/exec/operators/group-limit.js';
import { Harness, batchOf, schema } from '../helpers/fake-context.js';

const S = schema('k:INTEGER', 'v:VARCHAR');

describe('group limit', () => {
  it('keeps rows offset..offset+fetch of each key, in arrival order, across batches; NULL keys are one key', () => {
    const h = new Harness(groupLimitOperator([0], 2, 1), S, [S]);
    h.push(0, batchOf(S, [[1, 'a'], [2, 'a'], [1, 'b'], [null, 'a'], [null, 'b']]));
    h.push(0, batchOf(S, [[1, 'c'], [1, 'd'], [2, 'b'], [2, 'c'], [2, 'd']]));
    h.finish();
    expect(h.rows()).toEqual([[1, 'b'], [null, 'b'], [1, 'c'], [2, 'b'], [2, 'c']]);
  });

  it('counts per epoch and passes nothing with fetch 0', () => {
    const h = new Harness(groupLimitOperator([0], 1, 0), S, [S]);
    h.push(0, batchOf(S, [[1, 'a'], [1, 'b']]), 0);
    h.push(0, batchOf(S, [[1, 'c']]), 1);
    h.finish();
    expect(h.rows(0)).toEqual([[1, 'a']]);
    expect(h.rows(1)).toEqual([[1, 'c']]);
    const z = new Harness(groupLimitOperator([0], 0, 0), S, [S]);
    z.push(0, batchOf(S, [[1, 'a']]));
    z.finish();
    expect(z.rows()).toEqual([]);
  });
});
