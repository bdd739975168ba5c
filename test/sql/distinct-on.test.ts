/**
 * `SELECT DISTINCT ON (...)` (src/sql/binder/distinct-on.ts), checked against DuckDB: the first row per key
 * in ORDER BY order, keys by expression, position and alias, LIMIT / OFFSET after the pick, grouped
 * queries, NULL keys (one group), and at parallelism 2.
 */
import { describe, expect, it } from 'vitest';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { expectSameAtP1AndP2, oracleTable } from '../helpers/oracle-table.js';

const ROWS = [
  { g: 'a', t: 3, v: 1.5 }, { g: 'a', t: 1, v: 2.5 }, { g: 'b', t: 2, v: -1 }, { g: 'b', t: 5, v: 0 },
  { g: null, t: 4, v: 9 }, { g: null, t: 0, v: 7 }, { g: 'c', t: 6, v: null }, { g: 'a', t: 9, v: 3 },
];
const TYPES = { g: 'VARCHAR', t: 'INTEGER', v: 'DOUBLE' } as const;
const { duck, env } = oracleTable('t', TYPES, ROWS);

const SAME = [
  'SELECT DISTINCT ON (g) g, t, v FROM t ORDER BY g, t',
  'SELECT DISTINCT ON (g) g, t, v FROM t ORDER BY g, t DESC',
  'SELECT DISTINCT ON (1) g AS k, t FROM t ORDER BY k, t',
  'SELECT DISTINCT ON (k) g AS k, t FROM t ORDER BY k NULLS FIRST, v DESC NULLS LAST',
  'SELECT DISTINCT ON (g, t % 2) g, t FROM t ORDER BY g, t % 2, t',
  'SELECT DISTINCT ON (g) g, t FROM t ORDER BY g, t LIMIT 2 OFFSET 1',
  'SELECT DISTINCT ON (t % 3) t % 3 AS m, g, sum(v) AS s FROM t GROUP BY t % 3, g ORDER BY m, s DESC NULLS LAST, g',
  'SELECT * FROM (SELECT DISTINCT ON (g) * FROM t ORDER BY g, v) ORDER BY g',
];

describe('DISTINCT ON as DuckDB', () => {
  for (const q of SAME) {
    it(q, async () => {
      expectSameResult(fromArrow(await env().sql(q).collect()), await duck().query(q), { ordered: true });
    });
  }

  it('one row per key without ORDER BY', async () => {
    const r = fromArrow(await env().sql('SELECT DISTINCT ON (g) g FROM t').collect());
    expect(r.rows.map((x) => x[0]).sort()).toEqual(['a', 'b', 'c', null].sort());
  });

  it('the same at parallelism 2 over a table large enough to ship', async () => {
    const big = Array.from({ length: 210_000 }, (_, i) => ({ k: i % 97, t: (i * 7919) % 210_000 }));
    const a = await expectSameAtP1AndP2('big', { k: 'INTEGER', t: 'INTEGER' }, big, 'SELECT DISTINCT ON (k) k, t FROM big ORDER BY k, t DESC');
    expect(a.rows.length).toBe(97);
  });

  it('a position outside the select list is an error', () => {
    expect(() => env().sql('SELECT DISTINCT ON (3) g, t FROM t')).toThrow(/DISTINCT ON position 3 is not in the select list \(1 to 2\)/);
  });
});
