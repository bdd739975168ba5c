/**
 * env.iterate in accumulate mode (semi-naive, the WITH RECURSIVE model)
 * against DuckDB's WITH RECURSIVE on the same data: UNION (distinct) and
 * UNION ALL, several references to the variable in one round, USING KEY with
 * the recurring table — at parallelism 1 and 4, and with every subtree cached.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/environment.js';
import { col } from '../../../src/api/expr.js';
import type { Table } from '../../../src/api/table.js';
import { loadRows, openDuck, type Duck } from '../../helpers/duckdb.js';
import { expectSameResult, fromArrow } from '../../helpers/compare.js';
import { rng } from '../../helpers/rng.js';

let duck: Duck;
const random = rng(9);
/** A random directed graph with cycles: 60 nodes, 150 edges. */
const EDGES = Array.from({ length: 150 }, () => ({ src: Math.floor(random() * 60), dst: Math.floor(random() * 60) }));
/** A DAG (src < dst) for UNION ALL path counting: 25 nodes, 45 edges. */
const DAG = Array.from({ length: 45 }, () => { const a = Math.floor(random() * 25); const b = Math.floor(random() * 25); return { src: Math.min(a, b), dst: Math.max(a, b) + (a === b ? 1 : 0) }; });
const NODES = Array.from({ length: 60 }, (_, i) => ({ node: i }));

beforeAll(async () => {
  duck = await openDuck();
  await loadRows(duck, 'edges', { src: 'INTEGER', dst: 'INTEGER' }, EDGES);
  await loadRows(duck, 'dag', { src: 'INTEGER', dst: 'INTEGER' }, DAG);
  await loadRows(duck, 'nodes', { node: 'INTEGER' }, NODES);
});
afterAll(() => duck.close());

const envs: TableEnvironment[] = [];
afterEach(async () => { await Promise.all(envs.splice(0).map((e) => e.close())); });

async function same(t: Table, sql: string): Promise<void> {
  expectSameResult(fromArrow(await t.collect()), await duck.query(sql), { names: false });
}

// The last configuration caches every subtree (the differential suites' switch): answers must not change.
describe.each([[1, false], [4, false], [4, true]])('env.iterate, accumulate mode (p=%i, every subtree cached: %s)', (p, cacheAllSubtrees) => {
  const setup = (): { env: TableEnvironment; edges: Table; dag: Table; nodes: Table } => {
    const env = TableEnvironment.create({ parallelism: p, cache: { cacheAllSubtrees } });
    envs.push(env);
    return { env, edges: env.fromRecords(EDGES), dag: env.fromRecords(DAG), nodes: env.fromRecords(NODES) };
  };

  it('transitive closure (UNION) matches WITH RECURSIVE', async () => {
    const { env, edges } = setup();
    const { reach } = env.iterate({
      variables: { reach: edges.select('src', 'dst') },
      data: { edges },
      mode: 'accumulate',
      body: (v, d) => ({ next: { reach: v.reach.join(d.edges.renameColumns({ src: 's2', dst: 'd2' }), col('dst').eq(col('s2'))).select('src', 'd2 AS dst') } }),
    });
    await same(reach, 'WITH RECURSIVE r(src, dst) AS (SELECT src, dst FROM edges UNION SELECT r.src, e.dst FROM r JOIN edges e ON r.dst = e.src) SELECT * FROM r');
    // The closure body closes over `edges` without passing it as data: lifted into a data input.
    const { r2 } = env.iterate({
      variables: { r2: edges.select('src', 'dst') },
      mode: 'accumulate',
      body: (v) => ({ next: { r2: v.r2.join(edges.renameColumns({ src: 's2', dst: 'd2' }), col('dst').eq(col('s2'))).select('src', 'd2 AS dst') } }),
    });
    await same(r2.select('count(*) AS c'), 'WITH RECURSIVE r(src, dst) AS (SELECT src, dst FROM edges UNION SELECT r.src, e.dst FROM r JOIN edges e ON r.dst = e.src) SELECT count(*) FROM r');
  });

  it('UNION ALL keeps every path (a DAG), including duplicate initial rows', async () => {
    const { env, dag } = setup();
    const { paths } = env.iterate({
      variables: { paths: dag.select('src', 'dst', '1 AS len') },
      data: { dag },
      mode: 'accumulate',
      distinct: false,
      body: (v, d) => ({ next: { paths: v.paths.join(d.dag.renameColumns({ src: 's2', dst: 'd2' }), col('dst').eq(col('s2'))).select('src', 'd2 AS dst', 'len + 1 AS len') } }),
    });
    await same(paths, 'WITH RECURSIVE p(src, dst, len) AS (SELECT src, dst, 1 FROM dag UNION ALL SELECT p.src, e.dst, p.len + 1 FROM p JOIN dag e ON p.dst = e.src) SELECT * FROM p');
  });

  it('counting with a filter in the recursive term, UNION ALL and UNION', async () => {
    const { env } = setup();
    const seed = env.fromRecords([{ n: 1 }, { n: 1 }]);
    for (const distinct of [false, true]) {
      const { t } = env.iterate({ variables: { t: seed }, mode: 'accumulate', distinct, body: (v) => ({ next: { t: v.t.filter('n < 30').select('n + 1 AS n') } }) });
      await same(t, `WITH RECURSIVE t(n) AS (SELECT * FROM (VALUES (1), (1)) v(n) UNION${distinct ? '' : ' ALL'} SELECT n + 1 FROM t WHERE n < 30) SELECT * FROM t`);
    }
  });

  it('several references to the variable read the same (previous round\'s new) rows', async () => {
    const { env, edges } = setup();
    const { r } = env.iterate({
      variables: { r: edges.select('src', 'dst') },
      mode: 'accumulate',
      body: (v) => ({ next: { r: v.r.join(v.r.renameColumns({ src: 's2', dst: 'd2' }), col('dst').eq(col('s2'))).select('src', 'd2 AS dst') } }),
    });
    await same(r, 'WITH RECURSIVE r(src, dst) AS (SELECT src, dst FROM edges UNION SELECT a.src, b.dst FROM r a JOIN r b ON a.dst = b.src) SELECT * FROM r');
  });

  it('USING KEY: connected components by label propagation read recurring', async () => {
    const { env, edges, nodes } = setup();
    const both = edges.select('src', 'dst').unionAll(edges.select('dst AS src', 'src AS dst'));
    const { cc } = env.iterate({
      variables: { cc: nodes.select('node', 'node AS comp') },
      data: { both },
      mode: 'accumulate',
      keys: { cc: ['node'] },
      body: (v, d, rec) => {
        const known = rec.cc!.renameColumns({ node: 'rnode', comp: 'rcomp' });
        const better = v.cc.join(d.both, col('node').eq(col('src'))).join(known, col('dst').eq(col('rnode')))
          .groupBy('dst', 'rcomp').select('dst AS node', 'min(comp) AS comp', 'rcomp').filter('comp < rcomp').select('node', 'comp');
        return { next: { cc: better } };
      },
    });
    await same(cc, `WITH RECURSIVE cc(node, comp) USING KEY (node) AS (
      SELECT node, node FROM nodes
      UNION
      SELECT e.dst, min(c.comp) FROM cc c JOIN (SELECT src, dst FROM edges UNION ALL SELECT dst, src FROM edges) e ON c.node = e.src
        JOIN recurring.cc r ON r.node = e.dst GROUP BY e.dst, r.comp HAVING min(c.comp) < r.comp)
      SELECT * FROM cc`);
  });
});

describe('env.iterate, batches going round the loop', () => {
  it('stay about batch-sized at p=4 (hash exchanges in the body would split them 4 ways per round)', async () => {
    const env = TableEnvironment.create({ parallelism: 4, parallelGraph: true }); // the p=4 graph (else the calling thread runs p=1)
    envs.push(env);
    const r = rng(5);
    const edges = env.fromRecords(Array.from({ length: 6000 }, () => ({ src: Math.floor(r() * 2000), dst: Math.floor(r() * 2000) })));
    const { reach } = env.iterate({
      variables: { reach: edges.filter('src < 2').select('src', 'dst') },
      data: { edges },
      mode: 'accumulate',
      body: (v, d) => ({ next: { reach: v.reach.join(d.edges.renameColumns({ src: 's2', dst: 'd2' }), col('dst').eq(col('s2'))).select('src', 'd2 AS dst') } }),
    });
    const text = await reach.explain({ analyze: true });
    const m = /IterateExit\(stream\) \[p=4\]\s+rows=(\d+) batches=(\d+) .*rounds=(\d+)/.exec(text)!;
    const [rows, batches, rounds] = [Number(m[1]), Number(m[2]), Number(m[3])];
    expect(rows).toBeGreaterThan(1000);
    expect(batches).toBeLessThanOrEqual(4 * (rounds + 1) * 2);
  });
});
