/**
 * IN / NOT IN (subquery) used as a value — in the select list, under OR, in CASE — and correlated
 * (planner/rules/decorrelate-mark-existence.ts: semi joins over the distinct outer values; the "may
 * equal" one runs as the NULL-aware join's semi form, exec/operators/null-aware-anti-join.ts).
 * Random queries over small tables with many NULLs, 1 to 4 items, at parallelism 1 and 2 (worker
 * stages), against DuckDB running the standard's definition as scalar SQL:
 *   CASE WHEN EXISTS (exact) THEN TRUE WHEN EXISTS (may equal) THEN NULL ELSE FALSE END
 * (DuckDB's own row IN compares STRUCTs with NULL as a value, docs/sql-row-values.md). And the plans:
 * no nested-loop join left for these shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import type { ColumnType, Duck } from '../helpers/duckdb.js';
import { closeOracleP1P2, openOracleP1P2 } from '../helpers/oracle-table.js';
import { rng } from '../helpers/rng.js';

const r = rng(1208);
const maybe = <T,>(rate: number, v: T): T | null => (r() < rate ? null : v);
const int = (n: number): number => Math.floor(r() * n);
const T_ROWS = Array.from({ length: 300 }, (_, id) => ({
  id, g: maybe(0.05, id % 4), a: maybe(0.15, int(6)), b: maybe(0.2, int(4)), c: maybe(0.1, ['p', 'q', 'r'][int(3)]!), d: maybe(0.1, int(3) / 2),
}));
const T_TYPES: Record<string, ColumnType> = { id: 'INTEGER', g: 'INTEGER', a: 'INTEGER', b: 'INTEGER', c: 'VARCHAR', d: 'DOUBLE' };
const U_ROWS = Array.from({ length: 40 }, (_, k) => ({
  k, g: maybe(0.05, k % 4), x: maybe(0.1, int(6)), y: maybe(0.15, int(4)), z: maybe(0.1, ['p', 'q', 'r'][int(3)]!), w: maybe(0.05, int(3)),
}));
const U_TYPES: Record<string, ColumnType> = { k: 'INTEGER', g: 'INTEGER', x: 'INTEGER', y: 'INTEGER', z: 'VARCHAR', w: 'INTEGER' };

let duck: Duck;
let p1: TableEnvironment;
let p2: TableEnvironment;

beforeAll(async () => {
  ({ duck, p1, p2 } = await openOracleP1P2([{ name: 't', types: T_TYPES, rows: T_ROWS }, { name: 'u', types: U_TYPES, rows: U_ROWS }], { p1Batch: 64 }));
}, 120_000);
afterAll(async () => {
  await closeOracleP1P2({ duck, p1, p2 });
});

/** Item pairs (t side, u side) whose types compare. */
const PAIRS: readonly (readonly [string, string])[] = [['a', 'x'], ['b', 'y'], ['c', 'z'], ['d', 'w'], ['b', 'x'], ['a + 1', 'y'], ['g', 'w']];
/** The subquery's own WHERE: none, correlated, filtered, empty, all-NULL rows. */
const EXTRAS: readonly string[] = ['true', 'true', 'u.g = t.g', 'u.g = t.g AND u.w <> 1', 'u.x IS NOT NULL', 'u.k < 0', 'u.x IS NULL'];

interface Case { readonly sql: string; readonly oracle: string; readonly row: boolean }

/** The standard's `(l) [NOT] IN (SELECT r FROM u WHERE extra)` as scalar SQL over t and u. */
function standardIn(l: readonly string[], rs: readonly string[], extra: string, negated: boolean): string {
  const tl = l.map((x) => x.replace(/\b([abcdg])\b/g, 't.$1'));
  const exact = l.map((_, i) => `${tl[i]} = u.${rs[i]}`).join(' AND ');
  const may = l.map((_, i) => `(${tl[i]} = u.${rs[i]} OR ${tl[i]} IS NULL OR u.${rs[i]} IS NULL)`).join(' AND ');
  const v = `(CASE WHEN EXISTS (SELECT 1 FROM u WHERE (${extra}) AND ${exact}) THEN TRUE WHEN EXISTS (SELECT 1 FROM u WHERE (${extra}) AND ${may}) THEN NULL ELSE FALSE END)`;
  return negated ? `(NOT ${v})` : v;
}

/** A random query: 1 to 4 items (1: `a IN (...)` or `ROW(a) IN (...)`), IN or NOT IN, one of four shapes. */
function randomCase(): Case {
  const k = 1 + int(4);
  const items = Array.from({ length: k }, () => PAIRS[int(PAIRS.length)]!);
  const l = items.map(([x]) => x);
  const rs = items.map(([, y]) => y);
  const negated = r() < 0.6;
  const extra = EXTRAS[int(EXTRAS.length)]!;
  const row = k > 1 || r() < 0.5;
  const lhs = k === 1 ? (row ? `ROW(${l[0]})` : l[0]!) : `(${l.join(', ')})`;
  const e = `${lhs} ${negated ? 'NOT IN' : 'IN'} (SELECT ${rs.join(', ')} FROM u WHERE ${extra})`;
  const o = standardIn(l, rs, extra, negated);
  switch (int(4)) {
    case 0: return { sql: `SELECT id, ${e} FROM t`, oracle: `SELECT id, ${o} FROM t`, row };
    case 1: return { sql: `SELECT id FROM t WHERE b = 1 OR ${e}`, oracle: `SELECT id FROM t WHERE b = 1 OR ${o}`, row };
    case 2: return { sql: `SELECT id, CASE WHEN ${e} THEN 'yes' WHEN NOT ${e} THEN 'no' ELSE 'unknown' END FROM t`, oracle: `SELECT id, CASE WHEN ${o} THEN 'yes' WHEN NOT ${o} THEN 'no' ELSE 'unknown' END FROM t`, row };
    default: return { sql: `SELECT id FROM t WHERE (${e}) IS NULL`, oracle: `SELECT id FROM t WHERE (${o}) IS NULL`, row };
  }
}

const physical = async (env: TableEnvironment, q: string): Promise<string> => (await env.sql(q).explain()).split('== Physical Plan ==')[1]!;

describe('IN / NOT IN (subquery) as a value: random queries vs the standard in DuckDB', { timeout: 300_000 }, () => {
  const CASES = Array.from({ length: 36 }, randomCase);
  /** Counts of TRUE / FALSE / NULL values over the select-list cases: the data must produce all three. */
  const seen = new Set<string>();
  CASES.forEach((c, i) => {
    it(`${i}: ${c.sql}`, async () => {
      const expected = await duck.query(c.oracle);
      for (const env of [p1, p2]) expectSameResult(fromArrow(await env.sql(c.sql).collect()), expected, { names: false });
      if (c.sql.startsWith('SELECT id, (') || c.sql.startsWith('SELECT id, ROW')) for (const row of expected.rows) seen.add(String(row[1]));
    });
  });
  it('the random values include TRUE, FALSE and NULL', () => {
    expect([...seen].sort()).toEqual(['false', 'null', 'true']);
  });
});

describe('EXISTS and IN as values in other surroundings vs DuckDB', { timeout: 120_000 }, () => {
  const may = (l: string, r: string): string => `(${l} = ${r} OR ${l} IS NULL OR ${r} IS NULL)`;
  const FIXED: readonly (readonly [string, string, string])[] = [
    ['outer columns from both sides of a join',
      'SELECT t.id, v.k, (t.a, v.y) NOT IN (SELECT x, y FROM u WHERE u.g = t.g) FROM t JOIN u AS v ON t.b = v.w',
      `SELECT t.id, v.k, NOT (CASE WHEN EXISTS (SELECT 1 FROM u WHERE u.g = t.g AND t.a = u.x AND v.y = u.y) THEN TRUE WHEN EXISTS (SELECT 1 FROM u WHERE u.g = t.g AND ${may('t.a', 'u.x')} AND ${may('v.y', 'u.y')}) THEN NULL ELSE FALSE END) FROM t JOIN u AS v ON t.b = v.w`],
    ['two values over one table',
      'SELECT id, (a, b) IN (SELECT x, y FROM u), (b, c) NOT IN (SELECT y, z FROM u WHERE u.g = t.g) FROM t',
      `SELECT id, ${standardIn(['a', 'b'], ['x', 'y'], 'true', false)}, ${standardIn(['b', 'c'], ['y', 'z'], 'u.g = t.g', true)} FROM t`],
    ['EXISTS as a value in a grouped query',
      'SELECT g, count(*), EXISTS (SELECT 1 FROM u WHERE u.g = t.g AND u.x IS NULL) FROM t GROUP BY g',
      'SELECT g, count(*), EXISTS (SELECT 1 FROM u WHERE u.g = t.g AND u.x IS NULL) FROM t GROUP BY g'],
    ['EXISTS under OR, a correlated inequality',
      'SELECT id FROM t WHERE b IS NULL OR EXISTS (SELECT 1 FROM u WHERE u.x > t.a AND u.g = t.g)',
      'SELECT id FROM t WHERE b IS NULL OR EXISTS (SELECT 1 FROM u WHERE u.x > t.a AND u.g = t.g)'],
  ];
  for (const [name, q, oracle] of FIXED) {
    it(name, async () => {
      const expected = await duck.query(oracle);
      expect(expected.rows.length).toBeGreaterThan(0);
      for (const env of [p1, p2]) expectSameResult(fromArrow(await env.sql(q).collect()), expected, { names: false });
    });
  }
});

describe('IN / NOT IN as a value: plans', () => {
  const SHAPES = [
    'SELECT id, (a, b) NOT IN (SELECT x, y FROM u) FROM t',
    'SELECT id FROM t WHERE b = 1 OR (a, b, c) NOT IN (SELECT x, y, z FROM u)',
    'SELECT id, CASE WHEN (a, b) IN (SELECT x, y FROM u) THEN 1 ELSE 0 END FROM t',
    'SELECT id, (a, b) IN (SELECT x, y FROM u WHERE u.g = t.g) FROM t',
    'SELECT id, ROW(a) NOT IN (SELECT x FROM u) FROM t',
  ];
  for (const q of SHAPES) {
    it(`no nested loop: ${q}`, async () => {
      for (const env of [p1, p2]) {
        const plan = await physical(env, q);
        expect(plan).toMatch(/HashJoin\(semi, [^\n]*null_aware\(\d items\)/);
        expect(plan).not.toMatch(/NestedLoopJoin/);
      }
    });
  }

  it('correlated: the correlation key is a plain item of the NULL-aware join (partitioned on it at p2)', async () => {
    const q = 'SELECT id, (a, b) IN (SELECT x, y FROM u WHERE u.g = t.g) FROM t';
    expect(await physical(p2, q)).toMatch(/HashJoin\(semi, [^\n]*null_aware\(3 items\)[^\n]*\[p=2\]/);
  });

  it('a correlated row NOT IN in WHERE: the NULL-aware anti join with the correlation key among its items', async () => {
    const q = 'SELECT id FROM t WHERE (a, b) NOT IN (SELECT x, y FROM u WHERE u.g = t.g)';
    const plan = await physical(p1, q);
    expect(plan).toMatch(/HashJoin\(anti, [^\n]*null_aware\(3 items\)/);
    expect(plan).not.toMatch(/Distinct|NestedLoopJoin/);
    expectSameResult(fromArrow(await p1.sql(q).collect()), await duck.query(`SELECT id FROM t WHERE ${standardIn(['a', 'b'], ['x', 'y'], 'u.g = t.g', true)}`), { names: false });
  });
});
