/**
 * The k-means iteration at the stream level with the data cached in list
 * state, replayed by the iteration's replayer, or recomputed every round
 * (the benchmark's three modes) gives the known answer in each.
 */
import { describe, expect, it } from 'vitest';
import { StreamEnvironment } from '../../src/iteration/stream/environment.js';
import { kmeansStream, type DataMode } from '../../src/ml/index.js';
import { centroids, POINTS } from './helpers.js';

const rows = POINTS.map(([x, y]) => ({ x, y }));

describe.each([1, 3])('k-means data modes at parallelism %i', (p) => {
  it.each(['cached', 'replayed', 'recomputed'] as const)('%s', async (name) => {
    const env = new StreamEnvironment({ parallelism: p });
    const points = env.fromRows(rows, { schema: { x: 'DOUBLE', y: 'DOUBLE' }, parallelism: p });
    const batch = (await env.fromRows(rows, { schema: { x: 'DOUBLE', y: 'DOUBLE' } }).batches().next()).value!;
    let recomputed = 0;
    const mode: DataMode = name === 'recomputed' ? { recompute: (s) => { recomputed++; return s === 0 ? [batch] : []; } } : name;
    const model = await kmeansStream(points, { k: 2, maxIter: 2, seed: 1, names: ['x', 'y'], mode }).collect();
    const c = centroids(model.map((r) => ({ x: r['f0'], y: r['f1'] })));
    expect(c[0]![0]).toBeCloseTo(0.1, 5); expect(c[0]![1]).toBeCloseTo(0.1, 5);
    expect(c[1]![0]).toBeCloseTo(9.2, 5); expect(c[1]![1]).toBeCloseTo(0.2, 5);
    if (name === 'recomputed') expect(recomputed).toBe(2 * p); // once per round per subtask
  });
});
