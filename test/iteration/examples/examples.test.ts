/**
 * FLIP-176's example programs (examples/iteration/*) run with small sizes
 * and find the known solution of their linear model: synchronous and
 * asynchronous SGD on bounded data, online mini-batch SGD on a never-ending
 * stream (sync and async, stopped by breaking out of `rows()`).
 */
import { describe, expect, it } from 'vitest';
import { run as syncSgd } from '../../../examples/iteration/sgd-linear-regression.js';
import { run as asyncSgd } from '../../../examples/iteration/async-sgd-linear-regression.js';
import { run as onlineSgd } from '../../../examples/iteration/online-sgd.js';
import { DIM } from '../../../examples/iteration/linear-model.js';

describe('iteration examples', () => {
  it('synchronous SGD linear regression (bounded, cached data) finds the model', async () => {
    const r = await syncSgd({ rows: 2000, rounds: 40, train: 3 });
    expect(r.model).toHaveLength(DIM);
    expect(r.error).toBeLessThan(2e-3);
  });

  it('synchronous SGD is full-batch: the model does not depend on the number of Train tasks', async () => {
    const a = await syncSgd({ rows: 500, rounds: 5, train: 1 });
    const b = await syncSgd({ rows: 500, rounds: 5, train: 4 });
    b.model.forEach((v, i) => expect(v).toBeCloseTo(a.model[i]!, 9));
    expect(a.error).toBeGreaterThan(1e-2); // 5 rounds are not enough: the test can see a model that is off
  });

  it('asynchronous SGD linear regression (bounded, mini-batches, no round barrier) finds the model', async () => {
    const r = await asyncSgd({ rows: 2000, rounds: 40, train: 3, batch: 100 });
    expect(r.updates).toBe(3 * 40); // every task's update of rounds 0..39 is applied (the terminating round's included)
    expect(r.error).toBeLessThan(2e-3);
  });

  it('online synchronous mini-batch SGD on a never-ending stream finds the model and stops when the reader breaks', async () => {
    const r = await onlineSgd({ mode: 'sync', versions: 100, train: 2, batch: 64, publish: 5 });
    expect(r.versions).toBe(100);
    expect(r.samplesUsed).toBeGreaterThanOrEqual(100 * 2 * 64);
    expect(r.error).toBeLessThan(5e-3);
  });

  it('online asynchronous mini-batch SGD on a never-ending stream finds the model', async () => {
    const r = await onlineSgd({ mode: 'async', versions: 100, train: 2, batch: 64, publish: 5 });
    expect(r.versions).toBe(100);
    expect(r.error).toBeLessThan(5e-3);
  });
});
