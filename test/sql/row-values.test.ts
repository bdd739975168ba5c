/**
 * Row values in comparisons and IN (src/sql/binder/row-values.ts, row-subquery.ts), against DuckDB on
 * the same random tables with NULLs, at parallelism 1 and 2 (worker stages).
 *
 * The oracle: DuckDB compares rows as STRUCTs, where a NULL field is a value ((1, NULL) = (1, 2) is false
 * there), while the SQL standard, PostgreSQL and SQLite (and eddy) use three-valued logic per item. So
 * on NULL-free columns DuckDB runs the very same row syntax; on columns with NULLs it runs the standard's
 * definition written out in scalar SQL, in a form unlike eddy's expansion (PostgreSQL's algorithm: the
 * first pair that is NULL or unequal decides; for IN, EXISTS over the subquery's rows).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import type { ColumnType, Duck } from '../helpers/duckdb.js';
import { closeOracleP1P2, openOracleP1P2 } from '../helpers/oracle-table.js';
import { rng } from '../helpers/rng.js';

const r = rng(2026);
const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const T_ROWS = Array.from({ length: 400 }, (_, id) => ({
  id, a: pick([null, 1, 2, 3]), b: pick([null, 1, 2, 3, 4]), s: pick([null, 'p', 'q', 'r']), d: pick([null, 1, 1.5, 2, 3.5]),
  na: 1 + (id % 4), nb: 1 + ((id * 7) % 5),
}));
const T_TYPES: Record<string, ColumnType> = { id: 'INTEGER', a: 'INTEGER', b: 'INTEGER', s: 'VARCHAR', d: 'DOUBLE', na: 'INTEGER', nb: 'INTEGER' };
const U_ROWS = Array.from({ length: 40 }, (_, k) => ({ k, x: pick([null, 1, 2, 3]), y: pick([null, 1, 2, 3, 4]), z: pick([null, 'p', 'q', 'r']), nx: 1 + ((k * 3) % 4), ny: 1 + (k % 5) }));
const U_TYPES: Record<string, ColumnType> = { k: 'INTEGER', x: 'INTEGER', y: 'INTEGER', z: 'VARCHAR', nx: 'INTEGER', ny: 'INTEGER' };

let duck: Duck;
let p1: TableEnvironment;
let p2: TableEnvironment;

beforeAll(async () => {
  ({ duck, p1, p2 } = await openOracleP1P2([{ name: 't', types: T_TYPES, rows: T_ROWS }, { name: 'u', types: U_TYPES, rows: U_ROWS }]));
}, 120_000);
afterAll(async () => {
  await closeOracleP1P2({ duck, p1, p2 });
});

/** eddy's result of `q` at parallelism 1 and 2 against DuckDB's of `oracle`. */
async function check(q: string, oracle: string): Promise<void> {
  const expected = await duck.query(oracle);
  for (const env of [p1, p2]) expectSameResult(fromArrow(await env.sql(q).collect()), expected, { names: false });
}

// ---- the standard's definitions, as scalar SQL for DuckDB (PostgreSQL's formulation) ----

type Op = '=' | '<>' | '<' | '<=' | '>' | '>=' | 'IS DISTINCT FROM' | 'IS NOT DISTINCT FROM';

/** `(l) = (r)`: FALSE when some pair is known unequal, else NULL when some item is NULL, else TRUE. */
function eqSql(l: readonly string[], r: readonly string[]): string {
  const unequal = l.map((x, i) => `(${x}) <> (${r[i]})`).join(' OR ');
  const anyNull = l.map((x, i) => `(${x}) IS NULL OR (${r[i]}) IS NULL`).join(' OR ');
  return `CASE WHEN ${unequal} THEN false WHEN ${anyNull} THEN NULL ELSE true END`;
}

/** `(l) op (r)` for an ordering op: the first pair that is NULL or unequal decides; all equal: op's answer on equal rows. */
function orderSql(op: '<' | '<=' | '>' | '>=', l: readonly string[], r: readonly string[]): string {
  const strict = op === '<' || op === '<=' ? '<' : '>';
  const whens = l.map((x, i) => `WHEN (${x}) IS NULL OR (${r[i]}) IS NULL THEN NULL WHEN (${x}) <> (${r[i]}) THEN (${x}) ${strict} (${r[i]})`).join(' ');
  return `CASE ${whens} ELSE ${op === '<=' || op === '>=' ? 'true' : 'false'} END`;
}

function standard(op: Op, l: readonly string[], r: readonly string[]): string {
  switch (op) {
    case '=': return eqSql(l, r);
    case '<>': return `NOT (${eqSql(l, r)})`;
    case 'IS NOT DISTINCT FROM': return l.map((x, i) => `((${x}) IS NOT DISTINCT FROM (${r[i]}))`).join(' AND ');
    case 'IS DISTINCT FROM': return l.map((x, i) => `((${x}) IS DISTINCT FROM (${r[i]}))`).join(' OR ');
    default: return orderSql(op, l, r);
  }
}

const OPS: readonly Op[] = ['=', '<>', '<', '<=', '>', '>=', 'IS DISTINCT FROM', 'IS NOT DISTINCT FROM'];
const row = (xs: readonly string[]): string => `(${xs.join(', ')})`;

describe('row comparisons', { timeout: 120_000 }, () => {
  for (const op of OPS) {
    it(`(a, b) ${op} (x, y) over every pair of rows with NULLs`, async () => {
      const l = ['a', 'b'];
      const rr = ['x', 'y'];
      const from = 'FROM t, u WHERE t.id < 80';
      await check(`SELECT id, k, ${row(l)} ${op} ${row(rr)} AS v ${from}`, `SELECT id, k, ${standard(op, l, rr)} AS v ${from}`);
    });
  }

  it('scalar IS [NOT] DISTINCT FROM (the same operator, one item) over NULLs: DuckDB runs the same SQL', async () => {
    for (const q of [
      'SELECT id, a IS DISTINCT FROM b AS x, a IS NOT DISTINCT FROM b AS y, s IS DISTINCT FROM NULL AS z, d IS NOT DISTINCT FROM a AS w FROM t',
      'SELECT id FROM t WHERE a IS NOT DISTINCT FROM b',
      'SELECT NULL IS DISTINCT FROM NULL AS n, 1 IS DISTINCT FROM NULL AS o',
    ]) await check(q, q);
  });

  it('every operator on NULL-free columns: DuckDB runs the same row syntax', async () => {
    for (const op of OPS) {
      const q = `SELECT id, k, (na, nb) ${op} (nx, ny) AS v, (na, nb, k) ${op} (nx, ny, id) AS w FROM t, u WHERE t.id < 50`;
      await check(q, q);
    }
  });

  it('three items, mixed types (INTEGER against DOUBLE, VARCHAR), constants and ROW(...)', async () => {
    for (const op of OPS) {
      const l = ['a', 'd', 's'];
      const rr = ['2', '1.5', "'q'"];
      await check(`SELECT id, ROW(a, d, s) ${op} (2, 1.5, 'q') AS v FROM t`, `SELECT id, ${standard(op, l, rr)} AS v FROM t`);
    }
  });

  it('nested rows compare item by item', async () => {
    const q = 'SELECT id, ((a, b), d) < ((2, 3), 2.0) AS v FROM t';
    await check(q, `SELECT id, ${standard('<', ['a', 'b', 'd'], ['2', '3', '2.0'])} AS v FROM t`);
  });

  it('keyset pagination: WHERE (a, b) > (2, 1) ORDER BY a, b LIMIT', async () => {
    const q = 'SELECT a, b, id FROM t WHERE (a, b) > (2, 1) ORDER BY a, b, id LIMIT 30';
    const expected = await duck.query(`SELECT a, b, id FROM t WHERE ${standard('>', ['a', 'b'], ['2', '1'])} ORDER BY a, b, id LIMIT 30`);
    for (const env of [p1, p2]) expectSameResult(fromArrow(await env.sql(q).collect()), expected, { ordered: true });
  });

  it('the standard\'s NULL answers, spelled out', async () => {
    const ok = await p1.sql(`SELECT (1, NULL) = (1, 2) AS a, (1, NULL) = (2, 2) AS b, (1, NULL) < (2, 2) AS c, (1, NULL) < (1, 2) AS d,
      (1, NULL) <> (2, NULL) AS e, (1, NULL) IS DISTINCT FROM (1, NULL) AS f, (1, 2) IS DISTINCT FROM (1, NULL) AS g`).toArray();
    expect(ok).toEqual([{ a: null, b: false, c: true, d: null, e: true, f: false, g: true }]);
  });
});

describe('IN lists of rows', { timeout: 120_000 }, () => {
  const LIST = [['1', '2'], ['NULL', '3'], ['2', 'NULL'], ['3', '4']];
  const anyEq = (l: readonly string[]): string => LIST.map((v) => `(${eqSql(l, v)})`).join(' OR ');

  it('(a, b) [NOT] IN (...) with NULLs in the rows and the list, in the select list and WHERE', async () => {
    const list = LIST.map(row).join(', ');
    await check(`SELECT id, (a, b) IN (${list}) AS i, (a, b) NOT IN (${list}) AS n FROM t`, `SELECT id, ${anyEq(['a', 'b'])} AS i, NOT (${anyEq(['a', 'b'])}) AS n FROM t`);
    await check(`SELECT id FROM t WHERE (a, b) IN (${list})`, `SELECT id FROM t WHERE ${anyEq(['a', 'b'])}`);
    await check(`SELECT id FROM t WHERE (a, b) NOT IN (${list})`, `SELECT id FROM t WHERE NOT (${anyEq(['a', 'b'])})`);
  });

  it('NULL-free columns: DuckDB runs the same IN list; ROW(...) items and a one-item list', async () => {
    for (const q of [
      'SELECT id FROM t WHERE (na, nb) IN ((1, 2), (2, 3), (4, 5))',
      'SELECT id, (na, nb) NOT IN (ROW(1, 2), (2, 3)) AS v FROM t',
      'SELECT id FROM t WHERE (na, nb) IN ((3, 4))',
    ]) await check(q, q);
  });
});

describe('long constant row lists: IN (VALUES ...), a hash join (row-list-values.ts)', { timeout: 120_000 }, () => {
  const LONG = Array.from({ length: 40 }, () => [pick(['NULL', '1', '2', '3', '4']), pick(['NULL', '1', '2', '3', '4', '5'])]);
  const anyEq = (l: readonly string[], list: readonly (readonly string[])[]): string => list.map((v) => `(${eqSql(l, v)})`).join(' OR ');
  const list = LONG.map(row).join(', ');

  it('the same answers as the OR form, NULLs on both sides: select list, WHERE, NOT IN, a grouped select list', async () => {
    const std = anyEq(['a', 'b'], LONG);
    await check(`SELECT id, (a, b) IN (${list}) AS i, (a, b) NOT IN (${list}) AS n FROM t`, `SELECT id, ${std} AS i, NOT (${std}) AS n FROM t`);
    await check(`SELECT id FROM t WHERE (a, b) IN (${list})`, `SELECT id FROM t WHERE ${std}`);
    await check(`SELECT id FROM t WHERE (a, b) NOT IN (${list})`, `SELECT id FROM t WHERE NOT (${std})`);
    await check(`SELECT a, b, (a, b) IN (${list}) AS i, count(*) AS c FROM t GROUP BY a, b`, `SELECT a, b, ${std} AS i, count(*) AS c FROM t GROUP BY a, b`);
  });

  it('strings, decimals against an INTEGER item, negative numbers', async () => {
    const items = Array.from({ length: 36 }, (_, i) => [`${(i % 5) - 1}${i % 3 === 0 ? '.5' : ''}`, pick(["'p'", "'q'", "'r'", 'NULL'])]);
    const std = anyEq(['a', 's'], items);
    await check(`SELECT id, (a, s) IN (${items.map(row).join(', ')}) AS i FROM t`, `SELECT id, ${std} AS i FROM t`);
  });

  it('plans a semi join on a VALUES relation (a short list stays an OR of comparisons)', async () => {
    const plan = (await p1.sql(`SELECT id FROM t WHERE (a, b) IN (${list})`).explain()).split('== Optimized Plan ==')[1]!;
    expect(plan).toMatch(/Join\(type=\[semi\]/);
    expect(plan).toContain('Values(');
    const short = (await p1.sql('SELECT id FROM t WHERE (a, b) IN ((1, 2), (3, 4))').explain()).split('== Optimized Plan ==')[1]!;
    expect(short).not.toMatch(/Join|Values/);
  });
});

describe('IN (subquery) with rows', { timeout: 120_000 }, () => {
  /** The standard's `(l) IN (SELECT x, y FROM u [WHERE extra])`: TRUE on an equal row, NULL on a row whose equality is NULL. */
  const inSql = (l: readonly string[], cols: readonly string[], extra = 'true'): string => {
    const eq = l.map((x, i) => `${cols[i]} = ${x}`).join(' AND ');
    return `CASE WHEN EXISTS (SELECT 1 FROM u WHERE (${extra}) AND ${eq}) THEN true WHEN EXISTS (SELECT 1 FROM u WHERE (${extra}) AND (${eq}) IS NULL) THEN NULL ELSE false END`;
  };

  it('uncorrelated, NULLs on both sides: the value (select list) and the filter (WHERE, NOT, OR)', async () => {
    const sub = '(SELECT x, y FROM u)';
    const std = inSql(['t.a', 't.b'], ['x', 'y']);
    await check(`SELECT id, (a, b) IN ${sub} AS i, (a, b) NOT IN ${sub} AS n FROM t`, `SELECT id, ${std} AS i, NOT (${std}) AS n FROM t`);
    await check(`SELECT id FROM t WHERE (a, b) IN ${sub}`, `SELECT id FROM t WHERE ${std}`);
    await check(`SELECT id FROM t WHERE (a, b) NOT IN ${sub}`, `SELECT id FROM t WHERE NOT (${std})`);
    await check(`SELECT id FROM t WHERE NOT ((a, b) IN ${sub}) AND id > 10`, `SELECT id FROM t WHERE NOT (${std}) AND id > 10`);
    await check(`SELECT id FROM t WHERE NOT ((a, b) NOT IN ${sub})`, `SELECT id FROM t WHERE ${std}`);
    await check(`SELECT id FROM t WHERE (a, b) IN ${sub} OR id < 20`, `SELECT id FROM t WHERE (${std}) OR id < 20`);
  });

  it('NULLs only on one side, and an empty subquery (NOT IN keeps every row, even with NULLs)', async () => {
    const left = inSql(['t.a', 't.b'], ['nx', 'ny']);
    await check('SELECT id, (a, b) NOT IN (SELECT nx, ny FROM u) AS n FROM t', `SELECT id, NOT (${left}) AS n FROM t`);
    await check('SELECT id FROM t WHERE (a, b) NOT IN (SELECT nx, ny FROM u)', `SELECT id FROM t WHERE NOT (${left})`);
    const right = inSql(['t.na', 't.nb'], ['x', 'y']);
    await check('SELECT id FROM t WHERE (na, nb) NOT IN (SELECT x, y FROM u)', `SELECT id FROM t WHERE NOT (${right})`);
    await check('SELECT id, (na, nb) IN (SELECT x, y FROM u) AS i FROM t', `SELECT id, ${right} AS i FROM t`);
    await check('SELECT id FROM t WHERE (a, b) NOT IN (SELECT x, y FROM u WHERE k < 0)', 'SELECT id FROM t');
    await check('SELECT id, (a, b) IN (SELECT x, y FROM u WHERE k < 0) AS i FROM t', 'SELECT id, false AS i FROM t');
  });

  it('correlated: the subquery reads the outer row', async () => {
    const std = inSql(['t.a', 't.b'], ['x', 'y'], 'u.z = t.s');
    await check('SELECT id FROM t WHERE (a, b) IN (SELECT x, y FROM u WHERE u.z = t.s)', `SELECT id FROM t WHERE ${std}`);
    await check('SELECT id FROM t WHERE (a, b) NOT IN (SELECT x, y FROM u WHERE u.z = t.s)', `SELECT id FROM t WHERE NOT (${std})`);
    await check('SELECT id, (a, b) NOT IN (SELECT x, y FROM u WHERE u.z = t.s) AS n FROM t', `SELECT id, NOT (${std}) AS n FROM t`);
  });

  it('expressions, three items and coercion (INTEGER items against a DOUBLE column)', async () => {
    const std = inSql(['t.a + 1', 't.d', 't.s'], ['x', 'CAST(y AS DOUBLE) / 2', 'z']);
    await check('SELECT id, (a + 1, d, s) IN (SELECT x, CAST(y AS DOUBLE) / 2, z FROM u) AS i FROM t', `SELECT id, ${std} AS i FROM t`);
  });

  it('NULL-free columns: DuckDB runs the same IN / NOT IN subqueries', async () => {
    for (const q of [
      'SELECT id FROM t WHERE (na, nb) IN (SELECT nx, ny FROM u)',
      'SELECT id FROM t WHERE (na, nb) NOT IN (SELECT nx, ny FROM u)',
      'SELECT id, (na, nb) IN (SELECT nx, ny FROM u) AS i FROM t',
    ]) await check(q, q);
  });
});

describe('plans: a row IN (subquery) is a semi / anti join on every item', () => {
  let env: TableEnvironment;
  beforeAll(async () => {
    env = TableEnvironment.create({ parallelism: 1 });
    env.registerTable('t', env.fromRecords(T_ROWS, T_TYPES));
    env.registerTable('u', env.fromRecords(U_ROWS, U_TYPES));
    await env.executeSql('CREATE TABLE tn (a INTEGER NOT NULL, b INTEGER NOT NULL)');
    await env.executeSql('CREATE TABLE un (x INTEGER NOT NULL, y INTEGER NOT NULL)');
  });
  afterAll(async () => { await env?.close(); });
  const optimized = async (q: string): Promise<string> => (await env.sql(q).explain()).split('== Optimized Plan ==')[1]!.split('== Physical Plan ==')[0]!;
  const physical = async (q: string): Promise<string> => (await env.sql(q).explain()).split('== Physical Plan ==')[1]!;

  it('IN: a semi hash join on both keys', async () => {
    const q = 'SELECT id FROM t WHERE (a, b) IN (SELECT x, y FROM u)';
    expect(await optimized(q)).toContain('Join(type=[semi], condition=[((a = x) AND (b = y))])');
    expect(await physical(q)).toMatch(/HashJoin\(semi, \(\(a = x\) AND \(b = y\)\)/);
  });

  it('NOT IN over NOT NULL columns: an anti hash join on both keys; over nullable ones the NULL tests stay in its condition', async () => {
    const q = 'SELECT a FROM tn WHERE (a, b) NOT IN (SELECT x, y FROM un)';
    expect(await optimized(q)).toContain('Join(type=[anti], condition=[((a = x) AND (b = y))])');
    expect(await physical(q)).toMatch(/HashJoin\(anti, \(\(a = x\) AND \(b = y\)\)/);
    const n = await optimized('SELECT id FROM t WHERE (na, b) NOT IN (SELECT nx, ny FROM u)');
    expect(n).toContain('Join(type=[anti], condition=[(((na = nx) OR (na IS NULL) OR (nx IS NULL)) AND ((b = ny) OR (b IS NULL) OR (ny IS NULL)))])');
  });

  it('correlated IN: still one semi join, the correlation a third key', async () => {
    const plan = await optimized('SELECT id FROM t WHERE (a, b) IN (SELECT x, y FROM u WHERE u.z = t.s)');
    expect(plan).toMatch(/Join\(type=\[semi\]/);
    expect(plan).not.toMatch(/Correlate|EXISTS/);
  });
});

describe('errors point at the row value', () => {
  const cases: readonly (readonly [string, string, string])[] = [
    ['SELECT (1, 2)', 'row values such as (a, b) are supported only in comparisons', '(1, 2)'],
    ['SELECT ROW(1, 2) AS r', 'eddy has no STRUCT type', 'ROW(1, 2)'],
    ['SELECT id FROM t ORDER BY (a, b)', 'supported only in comparisons', '(a, b)'],
    ['SELECT (a, b) + 1 FROM t', 'supported only in comparisons', '(a, b)'],
    ['SELECT id FROM t GROUP BY (a, b)', 'supported only in comparisons', '(a, b)'],
    ['SELECT abs((a, b)) FROM t', 'supported only in comparisons', '(a, b)'],
    ['SELECT (1, 2) = (1, 2, 3)', 'cannot compare a row value of 2 items with a row value of 3 items in =', '(1, 2) = (1, 2, 3)'],
    ['SELECT (a, b) < a FROM t', 'cannot compare a row value of 2 items with a single value in <', '(a, b) < a'],
    ['SELECT (a, b) IN ((1, 2), (1, 2, 3)) FROM t', 'cannot compare a row value of 2 items with a row value of 3 items in IN', '(1, 2, 3)'],
    ['SELECT a IN ((1, 2)) FROM t', 'cannot compare a single value with a row value of 2 items in IN', '(1, 2)'],
    ['SELECT (a, b) IN (SELECT x FROM u) FROM t', 'the subquery returns 1 column but the row value has 2 items', '(a, b) IN (SELECT x FROM u)'],
    ["SELECT (a, s) = (1, 2) FROM t", 'cannot compare VARCHAR and INTEGER', 's) = (1, 2'],
    ['SELECT ROW(NULL) IS NULL', 'supported only in comparisons', 'ROW(NULL)'],
    ['SELECT a, (a, b) IN (SELECT x, y FROM u) AS m FROM t GROUP BY a, b', 'not supported in the select list of a grouped query', '(a, b)'],
    ['SELECT id FROM t WHERE EXISTS (SELECT 1 FROM u WHERE (u.x, t.b) IN (SELECT 1, 2))', "may only read the columns of its own query (not an outer query's)", '(u.x, t.b)'],
    ['SELECT ROW() = ROW()', 'ROW(...) takes one or more values', 'ROW()'],
  ];
  for (const [sql, message, under] of cases) {
    it(sql, async () => {
      const e = await p1.executeSql(sql).then(() => undefined, (x: unknown) => x);
      expect(e).toBeInstanceOf(Error);
      const text = (e as Error).message;
      expect(text).toContain(message);
      expect(text).not.toMatch(/[Ss]yntax error|unknown function/);
      // The caret sits under `under`: the quoted line's columns from the caret row.
      const lines = text.split('\n');
      const caret = lines[lines.length - 1]!;
      const quoted = lines[lines.length - 2]!;
      const start = caret.indexOf('^');
      expect(quoted.slice(start, start + under.length)).toBe(under);
    });
  }
});

describe('the Table API text helpers take rows too', () => {
  it('filter / select with row comparisons and IN lists', async () => {
    const t = p1.from('t');
    const viaApi = await t.filter('(na, nb) IN ((1, 2), (2, 3)) AND (id, na) > (10, 1)').select('id').toArray();
    const viaSql = await p1.sql('SELECT id FROM t WHERE (na, nb) IN ((1, 2), (2, 3)) AND (id, na) > (10, 1)').toArray();
    expect(viaApi.length).toBeGreaterThan(0);
    expect(viaApi).toEqual(viaSql);
    const cols = await t.select('id', '(a, b) = (1, 2) AS e').filter('id < 5').toArray();
    expect(cols.map((x) => x['e'])).toEqual(T_ROWS.slice(0, 5).map((x) => (x.a === null || x.b === null ? (x.a !== null && x.a !== 1) || (x.b !== null && x.b !== 2) ? false : null : x.a === 1 && x.b === 2)));
  });
});
