import { describe, expect, it } from 'vitest';
import { distinct } from '../../../src/exec/operators/distinct.js';
import { Harness, batchOf, schema } from '../helpers/fake-context.js';

const S = schema('a:INTEGER', 's:VARCHAR', 'd:DOUBLE');

describe('distinct', () => {
  it('emits first occurrences, NULLs equal, across batches and dictionary/Utf8 columns', () => {
    const h = new Harness(distinct(), S, [S]);
    h.push(0, batchOf(S, [[1, 'a', 0.5], [1, 'a', 0.5], [null, 'a', null], [1, null, 0.5]]));
    h.push(0, batchOf(S, [[null, 'a', null], [1, 'a', 0.5], [2, 'b', -0], [1, null, 0.5], [2, 'b', 0]], [1]));
    h.finish();
    expect(h.rows()).toEqual([[1, 'a', 0.5], [null, 'a', null], [1, null, 0.5], [2, 'b', -0]]);
  });

  it('emits new rows as their batch arrives and passes a fully new batch through', () => {
    const h = new Harness(distinct(), S, [S]);
    const b = batchOf(S, [[1, 'a', 1], [2, 'b', 2]]);
    h.push(0, b);
    expect(h.ctx.emitted[0]!.batch).toBe(b);
    h.push(0, batchOf(S, [[2, 'b', 2]]));
    expect(h.ctx.emitted.length).toBe(1);
  });

  it('state is per epoch', () => {
    const h = new Harness(distinct(), S, [S]);
    h.push(0, batchOf(S, [[1, 'a', 1]]), 0);
    h.push(0, batchOf(S, [[1, 'a', 1], [2, 'a', 1]]), 1);
    h.watermark(0);
    h.push(0, batchOf(S, [[1, 'a', 1], [2, 'a', 1]]), 1);
    h.finish();
    expect(h.rows(0)).toEqual([[1, 'a', 1]]);
    expect(h.rows(1)).toEqual([[1, 'a', 1], [2, 'a', 1]]);
  });

  it('splits output at batchSize and handles empty input', () => {
    const T = schema('a:INTEGER');
    const h = new Harness(distinct(), T, [T], 4);
    h.push(0, batchOf(T, Array.from({ length: 10 }, (_, i) => [i % 7])));
    h.finish();
    expect(h.ctx.emitted.map((e) => e.batch.numRows)).toEqual([4, 3]);
    expect(new Harness(distinct(), T, [T]).finish().rows()).toEqual([]);
  });
});
