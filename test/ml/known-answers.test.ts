/**
 * ITERATION-SEMANTICS.md's known answers through SQL and the Table API, at
 * parallelism 1 and 4: k-means (k = 2, maxIter = 2 → (0.1, 0.1), (9.2, 0.2)
 * whatever the seed picks) and linear regression by SGD (20 rounds →
 * (1.141, 1.829)); logistic regression and linear SVC checked against a
 * plain full-batch gradient loop written here with Flink ML's formulas.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TableEnvironment } from '../../src/api/environment.js';
import { centroids, mlEnv, REGRESSION } from './helpers.js';

let env: TableEnvironment | undefined;
afterEach(async () => { await env?.close(); env = undefined; });

function expectKMeans(rows: Record<string, unknown>[]): void {
  const c = centroids(rows);
  expect(c).toHaveLength(2);
  expect(c[0]![0]).toBeCloseTo(0.1, 5); expect(c[0]![1]).toBeCloseTo(0.1, 5);
  expect(c[1]![0]).toBeCloseTo(9.2, 5); expect(c[1]![1]).toBeCloseTo(0.2, 5);
  expect(rows.map((r) => r['weight']).sort()).toEqual([3, 3]);
  expect(rows.map((r) => r['cluster']).sort()).toEqual([0, 1]);
}

/** Full-batch gradient descent, no regularization: Flink ML's loop when globalBatchSize ≥ rows. */
function reference(loss: 'logistic' | 'hinge', rows: readonly (readonly number[])[], rounds: number, lr: number): number[] {
  const coef = [0, 0];
  for (let r = 0; r < rounds; r++) {
    const g = [0, 0];
    for (const [a, b, y] of rows) {
      const dot = coef[0]! * a! + coef[1]! * b!;
      const ys = 2 * y! - 1;
      const m = loss === 'logistic' ? -ys / (Math.exp(dot * ys) + 1) : (1 - ys * dot > 0 ? -ys : 0);
      g[0] += m * a!; g[1] += m * b!;
    }
    coef[0] -= (lr / rows.length) * g[0]!; coef[1] -= (lr / rows.length) * g[1]!;
  }
  return coef;
}

describe.each([1, 4])('known answers at parallelism %i', (p) => {
  it.each([0, 1, 2, 3, 7, 42])('k-means through SQL, seed %i', async (seed) => {
    env = mlEnv(p);
    const r = await env.sql(`SELECT * FROM kmeans(points, k := 2, max_iter := 2, seed := ${seed})`).toArray();
    expectKMeans(r);
    expect(Object.keys(r[0]!)).toEqual(['cluster', 'x', 'y', 'weight']);
  });

  it('k-means through the Table API and executeSql', async () => {
    env = mlEnv(p);
    expectKMeans(await env.ml.kmeans(env.from('points'), { k: 2, maxIter: 2, seed: 5 }).toArray());
    const res = await env.executeSql('SELECT * FROM kmeans((SELECT y, x FROM points), k := 2, max_iter := 2) ORDER BY x');
    if (res.kind !== 'rows') throw new Error('expected rows');
    expectKMeans(res.table.toArray().map((r) => ({ ...r })));
  });

  it('linear regression through SQL and the Table API → (1.141, 1.829)', async () => {
    env = mlEnv(p);
    const sql = await env.sql("SELECT * FROM linear_regression(data, label := 'y', weight := 'w', max_iter := 20, learning_rate := 0.1, global_batch_size := 32, tol := 1e-6, reg := 0, elastic_net := 0)").toArray();
    const api = await env.ml.linearRegression(env.from('data'), { label: 'y', weight: 'w' }).toArray();
    for (const rows of [sql, api]) {
      expect(rows.map((r) => r['feature'])).toEqual(['x0', 'x1']);
      expect(Math.abs((rows[0]!['coefficient'] as number) - 1.141)).toBeLessThan(1e-3);
      expect(Math.abs((rows[1]!['coefficient'] as number) - 1.829)).toBeLessThan(1e-3);
    }
  });

  it('features := picks and orders the feature columns', async () => {
    env = mlEnv(p);
    const rows = await env.sql("SELECT * FROM linear_regression(data, label := 'y', features := 'x1, x0')").toArray();
    expect(rows.map((r) => r['feature'])).toEqual(['x1', 'x0']);
    expect(Math.abs((rows[0]!['coefficient'] as number) - 1.829)).toBeLessThan(1e-3);
  });

  it.each([['logistic_regression', 'logistic'], ['linear_svc', 'hinge']] as const)('%s matches the full-batch loop', async (fn, loss) => {
    env = mlEnv(p);
    const bin = REGRESSION.map(([a, b, y]) => [a, b, y > 7 ? 1 : 0]);
    env.registerTable('bin', env.fromRecords(bin.map(([a, b, y]) => ({ a, b, y })), { a: 'DOUBLE', b: 'DOUBLE', y: 'INTEGER' }));
    const rows = await env.sql(`SELECT * FROM ${fn}(bin, label := 'y', max_iter := 7, tol := 0)`).toArray();
    const want = reference(loss, bin, 7, 0.1);
    expect(rows[0]!['coefficient']).toBeCloseTo(want[0]!, 10);
    expect(rows[1]!['coefficient']).toBeCloseTo(want[1]!, 10);
  });
});
