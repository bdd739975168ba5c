/**
 * Scoring with a model table: kmeans_predict, linear_regression_predict,
 * logistic_regression_predict and linear_svc_predict in SQL and the Table
 * API, at parallelism 1 and 4; a model trained and applied in one SQL
 * statement; a cached model registered and scored without training again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TableEnvironment } from '../../src/api/environment.js';
import { trainingsStarted } from '../../src/ml/index.js';
import { mlEnv } from './helpers.js';

let env: TableEnvironment | undefined;
afterEach(async () => { await env?.close(); env = undefined; });

const byXY = (a: Record<string, unknown>, b: Record<string, unknown>): number => (a['x'] as number) - (b['x'] as number) || (a['y'] as number) - (b['y'] as number);

describe.each([1, 4])('scoring at parallelism %i', (p) => {
  it('kmeans_predict in one statement: each point gets its centroid', async () => {
    env = mlEnv(p);
    const rows = (await env.sql(`
      WITH m AS (SELECT * FROM kmeans(points, k := 2, max_iter := 2))
      SELECT s.x, s.y, s.prediction, m.x AS cx FROM kmeans_predict(m, points) s JOIN m ON s.prediction = m.cluster`).toArray()).sort(byXY);
    expect(rows).toHaveLength(6);
    for (const r of rows) expect(r['cx']).toBeCloseTo((r['x'] as number) > 5 ? 9.2 : 0.1, 5);
    expect(Object.keys(rows[0]!)).toEqual(['x', 'y', 'prediction', 'cx']);
  });

  it('a cached model, registered, scores data without training again', async () => {
    env = mlEnv(p);
    const model = env.sql('SELECT * FROM kmeans(points, k := 2, max_iter := 2)').cache();
    await model.toArray();
    env.registerTable('model', model);
    const t0 = trainingsStarted('kmeans');
    const scored = await env.sql('SELECT prediction, count(*) AS n FROM kmeans_predict(model, (SELECT x, y, x + y AS s FROM points)) GROUP BY prediction ORDER BY prediction').toArray();
    expect(scored.map((r) => Number(r['n']))).toEqual([3, 3]);
    const api = await env.ml.kmeansPredict(env.from('model'), env.from('points')).toArray();
    expect(api).toHaveLength(6);
    expect(trainingsStarted('kmeans')).toBe(t0);
  });

  it('SQL only: CACHE TABLE a trained model, then score with it (one training)', async () => {
    env = mlEnv(p);
    const t0 = trainingsStarted('linear_regression');
    await env.executeSql("CACHE TABLE m AS SELECT * FROM linear_regression(data, label := 'y', weight := 'w')");
    const res = await env.executeSql('SELECT x0, x1, y, round(prediction, 3) AS p FROM linear_regression_predict(m, data) ORDER BY x0, x1');
    const again = await env.executeSql('SELECT count(*) AS n FROM linear_regression_predict(m, data) WHERE abs(prediction - y) < 1');
    if (res.kind !== 'rows' || again.kind !== 'rows') throw new Error('expected rows');
    const rows = res.table.toArray();
    expect(rows).toHaveLength(8);
    expect(rows[0]!['p']).toBeCloseTo(1.141 + 2 * 1.829, 2); // (1, 2) → 5
    expect(Number(again.table.toArray()[0]!['n'])).toBe(8);
    expect(trainingsStarted('linear_regression') - t0).toBe(1);
  });

  it('linear_regression_predict is the dot product with the coefficients; NULL features give NULL', async () => {
    env = mlEnv(p);
    const model = await env.sql("SELECT * FROM linear_regression(data, label := 'y', weight := 'w')").toArray();
    const [c0, c1] = [model[0]!['coefficient'] as number, model[1]!['coefficient'] as number];
    const rows = await env.sql(`SELECT * FROM linear_regression_predict((SELECT * FROM linear_regression(data, label := 'y', weight := 'w')),
      (SELECT * FROM (VALUES (1, 2.0, 'a'), (3, NULL, 'b')) AS t(x0, x1, tag)))`).toArray();
    const sorted = rows.sort((a, b) => (a['x0'] as number) - (b['x0'] as number));
    expect(sorted[0]!['prediction']).toBeCloseTo(c0 + 2 * c1, 10);
    expect(sorted[0]!['tag']).toBe('a');
    expect(sorted[1]!['prediction']).toBeNull();
  });

  it('logistic_regression_predict and linear_svc_predict follow Flink ML', async () => {
    env = mlEnv(p);
    env.registerTable('bin', env.sql('SELECT x0, x1, CASE WHEN y > 7 THEN 1 ELSE 0 END AS y FROM data'));
    const lr = env.ml.logisticRegression(env.from('bin'), { label: 'y', maxIter: 30 });
    const coef = (await lr.toArray()).map((r) => r['coefficient'] as number);
    const scored = await env.ml.logisticRegressionPredict(lr, env.from('bin')).toArray();
    for (const r of scored) {
      const dot = coef[0]! * (r['x0'] as number) + coef[1]! * (r['x1'] as number);
      expect(r['raw_prediction']).toBeCloseTo(dot, 10);
      expect(r['probability']).toBeCloseTo(1 / (1 + Math.exp(-dot)), 10);
      expect(r['prediction']).toBe(dot >= 0 ? 1 : 0);
    }
    const svc = await env.sql("SELECT * FROM linear_svc_predict((SELECT * FROM linear_svc(bin, label := 'y')), bin, threshold := 1.5)").toArray();
    const sc = (await env.sql("SELECT * FROM linear_svc(bin, label := 'y')").toArray()).map((r) => r['coefficient'] as number);
    expect(svc).toHaveLength(8);
    for (const r of svc) {
      const dot = sc[0]! * (r['x0'] as number) + sc[1]! * (r['x1'] as number);
      expect(r['raw_prediction']).toBeCloseTo(dot, 10);
      expect(r['prediction']).toBe(dot >= 1.5 ? 1 : 0);
    }
  });
});
