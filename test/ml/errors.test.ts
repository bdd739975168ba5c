/** Bad ML parameters fail with clear errors before training (bind time), or when the data is cached (labels, NULLs). */
import { afterEach, describe, expect, it } from 'vitest';
import type { TableEnvironment } from '../../src/api/environment.js';
import { trainingsStarted } from '../../src/ml/index.js';
import { mlEnv } from './helpers.js';

let env: TableEnvironment | undefined;
afterEach(async () => { await env?.close(); env = undefined; });

describe('ML parameter errors', () => {
  it.each([
    ['SELECT * FROM kmeans(points, k := 0)', /kmeans: parameter k must be ≥ 1, got 0/],
    ['SELECT * FROM kmeans(points, k := 1.5)', /parameter k must be a whole number/],
    ['SELECT * FROM kmeans(points, kk := 2)', /unknown parameter "kk"; known: k, max_iter, seed, features/],
    ["SELECT * FROM kmeans(points, k := 'two')", /parameter k must be a number/],
    ['SELECT * FROM kmeans(points, 2)', /parameters are named/],
    ['SELECT * FROM kmeans(nope)', /table "nope" not found/],
    ['SELECT * FROM kmeans(points, points)', /kmeans takes one table/],
    ['SELECT * FROM linear_regression(data)', /parameter label is required/],
    ["SELECT * FROM linear_regression(data, label := 'z')", /the label column "z" is not a column of the input \(columns: x0, x1, y, w\)/],
    ["SELECT * FROM linear_regression(data, label := 'y', learning_rate := 0)", /learning_rate must be > 0/],
    ["SELECT * FROM linear_regression(data, label := 'y', elastic_net := 2)", /elastic_net must be ≤ 1/],
    ["SELECT * FROM linear_regression((SELECT 'a' AS s, y FROM data), label := 'y')", /the feature column "s" is VARCHAR, not numeric/],
    ["SELECT * FROM linear_svc(data, label := 'y', features := 'x0,y')", /"y" cannot be both a feature and the label/],
    ['SELECT * FROM kmeans_predict(points)', /kmeans_predict takes two tables, the model and then the data/],
    ['SELECT * FROM kmeans_predict(points, points)', /the model must be a kmeans\(\.\.\.\) result/],
  ])('%s', (q, msg) => {
    env = mlEnv(1);
    const before = trainingsStarted();
    expect(() => env!.sql(q)).toThrow(msg);
    expect(trainingsStarted()).toBe(before);
  });

  it('the Table API checks options by their camelCase names', () => {
    env = mlEnv(1);
    expect(() => env!.ml.kmeans(env!.from('points'), { k: 0 })).toThrow(/parameter k must be ≥ 1/);
    expect(() => env!.ml.kmeans(env!.from('points'), { max_iter: 3 } as never)).toThrow(/unknown option "max_iter"; known: k, maxIter, seed, features/);
    expect(() => env!.ml.linearRegression(env!.from('data'), {} as never)).toThrow(/parameter label is required/);
    expect(() => env!.ml.kmeans(42 as never)).toThrow(/must be a Table/);
  });

  it('labels outside {0, 1} fail before the first update', async () => {
    env = mlEnv(2);
    await expect(env.sql("SELECT * FROM logistic_regression(data, label := 'y')").toArray()).rejects.toThrow(/the label column "y" has the value \d+; labels must be 0 or 1/);
  });

  it('a NULL feature fails with advice', async () => {
    env = mlEnv(1);
    await expect(env.sql('SELECT * FROM kmeans((SELECT x, CASE WHEN x > 1 THEN NULL ELSE y END AS y FROM points))').toArray()).rejects.toThrow(/column "y" has NULL values; filter them out/);
  });

  it('a model feature missing from the scored data fails', async () => {
    env = mlEnv(1);
    await expect(env.sql("SELECT * FROM linear_regression_predict((SELECT * FROM linear_regression(data, label := 'y')), (SELECT x0 FROM data))").toArray())
      .rejects.toThrow(/the model's feature "x1" is not a numeric column of the data \(numeric columns: x0\)/);
  });
});
