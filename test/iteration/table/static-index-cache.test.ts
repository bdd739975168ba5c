/**
 * Reuse of a fused body pipeline's static index across queries
 * (src/iteration/table/static-index-cache.ts): a query run again over the
 * same table reuses the index built the first time; a table with other data
 * (same shape, same name re-registered; the same buffer viewed at another
 * range) never does, and every answer equals DuckDB's.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tableFromArrays } from 'apache-arrow';
import { TableEnvironment } from '../../../src/index.js';
import { staticIndexCache } from '../../../src/iteration/table/static-index-cache.js';
import { expectSameResult, fromArrow } from '../../helpers/compare.js';
import { loadRows, openDuck, type Duck } from '../../helpers/duckdb.js';
import { rng } from '../../helpers/rng.js';

const N = 400;

function edges(seed: number): { src: Int32Array; dst: Int32Array } {
  const r = rng(seed);
  const src = new Int32Array(2 * N);
  const dst = new Int32Array(2 * N);
  for (let i = 0; i < N; i++) {
    const a = Math.floor(r() * 150);
    const b = Math.floor(r() * 150);
    src[2 * i] = a; dst[2 * i] = b; src[2 * i + 1] = b; dst[2 * i + 1] = a;
  }
  return { src, dst };
}

const CC = (e: string): string => `
  WITH RECURSIVE cc(node, label) USING KEY (node) AS (
    SELECT DISTINCT src, src FROM ${e}
    UNION
    SELECT e.dst, min(cc.label) FROM cc JOIN ${e} e ON cc.node = e.src JOIN recurring.cc r ON r.node = e.dst
    WHERE cc.label < r.label GROUP BY e.dst
  )
  SELECT node, label FROM cc ORDER BY node`;

let env: TableEnvironment;
let duck: Duck;
const A = edges(1);
const B = edges(2);
// One buffer, two tables viewing different halves of it.
const whole = edges(3);

const rows = (g: { src: Int32Array; dst: Int32Array }): { src: number; dst: number }[] =>
  Array.from(g.src, (s, i) => ({ src: s, dst: g.dst[i]! }));

beforeAll(async () => {
  env = TableEnvironment.create({ parallelism: 1 });
  duck = await openDuck();
  await loadRows(duck, 'ea', { src: 'INTEGER', dst: 'INTEGER' }, rows(A));
  await loadRows(duck, 'eb', { src: 'INTEGER', dst: 'INTEGER' }, rows(B));
  const half = (k: number) => ({ src: whole.src.subarray(k * N, (k + 1) * N), dst: whole.dst.subarray(k * N, (k + 1) * N) });
  await loadRows(duck, 'h0', { src: 'INTEGER', dst: 'INTEGER' }, rows(half(0)));
  await loadRows(duck, 'h1', { src: 'INTEGER', dst: 'INTEGER' }, rows(half(1)));
  env.registerTable('h0', env.fromArrow(tableFromArrays(half(0)), 'h0'));
  env.registerTable('h1', env.fromArrow(tableFromArrays(half(1)), 'h1'));
});

afterAll(async () => {
  await env.close();
  duck.close();
});

beforeEach(() => staticIndexCache.clear());

async function check(eddyTable: string, duckTable: string): Promise<void> {
  const got = await env.sql(CC(eddyTable)).collect();
  const want = await duck.query(CC(duckTable));
  expectSameResult(fromArrow(got), want, { ordered: true });
}

describe('static index reuse across queries', () => {
  it('reuses the index of the same table and answers as DuckDB', async () => {
    env.registerTable('e', env.fromArrow(tableFromArrays(A), 'e'));
    await check('e', 'ea');
    expect(staticIndexCache.misses).toBe(1);
    await check('e', 'ea');
    await check('e', 'ea');
    expect(staticIndexCache.hits).toBe(2);
    expect(staticIndexCache.misses).toBe(1);
  });

  it('never reuses the index of other data under the same name', async () => {
    env.registerTable('e', env.fromArrow(tableFromArrays(A), 'e'));
    await check('e', 'ea');
    env.registerTable('e', env.fromArrow(tableFromArrays(B), 'e'));
    await check('e', 'eb');
    expect(staticIndexCache.hits).toBe(0);
    expect(staticIndexCache.misses).toBe(2);
  });

  it('tells apart two views of one buffer', async () => {
    await check('h0', 'h0');
    await check('h1', 'h1');
    await check('h0', 'h0');
    expect(staticIndexCache.misses).toBe(2);
    expect(staticIndexCache.hits).toBe(1);
  });
});
