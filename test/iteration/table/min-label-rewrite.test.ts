/**
 * The min-label rewrite of WITH RECURSIVE (src/sql/binder/recursive-min.ts):
 * `SELECT k, min(label) FROM t GROUP BY k` over a UNION recursive CTE whose
 * term takes `min(t.label)` per key becomes a keyed iteration keeping each
 * key's least label (EXPLAIN: `keepMin`). Each query is compared with
 * DuckDB on generated graphs — where the rewrite fires (also with NULL
 * labels, keys the anchor lacks, repeated anchor keys, two key columns, a
 * filter that does not read the label, the generic lowering at p = 2) and
 * where it must not (another consumer, a recursion-limit clause, UNION ALL,
 * max, a LIMIT or a label filter in between, the label read in the term).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/index.js';
import { expectSameResult, fromArrow } from '../../helpers/compare.js';
import { openDuck, type Duck } from '../../helpers/duckdb.js';
import { clusteredGraph, registerEdges } from '../../helpers/graphs.js';



const directed = clusteredGraph(4_000, 40, 3_000, 5);
const undirected = directed.flatMap((e) => [e, { src: e.dst, dst: e.src }]);
const dag = directed.filter((e) => e.src < e.dst);

let env: TableEnvironment;
let env2: TableEnvironment;
let duck: Duck;

beforeAll(async () => {
  env = TableEnvironment.create();
  env2 = TableEnvironment.create({ parallelism: 2 });
  duck = await openDuck();
  for (const [name, edges] of [['u', undirected], ['d', directed], ['dag', dag]] as const) {
    await registerEdges(name, edges, [env, env2], duck);
  }
}, 60_000);

afterAll(async () => {
  duck.close();
  await env.close();
  await env2.close();
});

/** Checks the answer against DuckDB and whether the plan keeps minima (the rewrite fired). */
async function check(sql: string, fires: boolean, e: TableEnvironment = env): Promise<void> {
  const plan = await e.sql(sql).explain();
  expect(plan.includes('keepMin'), plan).toBe(fires);
  expectSameResult(fromArrow(await e.sql(sql).collect()), await duck.query(sql));
}

const cc = (anchor: string, edges = 'u', where = ''): string => `
  WITH RECURSIVE cc(node, label) AS (
    ${anchor}
    UNION
    SELECT e.dst, min(cc.label) FROM cc JOIN ${edges} e ON cc.node = e.src ${where} GROUP BY e.dst
  )`;

describe('the rewrite fires and keeps the answer', () => {
  it('connected components', () => check(`${cc('SELECT src, src FROM u')}
    SELECT node, min(label) AS component FROM cc GROUP BY node`, true), 30_000);

  it('at parallelism 2 (generic lowering)', () => check(`${cc('SELECT src, src FROM u')}
    SELECT node, min(label) AS component FROM cc GROUP BY node`, true, env2), 30_000);

  it('under another aggregate, and with HAVING', () => check(`${cc('SELECT src, src FROM u')}
    SELECT count(*) AS n, sum(c) AS s, count(DISTINCT c) AS k
    FROM (SELECT node, min(label) AS c FROM cc GROUP BY node HAVING min(label) < 3000) x`, true), 30_000);

  it('NULL labels: min skips them, a node reached only by NULLs keeps NULL', () => check(`
    ${cc('SELECT src, CASE WHEN src % 3 = 0 THEN NULL ELSE src END FROM u')}
    SELECT node, min(label) AS component FROM cc GROUP BY node`, true), 30_000);

  it('directed edges: keys the anchor does not have, repeated anchor keys with other labels', () => check(`
    ${cc('SELECT src, src FROM d WHERE src % 5 = 0 UNION ALL SELECT src, dst FROM d WHERE src % 5 = 0', 'd')}
    SELECT node, min(label) AS component FROM cc GROUP BY node`, true), 30_000);

  it('a filter of the term that does not read the label', () => check(`
    ${cc('SELECT src, src FROM u', 'u', 'WHERE e.dst % 7 <> 3 AND cc.node % 11 <> 2')}
    SELECT node, min(label) AS component FROM cc GROUP BY node`, true), 30_000);

  it('two key columns (the generic keyed store)', () => check(`
    WITH RECURSIVE cc(g, node, label) AS (
      SELECT src % 3, src, src FROM u
      UNION
      SELECT cc.g, e.dst, min(cc.label) FROM cc JOIN u e ON cc.node = e.src GROUP BY cc.g, e.dst
    )
    SELECT g, node, min(label) AS component FROM cc GROUP BY g, node`, true), 30_000);
});

describe('the rewrite does not fire', () => {
  it('another consumer of the CTE', () => check(`${cc('SELECT src, src FROM u')}
    SELECT x.node, x.c, y.n FROM (SELECT node, min(label) AS c FROM cc GROUP BY node) x,
      (SELECT count(*) AS n FROM cc) y`, false), 30_000);

  it('a recursion-limit clause', async () => {
    const sql = `WITH RECURSIVE (RETURN AT RECURSION LIMIT 2) cc(node, label) AS (
      SELECT src, src FROM u
      UNION
      SELECT e.dst, min(cc.label) FROM cc JOIN u e ON cc.node = e.src GROUP BY e.dst
    ) SELECT node, min(label) AS c FROM cc GROUP BY node`;
    expect(await env.sql(sql).explain()).not.toContain('keepMin');
    // Two rounds of the term: at most the labels two hops away.
    const rows = (await env.sql(`SELECT count(*) AS n FROM (${sql.replace('SELECT node, min(label) AS c FROM cc GROUP BY node', 'SELECT * FROM cc')}) t`).collect()).get(0)!.toArray();
    expect(Number(rows[0])).toBeGreaterThan(0);
  }, 30_000);

  it('UNION ALL', () => check(`
    WITH RECURSIVE cc(node, label) AS (
      SELECT src, src FROM dag
      UNION ALL
      SELECT e.dst, min(cc.label) FROM cc JOIN dag e ON cc.node = e.src GROUP BY e.dst
    )
    SELECT node, min(label) AS c, count(*) AS n FROM cc GROUP BY node`, false), 30_000);

  it('max instead of min, and min with count', async () => {
    await check(`${cc('SELECT src, src FROM u')} SELECT node, max(label) AS c FROM cc GROUP BY node`, false);
    await check(`${cc('SELECT src, src FROM u')} SELECT node, min(label) AS c, count(*) AS n FROM cc GROUP BY node`, false);
  }, 30_000);

  it('a LIMIT or a filter on the label between the CTE and the aggregate', async () => {
    await check(`${cc('SELECT src, src FROM u')} SELECT node, min(label) AS c FROM (SELECT * FROM cc LIMIT 100000000) t GROUP BY node`, false);
    await check(`${cc('SELECT src, src FROM u')} SELECT node, min(label) AS c FROM cc WHERE label % 2 = 1 GROUP BY node`, false);
  }, 30_000);

  it('the term reads the label other than in min', async () => {
    await check(`${cc('SELECT src, src FROM u', 'u', 'WHERE cc.label % 2 = 0')} SELECT node, min(label) AS c FROM cc GROUP BY node`, false);
    await check(`
      WITH RECURSIVE cc(node, label) AS (
        SELECT src, src FROM u
        UNION
        SELECT e.dst, min(cc.label) FROM cc JOIN u e ON cc.node = e.src AND cc.label <= e.dst GROUP BY e.dst
      ) SELECT node, min(label) AS c FROM cc GROUP BY node`, false);
  }, 30_000);
});
