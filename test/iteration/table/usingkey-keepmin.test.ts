/**
 * The keep-min shape of USING KEY (src/sql/binder/recursive-keymin.ts): a
 * term `SELECT key, min(t.label) ... JOIN recurring.t r ON r.key = key
 * WHERE t.label < r.label GROUP BY key` runs as a keep-min keyed iteration
 * (EXPLAIN: `keepMin`) with in-place label updates in the fused pair loop
 * (pipeline-fused.ts `currentLabel`). Answers are compared with DuckDB on
 * several graph shapes (chains in and against row order, a star, clusters,
 * random graphs with self loops and duplicate edges, directed edges whose
 * targets the anchor lacks), with scrambled and NULL labels, the guard
 * written either way round or in the ON clause, a filter on the node, and
 * the generic lowering at p = 2; and where the rewrite must not fire (the
 * label read by another filter, a shifted guard, a guard against another
 * row, max, a recursion-limit clause, a LEFT JOIN without the guard).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/index.js';
import { expectSameResult, fromArrow } from '../../helpers/compare.js';
import { openDuck, type Duck } from '../../helpers/duckdb.js';
import { chainGraph, clusteredGraph, randomEdges, registerEdges, undirected, type Edge } from '../../helpers/graphs.js';

const chain = chainGraph;
const random = randomEdges; // self loops, duplicates

const GRAPHS: Record<string, Edge[]> = {
  chain: chain(300),
  reversed: chain(300).reverse(),
  star: undirected(Array.from({ length: 300 }, (_, i) => ({ src: 500, dst: i }))),
  clustered: undirected(clusteredGraph(3_000, 30, 2_500, 7)),
  random: undirected(random(2_000, 1_500, 11)),
  directed: random(1_500, 3_000, 13),
};

let env: TableEnvironment;
let env2: TableEnvironment;
let duck: Duck;

beforeAll(async () => {
  env = TableEnvironment.create({ parallelism: 1 }); // rounds counted as one subtask updates in place
  env2 = TableEnvironment.create({ parallelism: 2 });
  duck = await openDuck();
  for (const [name, edges] of Object.entries(GRAPHS)) await registerEdges(name, edges, [env, env2], duck);
}, 60_000);

afterAll(async () => {
  duck.close();
  await env.close();
  await env2.close();
});

/** The components query; `label` is the anchor's label of `src`, `guard` the WHERE clause. */
const cc = (g: string, o: { label?: string; guard?: string; join?: string; agg?: string; limit?: string; anchorWhere?: string } = {}): string => `
  WITH RECURSIVE ${o.limit ?? ''} cc(node, label) USING KEY (node) AS (
    SELECT src, ${o.label ?? 'src'} FROM (SELECT DISTINCT src FROM ${g} ${o.anchorWhere ?? ''}) a
    UNION
    SELECT e.dst, ${o.agg ?? 'min'}(cc.label)
    FROM cc JOIN ${g} e ON cc.node = e.src JOIN recurring.cc r ON ${o.join ?? 'r.node = e.dst'}
    ${o.guard ?? 'WHERE cc.label < r.label'}
    GROUP BY e.dst
  )
  SELECT node, label FROM cc`;

/** Checks the answer against DuckDB and whether the plan keeps minima; returns EXPLAIN ANALYZE. */
async function check(sql: string, fires: boolean, e: TableEnvironment = env): Promise<string> {
  const plan = await e.sql(sql).explain();
  expect(plan.includes('keepMin'), plan).toBe(fires);
  expectSameResult(fromArrow(await e.sql(sql).collect()), await duck.query(sql));
  return e.sql(sql).explain({ analyze: true });
}

const rounds = (analyzed: string): number => Number(/rounds=(\d+)/.exec(analyzed)![1]);
const SCRAMBLED = 'CASE WHEN src % 7 = 3 THEN NULL ELSE (src * 7919) % 1009 END';

describe('the keep-min shape runs with in-place updates and keeps DuckDB\'s answer', () => {
  for (const g of Object.keys(GRAPHS)) {
    it(`${g}: node labels`, () => check(cc(g), true), 30_000);
    it(`${g}: scrambled and NULL labels`, () => check(cc(g, { label: SCRAMBLED }), true), 30_000);
  }

  it('the guard written the other way round, or in the ON clause', async () => {
    await check(cc('clustered', { guard: 'WHERE r.label > cc.label' }), true);
    await check(cc('random', { join: 'e.dst = r.node AND cc.label < r.label', guard: '' }), true);
  }, 30_000);

  it('a filter on the node, and an anchor of a few keys (targets the store lacks join nothing)', async () => {
    await check(cc('directed', { guard: 'WHERE cc.label < r.label AND e.dst % 5 <> 1 AND cc.node % 3 <> 2' }), true);
    await check(cc('directed', { anchorWhere: 'WHERE src % 4 = 0', label: SCRAMBLED }), true);
  }, 30_000);

  it('the generic lowering (p = 2) keeps the answer too', async () => {
    await check(cc('clustered'), true, env2);
    await check(cc('random', { label: SCRAMBLED }), true, env2);
  }, 30_000);

  it('a chain converges in a few rounds (one hop a round as written), also against row order', async () => {
    expect(rounds(await check(cc('chain'), true))).toBeLessThan(10);
    // The anchor's rows go smallest label first (keyed-operators.ts), so row order does not matter here.
    expect(rounds(await check(cc('reversed'), true))).toBeLessThan(10);
  }, 30_000);
});

describe('other shapes run as written', () => {
  it('the label read by another filter', () => check(cc('random', { guard: 'WHERE cc.label < r.label AND cc.label % 3 <> 1' }), false), 30_000);

  it('a shifted guard', () => check(cc('clustered', { guard: 'WHERE cc.label < r.label - 1' }), false), 30_000);

  it('a guard against the source\'s own row', () => check(cc('random', { join: 'r.node = e.src' }), false), 30_000);

  it('max with the guard turned round', () => check(cc('clustered', { agg: 'max', guard: 'WHERE cc.label > r.label' }), false), 30_000);

  it('shortest paths: LEFT JOIN recurring without a guard', () => check(`
    WITH RECURSIVE p(node, hops) USING KEY (node) AS (
      SELECT 0, 0
      UNION
      SELECT e.dst, min(p.hops) + 1
      FROM p JOIN random e ON p.node = e.src LEFT JOIN recurring.p r ON r.node = e.dst
      WHERE r.node IS NULL
      GROUP BY e.dst
    )
    SELECT node, hops FROM p`, false), 30_000);

  it('a recursion-limit clause keeps its rounds', async () => {
    const sql = cc('chain', { limit: '(RETURN AT RECURSION LIMIT 3)' });
    expect(await env.sql(sql).explain()).not.toContain('keepMin');
    const rows = (await env.sql(sql.replace('SELECT node, label FROM cc', 'SELECT count(*) AS n FROM cc WHERE label = 0')).collect()).get(0)!.toArray();
    expect(Number(rows[0])).toBe(4); // node 0 and three hops: one hop a round
  }, 30_000);
});
