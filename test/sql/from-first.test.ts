/**
 * DuckDB's FROM-first queries (src/sql/parser-query.ts selectCore): `FROM t` alone is `SELECT * FROM t`,
 * `FROM items [SELECT list]` then the usual clauses, as a statement, a subquery, a CTE body, a set-operation
 * operand, and the source of INSERT / CREATE TABLE AS / CREATE VIEW. Every result is checked against DuckDB;
 * the forms DuckDB rejects are rejected too.
 */
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/relnode/errors.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { oracleTable } from '../helpers/oracle-table.js';

const ROWS = [
  { k: 1, g: 'a', v: 1.5 }, { k: 2, g: 'b', v: 2.5 }, { k: 3, g: 'a', v: null }, { k: 4, g: null, v: 4 }, { k: 5, g: 'b', v: -1 },
];
const { duck, env } = oracleTable('t', { k: 'INTEGER', g: 'VARCHAR', v: 'DOUBLE' }, ROWS);

const SAME: readonly [string, boolean][] = [
  // [query, ordered]
  ['FROM t', false],
  ['FROM t SELECT k, g', false],
  ['FROM t WHERE k > 2', false],
  ['FROM t ORDER BY k DESC LIMIT 2', true],
  ['FROM t LIMIT 2 OFFSET 1', false],
  ['FROM t SELECT k * 2 AS d WHERE v IS NOT NULL ORDER BY d', true],
  ['FROM t SELECT g, count(*) AS n, sum(v) AS s GROUP BY g ORDER BY g NULLS LAST', true],
  ['FROM t SELECT g, count(*) AS n GROUP BY ALL HAVING count(*) > 1 ORDER BY g', true],
  ['FROM t SELECT DISTINCT g ORDER BY g', true],
  ['FROM t SELECT DISTINCT ON (g) g, k ORDER BY g, k DESC', true],
  ['FROM t SELECT ALL g ORDER BY k', true],
  ['FROM t SELECT count(*)', false],
  ['FROM t SELECT k, row_number() OVER w AS r WINDOW w AS (ORDER BY k DESC) ORDER BY k', true],
  ['FROM t QUALIFY row_number() OVER (PARTITION BY g ORDER BY k) = 1 ORDER BY k', true],
  ['FROM t a JOIN t b USING (k) SELECT a.k, b.g ORDER BY a.k', true],
  ['FROM t a, t b SELECT count(*) AS n WHERE a.k < b.k', false],
  ['FROM t AS x LEFT JOIN (FROM t WHERE k > 3) y ON x.k = y.k SELECT x.k, y.v ORDER BY x.k', true],
  ['SELECT * FROM (FROM t WHERE k = 2)', false],
  ['FROM (FROM t SELECT k) AS s', false],
  ['WITH c AS (FROM t WHERE g = \'a\') FROM c SELECT k ORDER BY k', true],
  ['SELECT EXISTS (FROM t WHERE k > 4) AS e, (FROM t SELECT max(k)) AS m', false],
  ['SELECT k FROM t WHERE k IN (FROM t SELECT k + 2) ORDER BY k', true],
  ['FROM t SELECT k WHERE k < 3 UNION ALL FROM t SELECT k WHERE k > 3 ORDER BY k', true],
  ['FROM t SELECT k INTERSECT SELECT k + 1 FROM t', false],
  ['FROM t SELECT g, k ORDER BY ALL', true],
];

describe('FROM-first queries as DuckDB', () => {
  for (const [q, ordered] of SAME) {
    it(q, async () => {
      expectSameResult(fromArrow(await env().sql(q).collect()), await duck().query(q), { ordered });
    });
  }

  it('CREATE TABLE AS, CREATE VIEW AS and INSERT INTO take a FROM-first query', async () => {
    const stmts = [
      'CREATE TABLE c1 AS FROM t WHERE k < 3',
      'CREATE VIEW v1 AS FROM t SELECT k, g WHERE g IS NOT NULL',
      'INSERT INTO c1 FROM t WHERE k = 5',
      "INSERT INTO c1 (FROM t SELECT k, g, v WHERE g = 'a' AND k > 1)",
    ];
    for (const s of stmts) {
      await env().executeSql(s);
      await duck().run(s);
    }
    for (const q of ['FROM c1 ORDER BY k', 'FROM v1 ORDER BY k']) {
      expectSameResult(fromArrow(await env().sql(q).collect()), await duck().query(q), { ordered: true });
    }
  });

  it('rejects what DuckDB rejects: SELECT after WHERE / GROUP BY, a second FROM, an empty list, FROM alone', async () => {
    for (const q of ['FROM t WHERE k = 1 SELECT g', 'FROM t GROUP BY g SELECT g', 'FROM t SELECT k FROM t', 'FROM t SELECT', 'FROM']) {
      await expect(duck().query(q), `DuckDB: ${q}`).rejects.toThrow();
      expect(() => env().sql(q), q).toThrow(ParseError);
    }
    expect(() => env().sql('FROM t WHERE k = 1 SELECT g')).toThrow(/line 1, column 20: unexpected "SELECT"/);
    expect(() => env().sql('FROM t SELECT')).toThrow(/unexpected end of statement; expected DISTINCT, ALL, an expression or "\*"/);
  });

  it('EXPLAIN shows the same plan as the SELECT-first spelling', async () => {
    const explain = async (q: string): Promise<string> => {
      const r = await env().executeSql(`EXPLAIN ${q}`);
      if (r.kind !== 'rows') throw new Error(`expected rows, got ${r.message}`);
      return JSON.stringify(r.table.toArray());
    };
    expect(await explain('FROM t SELECT g WHERE k > 1')).toBe(await explain('SELECT g FROM t WHERE k > 1'));
  });
});
