/**
 * Trainings are lazy Tables on the cache core: a cached model is read, not
 * trained again (counting trainings and source scans), whether the second
 * training is written in SQL or the Table API; defaults digest like the
 * values written out; invalidateCache trains again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { memorySource } from '../../src/io/memory.js';
import { trainingsStarted } from '../../src/ml/index.js';
import { probeSource, type Probe } from '../cache/helpers.js';
import { centroids, POINTS } from './helpers.js';

let env: TableEnvironment | undefined;
afterEach(async () => { await env?.close(); env = undefined; });

describe.each([1, 4])('caching trained models at parallelism %i', (p) => {
  it('a second identical training reads the cache', async () => {
    const e = TableEnvironment.create({ parallelism: p });
    env = e;
    const probe: Probe = { scans: 0, batches: 0 };
    const arrow = await e.fromRecords(POINTS.map(([x, y]) => ({ x, y })), { x: 'DOUBLE', y: 'DOUBLE' }).collect();
    e.registerTable('points', probeSource(memorySource(arrow, 'points'), probe));
    const t0 = trainingsStarted('kmeans');
    const model = e.ml.kmeans(e.from('points'), { k: 2, maxIter: 2 }).cache();
    const first = await model.toArray();
    expect(trainingsStarted('kmeans') - t0).toBe(1);
    const scans = probe.scans;
    expect(scans).toBeGreaterThan(0);
    // The same training again, through the Table API and through SQL (defaults written out or not).
    const again = await e.ml.kmeans(e.from('points'), { k: 2, maxIter: 2, seed: 0 }).toArray();
    const sql = await e.sql('SELECT * FROM kmeans(points, max_iter := 2)').toArray();
    expect(centroids(again)).toEqual(centroids(first));
    expect(centroids(sql)).toEqual(centroids(first));
    expect(trainingsStarted('kmeans') - t0).toBe(1);
    expect(probe.scans).toBe(scans);
    // A different training is not the cached one.
    await e.ml.kmeans(e.from('points'), { k: 2, maxIter: 3 }).toArray();
    expect(trainingsStarted('kmeans') - t0).toBe(2);
    await model.invalidateCache();
    await e.ml.kmeans(e.from('points'), { k: 2, maxIter: 2 }).toArray();
    expect(trainingsStarted('kmeans') - t0).toBe(3);
  });

  it('training reads its input once, whatever the rounds (data cached in list state, not replayed)', async () => {
    const e = TableEnvironment.create({ parallelism: p });
    env = e;
    const probe: Probe = { scans: 0, batches: 0 };
    const arrow = await e.fromRecords(POINTS.map(([x, y]) => ({ x, y })), { x: 'DOUBLE', y: 'DOUBLE' }).collect();
    e.registerTable('points', probeSource(memorySource(arrow, 'points'), probe));
    await e.sql('SELECT * FROM kmeans(points, max_iter := 1)').toArray();
    const once = probe.scans;
    await e.sql('SELECT * FROM kmeans(points, max_iter := 30)').toArray();
    expect(probe.scans).toBe(2 * once);
  });

  it('a cached input table feeds a training', async () => {
    const e = TableEnvironment.create({ parallelism: p });
    env = e;
    const probe: Probe = { scans: 0, batches: 0 };
    const arrow = await e.fromRecords(POINTS.map(([x, y]) => ({ x, y })), { x: 'DOUBLE', y: 'DOUBLE' }).collect();
    e.registerTable('points', probeSource(memorySource(arrow, 'points'), probe));
    const pts = e.from('points').filter('x >= 0').cache();
    await pts.toArray();
    const scans = probe.scans;
    const a = await e.ml.kmeans(pts, { maxIter: 2 }).toArray();
    const b = await e.ml.kmeans(pts, { maxIter: 2, seed: 9 }).toArray();
    expect(probe.scans).toBe(scans);
    expect(centroids(a)).toEqual(centroids(b));
  });
});
