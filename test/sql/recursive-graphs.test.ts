/**
 * Graph algorithms written in SQL with WITH RECURSIVE, eddy against DuckDB
 * on the same generated graphs (10k edges, seeded PRNG): transitive closure
 * (reachability from a set of sources, and the full closure of a DAG),
 * shortest paths by hop count (bounded UNION, and USING KEY with
 * `recurring.<name>`), connected components by label propagation (UNION,
 * and USING KEY). Every query's answer is deterministic (minima per node),
 * so the whole result is compared, not a checksum.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { openDuck, type Duck } from '../helpers/duckdb.js';
import { rng } from '../helpers/rng.js';
import { clusteredGraph, registerEdges, undirected, type Edge } from '../helpers/graphs.js';


/** A random directed graph: `m` distinct edges over `n` nodes, no self loops. */
function randomGraph(n: number, m: number, seed: number): Edge[] {
  const r = rng(seed);
  const seen = new Set<number>();
  const out: Edge[] = [];
  while (out.length < m) {
    const src = Math.floor(r() * n);
    const dst = Math.floor(r() * n);
    if (src === dst || seen.has(src * n + dst)) continue;
    seen.add(src * n + dst);
    out.push({ src, dst });
  }
  return out;
}


/** A DAG with short edges (dst in src+1 .. src+span), so reachability stays local. */
function localDag(n: number, span: number, m: number, seed: number): Edge[] {
  const r = rng(seed);
  const seen = new Set<number>();
  const out: Edge[] = [];
  while (out.length < m) {
    const src = Math.floor(r() * (n - 1));
    const dst = Math.min(n - 1, src + 1 + Math.floor(r() * span));
    if (seen.has(src * n + dst)) continue;
    seen.add(src * n + dst);
    out.push({ src, dst });
  }
  return out;
}

const GRAPHS = {
  // 10k edges over 5k nodes: one giant component, diameter ~ 10.
  g: randomGraph(5_000, 10_000, 7),
  // 10k edges in clusters of 20 over 20k nodes: ~1000 components.
  c: clusteredGraph(20_000, 20, 10_000, 11),
  // 10k short edges over 20k nodes.
  d: localDag(20_000, 4, 10_000, 13),
};

let env: TableEnvironment;
let duck: Duck;

beforeAll(async () => {
  env = TableEnvironment.create();
  duck = await openDuck();
  for (const [name, edges] of Object.entries(GRAPHS)) {
    await registerEdges(`${name}_edges`, edges as Edge[], [env], duck);
    // Both directions, for the undirected algorithms (connected components).
    await registerEdges(`${name}_undirected`, undirected(edges as Edge[]), [env], duck);
  }
}, 60_000);

afterAll(() => duck.close());

async function same(sql: string): Promise<void> {
  const expected = await duck.query(sql);
  const actual = fromArrow(await env.sql(sql).collect());
  expectSameResult(actual, expected);
}

describe('transitive closure', () => {
  it('reachability from 10 sources of the random graph (UNION)', () => same(`
    WITH RECURSIVE reach(s, d) AS (
      SELECT src, dst FROM g_edges WHERE src < 10
      UNION
      SELECT r.s, e.dst FROM reach r JOIN g_edges e ON r.d = e.src
    )
    SELECT s, d FROM reach`), 30_000);

  it('the full closure of the local DAG', () => same(`
    WITH RECURSIVE tc(s, d) AS (
      SELECT src, dst FROM d_edges
      UNION
      SELECT tc.s, e.dst FROM tc JOIN d_edges e ON tc.d = e.src
    )
    SELECT s, d FROM tc`), 30_000);
});

describe('shortest paths by hop count', () => {
  it('from node 0, depth-bounded UNION, then the minimum per node', () => same(`
    WITH RECURSIVE p(node, hops) AS (
      SELECT 0, 0
      UNION
      SELECT e.dst, p.hops + 1 FROM p JOIN g_edges e ON p.node = e.src WHERE p.hops < 12
    )
    SELECT node, min(hops) AS hops FROM p GROUP BY node`), 30_000);

  it('from node 0 with USING KEY: a node is expanded only when first reached (recurring.p)', () => same(`
    WITH RECURSIVE p(node, hops) USING KEY (node) AS (
      SELECT 0, 0
      UNION
      SELECT e.dst, min(p.hops) + 1
      FROM p JOIN g_edges e ON p.node = e.src LEFT JOIN recurring.p r ON r.node = e.dst
      WHERE r.node IS NULL
      GROUP BY e.dst
    )
    SELECT node, hops FROM p`), 30_000);
});

describe('connected components by label propagation', () => {
  it('UNION: every (node, label) pair reached, then the least label per node', () => same(`
    WITH RECURSIVE cc(node, label) AS (
      SELECT src, src FROM c_undirected
      UNION
      SELECT e.dst, min(cc.label) FROM cc JOIN c_undirected e ON cc.node = e.src GROUP BY e.dst
    )
    SELECT node, min(label) AS component FROM cc GROUP BY node`), 30_000);

  it('USING KEY: a label replaces the node\'s label only when it is smaller (recurring.cc)', () => same(`
    WITH RECURSIVE cc(node, label) USING KEY (node) AS (
      SELECT DISTINCT src, src FROM g_undirected
      UNION
      SELECT e.dst, min(cc.label)
      FROM cc JOIN g_undirected e ON cc.node = e.src JOIN recurring.cc r ON r.node = e.dst
      WHERE cc.label < r.label
      GROUP BY e.dst
    )
    SELECT node, label AS component FROM cc`), 30_000);
});
