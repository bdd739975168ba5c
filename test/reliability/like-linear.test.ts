/**
 * Repros of issue 11 "LIKE is exponential": patterns mixing `%` and `_` once
 * compiled to a backtracking RegExp (`%e%e%e%e%_#` over 8,000 TPC-H partsupp
 * comments took 10.8 s, one 200-character string over a minute). The bounds
 * are generous (CI noise) yet far below what the old code took.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';

let env: TableEnvironment;
beforeAll(async () => {
  env = TableEnvironment.create();
  env.registerTpch(0.01);
  await env.sql('SELECT count(*) FROM partsupp').toArray(); // generates the data outside the timed part
});
afterAll(async () => { await env.close(); });

async function timed<T>(f: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await f();
  return { value, ms: performance.now() - t0 };
}

describe('LIKE runs in linear time', () => {
  it("ps_comment LIKE '%e%e%e%e%_#' over 8,000 partsupp rows", async () => {
    const { value, ms } = await timed(() => env.sql(`SELECT count(*) AS n, sum(CASE WHEN ps_comment LIKE '%e%e%e%e%_#' THEN 1 ELSE 0 END) AS m
      FROM partsupp WHERE ps_comment NOT LIKE '%e%e%e%e%_#'`).toArray());
    expect(value).toHaveLength(1);
    expect(value.map((r) => Object.values(r as object).map(Number))).toEqual([[8000, 0]]);
    expect(ms).toBeLessThan(2000);
  });

  it('a 200-character string against %e%e%e%e%_#, LIKE and ILIKE, constant and per-row pattern', async () => {
    const s = 'e'.repeat(200);
    const { value, ms } = await timed(() => env.sql(`SELECT '${s}' LIKE '%e%e%e%e%_#' AS a, '${s}#' LIKE '%e%e%e%e%_#' AS b,
      '${s.toUpperCase()}' ILIKE '%e%e%e%e%_#' AS c, '${s}' LIKE '%e%e%e%e%e%e%e%e%e%e%_#' || x AS d
      FROM (VALUES ('')) v(x)`).toArray());
    expect(value).toEqual([{ a: false, b: true, c: false, d: false }]);
    expect(ms).toBeLessThan(2000);
  });
});
