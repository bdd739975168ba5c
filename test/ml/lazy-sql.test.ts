/**
 * Table functions that open no file bind in the lazy env.sql(): the ML
 * functions and range / generate_series / eddy_functions (before, env.sql
 * rejected every table function "as if it read a file"); file readers still
 * point to executeSql.
 */
import { afterEach, expect, it } from 'vitest';
import type { TableEnvironment } from '../../src/api/environment.js';
import { mlEnv } from './helpers.js';

let env: TableEnvironment | undefined;
afterEach(async () => { await env?.close(); env = undefined; });

it('range, generate_series and eddy_functions work in env.sql', async () => {
  env = mlEnv(1);
  expect((await env.sql('SELECT * FROM range(3)').toArray()).map((r) => Number(r['range']))).toEqual([0, 1, 2]);
  expect(await env.sql('SELECT count(*) AS n FROM generate_series(1, 10)').toArray()).toEqual([{ n: 10n }]);
  expect((await env.sql("SELECT * FROM eddy_functions() WHERE name = 'abs'").toArray()).length).toBeGreaterThan(0);
});

it('ML functions compose with Table methods in env.sql, and with a CTE as the table argument', async () => {
  env = mlEnv(1);
  const t = env.sql('WITH p AS (SELECT x, y FROM points) SELECT * FROM kmeans(p, k := 2, max_iter := 2)');
  const rows = await t.filter('x > 5').select('cluster', 'weight').toArray();
  expect(rows).toHaveLength(1);
  expect(rows[0]!['weight']).toBe(3);
});

it('file readers in env.sql still say to use executeSql', () => {
  env = mlEnv(1);
  expect(() => env!.sql("SELECT * FROM read_csv('x.csv')")).toThrow(/reads a file asynchronously: run this query with env.executeSql/);
});
