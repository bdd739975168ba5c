/**
 * Long chains in every clause (issue 11 "Huge statements"): 2,500-term
 * arithmetic, concatenation and comparison chains fail with the limit error
 * of src/sql/limits.ts (docs/sql-limits.md) wherever they appear (SELECT,
 * WHERE, ORDER BY, a scalar subquery, CACHE TABLE); flat chains (AND / OR of
 * thousands of terms, CASE with thousands of WHENs, calls with thousands of
 * arguments) and chains within the limit work. Never "Maximum call stack
 * size exceeded".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment, ValidationError } from '../../src/index.js';
import { MAX_EXPRESSION_DEPTH } from '../../src/sql/limits.js';

let env: TableEnvironment;
beforeAll(() => {
  env = TableEnvironment.create();
  env.registerTable('t', env.fromRecords([{ a: 1, b: 2, s: 'x' }], { a: 'INTEGER', b: 'INTEGER', s: 'VARCHAR' }));
});
afterAll(async () => { await env.close(); });

const rep = (n: number, s: string, sep: string): string => Array(n).fill(s).join(sep);
const values = async (sql: string): Promise<unknown[]> => ((await env.sql(sql).toArray()) as Record<string, unknown>[]).map((r) => Object.values(r).map((v) => (typeof v === 'bigint' ? Number(v) : v))).flat();

async function failure(sql: string): Promise<Error> {
  try {
    await env.executeSql(sql);
  } catch (e) {
    return e as Error;
  }
  throw new Error(`expected an error from ${sql.slice(0, 60)}`);
}

describe('2,500-term chains fail with the limit error in every clause', () => {
  const limit = `nesting depth exceeds ${MAX_EXPRESSION_DEPTH} (limit: ${MAX_EXPRESSION_DEPTH}`;
  const cases: [string, string][] = [
    ['SELECT 1+1+...', `SELECT ${rep(2500, '1', ' + ')}`],
    ['a - a - ... FROM t', `SELECT ${rep(2500, 'a', ' - ')} FROM t`],
    ["'a' || 'a' || ...", `SELECT ${rep(2500, "'a'", ' || ')}`],
    ['WHERE a * a * ...', `SELECT a FROM t WHERE ${rep(2500, 'a', ' * ')} > 0`],
    ['ORDER BY a + a + ...', `SELECT a FROM t ORDER BY ${rep(2500, 'a', ' + ')}`],
    ['GROUP BY a + a + ...', `SELECT count(*) FROM t GROUP BY ${rep(2500, 'a', ' + ')}`],
    ['a scalar subquery', `SELECT (SELECT ${rep(2500, 'a', ' + ')} FROM t)`],
    ['CACHE TABLE AS', `CACHE TABLE c1 AS SELECT ${rep(2500, 'a', ' + ')} AS x FROM t`],
    ['1 = 1 = ...', `SELECT ${rep(2500, '1', ' = ')}`],
    ['a + 2 * a + 2 * ...', `SELECT ${rep(2500, 'a', ' + 2 * ')} FROM t`],
  ];
  for (const [name, sql] of cases) {
    it(name, async () => {
      const e = await failure(sql);
      expect(e).toBeInstanceOf(ValidationError);
      expect(e.message).toContain(limit);
      expect(e.message).not.toMatch(/call stack|Invalid array length/);
    }, 60_000);
  }
});

describe('flat chains and chains within the limit work', () => {
  it('AND / OR of thousands of terms, with NOT and BETWEEN', async () => {
    expect(await values(`SELECT count(*) FROM t WHERE ${rep(3000, 'a = 1', ' AND ')}`)).toEqual([1]);
    expect(await values(`SELECT count(*) FROM t WHERE ${rep(2000, '(a = 1 AND b = 2)', ' OR ')}`)).toEqual([1]);
    expect(await values(`SELECT count(*) FROM t WHERE ${rep(2000, 'NOT a = 3', ' AND ')}`)).toEqual([1]);
    expect(await values(`SELECT count(*) FROM t WHERE ${rep(1000, 'a BETWEEN 0 AND 5', ' AND ')}`)).toEqual([1]);
  }, 120_000);

  it('CASE with 2,000 WHENs (searched and simple), calls with thousands of arguments', async () => {
    const whens = Array.from({ length: 2000 }, (_, i) => `WHEN a = ${i + 5} THEN ${i}`).join(' ');
    expect(await values(`SELECT CASE ${whens} WHEN a = 1 THEN -7 ELSE -1 END FROM t`)).toEqual([-7]);
    const simple = Array.from({ length: 2000 }, (_, i) => `WHEN ${i} THEN ${i * 2}`).join(' ');
    expect(await values(`SELECT CASE a ${simple} END FROM t`)).toEqual([2]);
    expect(await values(`SELECT coalesce(${rep(3000, 'NULL', ', ')}, 4)`)).toEqual([4]);
    expect(await values(`SELECT length(concat(${rep(2000, 's', ', ')})) FROM t`)).toEqual([2000]);
  }, 120_000);

  it(`${MAX_EXPRESSION_DEPTH}-term chains in WHERE, ORDER BY and GROUP BY`, async () => {
    const n = MAX_EXPRESSION_DEPTH;
    expect(await values(`SELECT a FROM t WHERE ${rep(n, 'a', ' * ')} > 0 ORDER BY ${rep(n, 'a', ' + ')}`)).toEqual([1]);
    expect(await values(`SELECT ${rep(n, 'a', ' + ')} AS k, count(*) FROM t GROUP BY ${rep(n, 'a', ' + ')}`)).toEqual([n, 1]);
  }, 120_000);
});
