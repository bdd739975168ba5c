/**
 * `(a, b, ...) NOT IN (SELECT x, y, ...)` over nullable columns as the multi-key NULL-aware anti join
 * (planner/not-in-join.ts, exec/operators/null-aware-anti-join.ts): random small tables with many NULLs,
 * at parallelism 1 and 2 (worker stages), against
 * - DuckDB running the standard's definition as scalar SQL (`NOT EXISTS (... WHERE (a = x OR a IS NULL
 *   OR x IS NULL) AND ...)`): DuckDB's own row NOT IN compares STRUCTs, NULL as a value
 *   (docs/sql-row-values.md), so it is no oracle for rows with NULLs;
 * - eddy's previous plan, the nested-loop join over the same condition (notInTuning off).
 * And the plans: no nested loop for up to 8 items (one beyond says why), a plain anti hash join when
 * filters below show the columns never NULL, hash-partitioned instances when an item is NULL-free on
 * both sides.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { notInTuning } from '../../src/planner/not-in-join.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import type { ColumnType, Duck } from '../helpers/duckdb.js';
import { closeOracleP1P2, openOracleP1P2 } from '../helpers/oracle-table.js';
import { rng } from '../helpers/rng.js';

const r = rng(1207);
const maybe = <T,>(rate: number, v: T): T | null => (r() < rate ? null : v);
const int = (n: number): number => Math.floor(r() * n);
const T_ROWS = Array.from({ length: 500 }, (_, id) => ({
  id, g: id % 4, a: maybe(0.15, int(10)), b: maybe(0.2, int(5)), c: maybe(0.1, ['p', 'q', 'r'][int(3)]!), d: maybe(0.1, int(3) / 2),
}));
const T_TYPES: Record<string, ColumnType> = { id: 'INTEGER', g: 'INTEGER', a: 'INTEGER', b: 'INTEGER', c: 'VARCHAR', d: 'DOUBLE' };
const U_ROWS = Array.from({ length: 40 }, (_, k) => ({
  k, g: k % 4, x: maybe(0.1, int(10)), y: maybe(0.15, int(5)), z: maybe(0.1, ['p', 'q', 'r'][int(3)]!), w: maybe(0.05, int(3)),
}));
const U_TYPES: Record<string, ColumnType> = { k: 'INTEGER', g: 'INTEGER', x: 'INTEGER', y: 'INTEGER', z: 'VARCHAR', w: 'INTEGER' };

let duck: Duck;
let p1: TableEnvironment;
let p2: TableEnvironment;

beforeAll(async () => {
  ({ duck, p1, p2 } = await openOracleP1P2([{ name: 't', types: T_TYPES, rows: T_ROWS }, { name: 'u', types: U_TYPES, rows: U_ROWS }], { p1Batch: 64 }));
}, 120_000);
afterAll(async () => {
  notInTuning.nullAware = true;
  await closeOracleP1P2({ duck, p1, p2 });
});

/** The standard's `(l) NOT IN (SELECT r FROM u WHERE extra)` as scalar SQL. */
function notInSql(l: readonly string[], rs: readonly string[], extra = 'true'): string {
  const items = l.map((x, i) => `(${x} = ${rs[i]} OR ${x} IS NULL OR ${rs[i]} IS NULL)`).join(' AND ');
  return `NOT EXISTS (SELECT 1 FROM u WHERE (${extra}) AND ${items})`;
}

/**
 * Kept physical plans are reused while the settings stay the same (api/physical-plans.ts): each tuning
 * gets its own value of a setting these queries do not read, so each plans (and keeps) its own plans.
 */
const replan = async (env: TableEnvironment): Promise<void> => { await env.executeSql(`SET integer_division = ${notInTuning.nullAware ? 'false' : 'true'}`); };

const physical = async (env: TableEnvironment, q: string): Promise<string> => (await env.sql(q).explain()).split('== Physical Plan ==')[1]!;

/** The same rows from eddy at p1 and p2 as DuckDB's scalar definition, and as eddy's nested loop. */
async function check(q: string, oracle: string, nestedBefore = true): Promise<number> {
  const expected = await duck.query(oracle);
  for (const env of [p1, p2]) expectSameResult(fromArrow(await env.sql(q).collect()), expected, { names: false });
  notInTuning.nullAware = false;
  try {
    await replan(p1);
    if (nestedBefore) expect(await physical(p1, q)).toMatch(/NestedLoopJoin/);
    expectSameResult(fromArrow(await p1.sql(q).collect()), expected, { names: false });
  } finally {
    notInTuning.nullAware = true;
    await replan(p1);
  }
  return expected.rows.length;
}

const CASES: readonly (readonly [string, readonly string[], readonly string[], string?])[] = [
  ['two nullable items', ['a', 'b'], ['x', 'y']],
  ['three items, VARCHAR among them', ['a', 'b', 'c'], ['x', 'y', 'z']],
  ['DOUBLE against INTEGER (coerced)', ['d', 'b'], ['w', 'y']],
  ['a filtered subquery, NULLs left only on one side', ['a', 'b'], ['x', 'y'], 'u.x IS NOT NULL AND u.y IS NOT NULL'],
  ['an empty subquery', ['a', 'b'], ['x', 'y'], 'u.k < 0'],
  ['a subquery of all-NULL rows', ['a', 'b'], ['x', 'y'], 'u.x IS NULL AND u.y IS NULL'],
  ['correlated', ['a', 'b'], ['x', 'y'], 'u.g = t.g'],
  ['an expression item (computed below the join)', ['a + 1', 'b'], ['x', 'y']],
];

describe('NOT IN over several nullable items', { timeout: 180_000 }, () => {
  for (const [name, l, rs, extra] of CASES) {
    it(name, async () => {
      const where = extra === undefined ? '' : ` WHERE ${extra}`;
      const q = `SELECT id FROM t WHERE (${l.join(', ')}) NOT IN (SELECT ${rs.join(', ')} FROM u${where})`;
      // Correlated: with the NULL-aware join off, the correlation key is a hash key and the items a residual (no nested loop).
      const kept = await check(q, `SELECT id FROM t WHERE ${notInSql(l.map((c) => `t.${c}`), rs.map((c) => `u.${c}`), extra)}`, name !== 'correlated');
      // The random tables make NOT IN keep some rows and drop others (an unfiltered subquery).
      if (extra === undefined) expect(kept > 0 && kept < T_ROWS.length).toBe(true);
    });
  }

  it('the left side filtered too: a filter keeps its rows whose NOT IN is TRUE only', async () => {
    const q = 'SELECT id FROM t WHERE a > 0 AND (a, b, c) NOT IN (SELECT x, y, z FROM u WHERE w <> 1)';
    await check(q, `SELECT id FROM t WHERE t.a > 0 AND ${notInSql(['t.a', 't.b', 't.c'], ['u.x', 'u.y', 'u.z'], 'u.w <> 1')}`);
  });
});

describe('NULL-aware anti join plans', () => {
  it('up to 8 items: a NULL-aware hash join, not a nested loop', async () => {
    for (const q of ['SELECT id FROM t WHERE (a, b, c) NOT IN (SELECT x, y, z FROM u)', 'SELECT id FROM t WHERE (a + 1, b, c) NOT IN (SELECT x, y, z FROM u)']) {
      const plan = await physical(p1, q);
      expect(plan).toMatch(/HashJoin\(anti, [^\n]*build=right, null_aware\(3 items\)/);
      expect(plan).not.toMatch(/NestedLoopJoin/);
    }
  });

  it('beyond 8 items: the nested loop, and EXPLAIN says why', async () => {
    // Nine different item pairs (a repeated pair is one conjunct of the join condition).
    const l = ['a', 'b', 'c', 'd', 'a', 'b', 'g', 'a', 'b'];
    const rs = ['x', 'y', 'z', 'w', 'y', 'x', 'w', 'w', 'k'];
    const q = `SELECT id FROM t WHERE (${l.join(', ')}) NOT IN (SELECT ${rs.join(', ')} FROM u)`;
    expect(await physical(p1, q)).toMatch(/NestedLoopJoin\(anti, [^\n]*; NOT IN over 9 items, the NULL-aware hash join takes at most 8/);
    const expected = await duck.query(`SELECT id FROM t WHERE ${notInSql(l.map((c) => `t.${c}`), rs.map((c) => `u.${c}`))}`);
    expectSameResult(fromArrow(await p1.sql(q).collect()), expected, { names: false });
  });

  it('columns filtered to NOT NULL on both sides: a plain anti hash join on the items', async () => {
    const q = 'SELECT id FROM t WHERE a IS NOT NULL AND b > 0 AND (a, b) NOT IN (SELECT x, y FROM u WHERE x IS NOT NULL AND y IS NOT NULL)';
    const plan = await physical(p1, q);
    expect(plan).toMatch(/HashJoin\(anti, /);
    expect(plan).not.toMatch(/null_aware|NestedLoopJoin/);
    await check(q, `SELECT id FROM t WHERE t.a IS NOT NULL AND t.b > 0 AND ${notInSql(['t.a', 't.b'], ['u.x', 'u.y'], 'u.x IS NOT NULL AND u.y IS NOT NULL')}`);
  });

  it('an inner join key is never NULL above the join; an item NULL-free on both sides stays a plain key among the others', async () => {
    const joined = await physical(p1, 'SELECT t.id FROM t JOIN u AS v ON t.a = v.x WHERE (t.a, t.b) NOT IN (SELECT x, y FROM u WHERE x IS NOT NULL AND y IS NOT NULL)');
    expect(joined).toMatch(/HashJoin\(anti, [^\n]*null_aware\(2 items\)/);
    const q = 'SELECT id FROM t WHERE a IS NOT NULL AND (a, b) NOT IN (SELECT x, y FROM u WHERE x IS NOT NULL)';
    expect(await physical(p1, q)).toMatch(/HashJoin\(anti, [^\n]*null_aware\(2 items\)/);
    await check(q, `SELECT id FROM t WHERE t.a IS NOT NULL AND ${notInSql(['t.a', 't.b'], ['u.x', 'u.y'], 'u.x IS NOT NULL')}`);
  });

  it('at parallelism 2 an item NULL-free on both sides partitions the join; without one it runs as one instance', async () => {
    expect(await physical(p2, 'SELECT id FROM t WHERE a IS NOT NULL AND (a, b) NOT IN (SELECT x, y FROM u WHERE x IS NOT NULL)')).toMatch(/HashJoin\(anti, [^\n]*null_aware\(2 items\)[^\n]*\) \[p=2\]/);
    expect(await physical(p2, 'SELECT id FROM t WHERE (a, b) NOT IN (SELECT x, y FROM u)')).toMatch(/HashJoin\(anti, [^\n]*null_aware\(2 items\)[^\n]*\) \[p=1\]/);
  });
});
