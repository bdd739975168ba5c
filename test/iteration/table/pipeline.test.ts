/**
 * Fused body pipelines (src/iteration/table/pipeline*.ts, planned by
 * src/planner/lower-iterate-fuse.ts): each query runs at parallelism 1 with
 * the pipeline (EXPLAIN shows BodyPipeline) and with fusion off
 * (EDDY_BODY_FUSION=0), and both answers must equal DuckDB's. The graphs
 * carry NULL labels, NULL keys (one variant), sparse node numbers (the hash paths of
 * the static index, the groups and the keyed table's index) and negative
 * ones; the queries cover the pair loop (one static join + a keyed-table
 * lookup + comparisons + GROUP BY), two static joins, a two-key GROUP BY
 * (the tuple path), count / count(*) / max, and joined rows as the result.
 * Plus the int tables under them, against plain Maps and Sets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Int32, vectorFromArray } from 'apache-arrow';
import { TableEnvironment } from '../../../src/index.js';
import { IntTupleTable } from '../../../src/iteration/table/int-tuple-table.js';
import { IntIndex } from '../../../src/iteration/table/int-index.js';
import { SeenRows } from '../../../src/iteration/table/seen-set.js';
import { expectSameResult, fromArrow } from '../../helpers/compare.js';
import { loadRows, openDuck, type Duck } from '../../helpers/duckdb.js';
import { rng } from '../../helpers/rng.js';

type Edge = { src: number | null; dst: number | null };

function graph(n: number, m: number, seed: number, scale: number, nulls: boolean): Edge[] {
  const r = rng(seed);
  const out: Edge[] = [];
  for (let i = 0; i < m; i++) {
    const a = Math.floor(r() * n) * scale - 7;
    const b = Math.floor(r() * n) * scale - 7;
    out.push({ src: a, dst: b }, { src: b, dst: a });
  }
  // NULL ends join nothing (and send the pipeline to its tuple path: the pair loop wants NULL-free static columns).
  if (nulls) out.push({ src: null, dst: 0 * scale - 7 }, { src: 1 * scale - 7, dst: null }, { src: null, dst: null });
  return out;
}

const DENSE = graph(300, 600, 3, 1, false);
const SPARSE = graph(300, 600, 5, 100_003, false);
const NULLS = graph(300, 600, 3, 1, true);

function nodesOf(edges: Edge[], seed: number): { node: number; label: number | null }[] {
  const r = rng(seed);
  const ids = [...new Set(edges.map((e) => e.src).filter((x): x is number => x !== null))].sort((a, b) => a - b);
  return ids.map((node) => ({ node, label: r() < 0.05 ? null : node }));
}

let env: TableEnvironment;
let duck: Duck;

beforeAll(async () => {
  env = TableEnvironment.create({ parallelism: 1 });
  duck = await openDuck();
  for (const [name, edges] of Object.entries({ dense: DENSE, sparse: SPARSE, nulls: NULLS })) {
    env.registerTable(`${name}_e`, env.fromRecords(edges, { src: 'INTEGER', dst: 'INTEGER' }));
    await loadRows(duck, `${name}_e`, { src: 'INTEGER', dst: 'INTEGER' }, edges);
    const nodes = nodesOf(edges, 9);
    env.registerTable(`${name}_n`, env.fromRecords(nodes, { node: 'INTEGER', label: 'INTEGER' }));
    await loadRows(duck, `${name}_n`, { node: 'INTEGER', label: 'INTEGER' }, nodes);
  }
}, 60_000);

afterAll(() => duck.close());

/** The query fused and unfused, both against DuckDB; the fused plan must use `pipeline` (e.g. 'static → store → group'). */
async function same(sql: string, pipeline: string): Promise<void> {
  const expected = await duck.query(sql);
  const plan = await env.sql(sql).explain();
  expect(plan).toContain(`BodyPipeline(${pipeline})`);
  expectSameResult(fromArrow(await env.sql(sql).collect()), expected);
  process.env.EDDY_BODY_FUSION = '0';
  try {
    expect(await env.sql(sql).explain()).not.toContain('BodyPipeline');
    expectSameResult(fromArrow(await env.sql(sql).collect()), expected);
  } finally {
    delete process.env.EDDY_BODY_FUSION;
  }
}

const KINDS = ['dense', 'sparse', 'nulls'] as const;

describe('fused body pipelines against DuckDB (fused and unfused)', () => {
  for (const g of KINDS) {
    it(`${g}: components, UNION, with NULL labels (pair loop, group by a static column)`, () => same(`
      WITH RECURSIVE cc(node, label) AS (
        SELECT node, label FROM ${g}_n
        UNION
        SELECT e.dst, min(cc.label) FROM cc JOIN ${g}_e e ON cc.node = e.src GROUP BY e.dst
      )
      SELECT node, min(label) AS component, count(*) AS pairs FROM cc GROUP BY node`, 'static → group'), 30_000);

    it(`${g}: components, USING KEY (pair loop with the keyed-table lookup)`, () => same(`
      WITH RECURSIVE cc(node, label) USING KEY (node) AS (
        SELECT node, node FROM ${g}_n
        UNION
        SELECT e.dst, min(cc.label)
        FROM cc JOIN ${g}_e e ON cc.node = e.src JOIN recurring.cc r ON r.node = e.dst
        WHERE cc.label < r.label
        GROUP BY e.dst
      )
      SELECT node, label FROM cc`, 'static → store → group'), 30_000);

    // The keyed table read by key (NaN for a missing row or a NULL): rows missing from it, NULL labels in it.
    it(`${g}: USING KEY with keys missing from the keyed table and NULL labels in it`, () => same(`
      WITH RECURSIVE cc(node, label) USING KEY (node) AS (
        SELECT node, label FROM ${g}_n WHERE node % 4 <> 0
        UNION
        SELECT e.dst, min(cc.label)
        FROM cc JOIN ${g}_e e ON cc.node = e.src JOIN recurring.cc r ON r.node = e.dst
        WHERE cc.label < r.label
        GROUP BY e.dst
      )
      SELECT node, label FROM cc`, 'static → store → group'), 30_000);

    it(`${g}: count, count(*), max and a constant comparison on the keyed row`, () => same(`
      WITH RECURSIVE t(node, hi, n, c) USING KEY (node) AS (
        SELECT node, label, 0::BIGINT, 0::BIGINT FROM ${g}_n
        UNION
        SELECT e.dst, max(t.hi), count(t.hi), count(*)
        FROM t JOIN ${g}_e e ON t.node = e.src JOIN recurring.t r ON r.node = e.dst
        WHERE t.hi > r.hi AND r.hi > -5
        GROUP BY e.dst
      )
      SELECT node, hi, n > 0 AS counted, c >= n AS ok FROM t`, 'static → rows'), 30_000); // the optimizer joins edges with the filtered keyed table first

    it(`${g}: max, count, count(*) and min in the pair loop (depth-bounded)`, () => same(`
      WITH RECURSIVE t(node, hi, n, c, k) AS (
        SELECT node, label, 0::BIGINT, 0::BIGINT, 0 FROM ${g}_n
        UNION
        SELECT e.dst, max(t.hi), count(t.hi), count(*), min(t.k) + 1
        FROM t JOIN ${g}_e e ON t.node = e.src WHERE t.k < 3 GROUP BY e.dst
      )
      SELECT node, k, max(hi) AS hi, sum(n) AS n, sum(c) AS c, count(*) AS rows FROM t GROUP BY node, k`, 'static → group'), 30_000);

    it(`${g}: two static joins, joined rows as the result (depth-bounded reachability)`, () => same(`
      WITH RECURSIVE r(s, d, k) AS (
        SELECT src, dst, 0 FROM ${g}_e WHERE src < 40
        UNION
        SELECT r.s, e2.dst, r.k + 1 FROM r JOIN ${g}_e e ON r.d = e.src JOIN ${g}_e e2 ON e.dst = e2.src WHERE r.k < 2
      )
      SELECT s, d, min(k) AS k FROM r GROUP BY s, d`, 'static → static → rows'), 30_000);

    it(`${g}: a GROUP BY of two keys (the tuple path)`, () => same(`
      WITH RECURSIVE t(a, b) AS (
        SELECT src, dst FROM ${g}_e WHERE src < 20
        UNION
        SELECT e.dst, min(t.b) FROM t JOIN ${g}_e e ON t.a = e.src GROUP BY e.dst, e.src
      )
      SELECT a, min(b) AS b, count(*) AS n FROM t GROUP BY a`, 'static → group'), 30_000);
  }

  // The pair loop's min / max start at INTEGER's extremes: a group whose only value is the extreme still has it.
  it('min and max of the INTEGER extremes (the groups\' start values)', () => same(`
    WITH RECURSIVE t(node, lo, hi) AS (
      SELECT node, CASE WHEN node % 3 = 0 THEN 2147483647 ELSE node END, CASE WHEN node % 3 = 0 THEN -2147483648 ELSE node END
      FROM dense_n WHERE node < 60
      UNION
      SELECT e.dst, min(t.lo), max(t.hi) FROM t JOIN dense_e e ON t.node = e.src WHERE t.node < 60 GROUP BY e.dst
    )
    SELECT node, min(lo) AS lo, max(hi) AS hi, count(*) AS n FROM t GROUP BY node`, 'static → group'), 30_000);
});

describe('USING KEY rounds grouped by the key skip their dedup', () => {
  it('only when the next rows are a GROUP BY of exactly the key columns', async () => {
    const byKey = await env.sql(`
      WITH RECURSIVE cc(node, label) USING KEY (node) AS (
        SELECT node, node FROM dense_n
        UNION
        SELECT e.dst, min(cc.label) FROM cc JOIN dense_e e ON cc.node = e.src JOIN recurring.cc r ON r.node = e.dst
        WHERE cc.label < r.label GROUP BY e.dst
      ) SELECT * FROM cc`).explain();
    expect(byKey).toContain('KeyedRound(next rows, unique keys, keep min(label))'); // the keep-min shape (recursive-keymin.ts)
    // Grouped by (dst, src): a key (dst) can come twice in a round, so the round keeps its last row per key.
    const sql = `
      WITH RECURSIVE cc(node, label) USING KEY (node) AS (
        SELECT node, node FROM dense_n
        UNION
        SELECT e.dst, min(cc.label) FROM cc JOIN dense_e e ON cc.node = e.src JOIN recurring.cc r ON r.node = e.dst
        WHERE cc.label < r.label GROUP BY e.dst, e.src
      ) SELECT count(*) AS n FROM cc`;
    const other = await env.sql(sql).explain();
    expect(other).toContain('KeyedRound(next rows)');
    expectSameResult(fromArrow(await env.sql(sql).collect()), await duck.query(sql));
  }, 30_000);
});

describe('the int tables under the pipelines', () => {
  it('IntTupleTable gives first-seen dense ids for W = 1, 2, 3 across growth and clear', () => {
    const r = rng(1);
    for (const W of [1, 2, 3]) {
      const t = new IntTupleTable(W);
      for (let round = 0; round < 2; round++) {
        const ref = new Map<string, number>();
        const words = new Int32Array(W);
        const got: number[] = [];
        const want: number[] = [];
        for (let i = 0; i < 20_000; i++) {
          for (let w = 0; w < W; w++) words[w] = Math.floor(r() * 3000) - 1500 + (w === 0 ? 0 : 0x7fff0000 * (i & 1));
          const key = words.join(',');
          const expected = ref.get(key) ?? ref.size;
          if (!ref.has(key)) ref.set(key, expected);
          want.push(expected);
          got.push(W === 1 ? t.add1(words[0]!) : W === 2 ? t.add2(words[0]!, words[1]!) : t.add(words, 0));
          if (W === 1 && t.get1(words[0]!) !== expected) got.push(-99);
        }
        expect(got).toEqual(want);
        expect(t.size).toBe(ref.size);
        t.clear();
        expect(t.size).toBe(0);
        if (W === 1) expect(t.get1(0)).toBe(-1);
      }
    }
  });

  it('IntIndex finds small, large and negative keys', () => {
    const ix = new IntIndex();
    const keys = [0, 5, 1023, 1024, 70_000, 5_000_000, -1, -2_000_000_000, 2_000_000_000];
    keys.forEach((k, i) => ix.set(k, i));
    keys.forEach((k, i) => expect(ix.get(k)).toBe(i));
    for (const k of [1, 6, 69_999, -3, 1_999_999_999]) expect(ix.get(k)).toBe(-1);
  });

  it('SeenRows passes each distinct row once, NULLs equal to NULLs, across batches', () => {
    const r = rng(2);
    const seen = new SeenRows(['INTEGER', 'INTEGER']);
    const ref = new Set<string>();
    for (let b = 0; b < 5; b++) {
      const n = 3000;
      const a: (number | null)[] = [];
      const c: (number | null)[] = [];
      for (let i = 0; i < n; i++) {
        a.push(r() < 0.05 ? null : Math.floor(r() * 60));
        c.push(r() < 0.05 ? null : Math.floor(r() * 60));
      }
      const sel = new Int32Array(n);
      const cols = [vectorFromArray(a, new Int32()).data[0]!, vectorFromArray(c, new Int32()).data[0]!];
      const m = seen.addNew(cols, n, sel);
      const expected: number[] = [];
      for (let i = 0; i < n; i++) { const k = `${a[i]},${c[i]}`; if (!ref.has(k)) { ref.add(k); expected.push(i); } }
      expect(Array.from(sel.subarray(0, m))).toEqual(expected);
    }
    expect(seen.size).toBe(ref.size);
  });
});
