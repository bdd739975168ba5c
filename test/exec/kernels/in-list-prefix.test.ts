/**
 * `substring(s, 1, k) IN (...)` compared on the first k bytes in place
 * (in-list.ts prefixIn): the same answers as DuckDB for short, empty, NULL and
 * multi-byte strings, dictionary columns, and in both a filter and a value
 * (with a NULL item); other shapes (items of other lengths, start ≠ 1, non-ASCII
 * items) keep the general path and stay right.
 */
import { describe, expect, it } from 'vitest';
import '../../../src/sql/index.js';
import { useHarness } from '../../diff/harness.js';
import { expectSameResult, fromArrow } from '../../helpers/compare.js';

const h = useHarness();

async function same(sql: string): Promise<void> {
  expectSameResult(fromArrow(await h.env.sql(sql).collect()), await h.duck.query(sql));
}

describe('substring(s, 1, k) IN literals', () => {
  it('filters and values over strings of every kind', async () => {
    await same(`SELECT id FROM strs WHERE substring(u, 1, 2) IN ('ab', 'h\u00e9', 'a\u00f0', 'na') ORDER BY id`);
    await same(`SELECT id FROM strs WHERE substring(u, 1, 1) IN ('Z', 'a', 'h') ORDER BY id`);
    await same(`SELECT id, substring(u, 1, 2) IN ('ab', 'na') AS x, substring(u, 1, 2) IN ('ab', NULL) AS y, substring(u, 1, 3) NOT IN ('abc') AS z FROM strs ORDER BY id`);
    await same(`SELECT id FROM strs WHERE substring(u, 1, 2) IN ('a', 'Z') OR substring(u, 2, 2) IN ('bc') ORDER BY id`);
    // One- and two-byte ASCII items (the byte table): short, empty and multi-byte strings miss or match exactly.
    await same(`SELECT id FROM strs WHERE substring(u, 1, 2) IN ('ab', 'na', 'h' || 'x', 'Zz') ORDER BY id`);
    await same(`SELECT id, substring(u, 1, 2) IN ('ab', 'ZZ') AS x, substring(u, 1, 1) IN ('h', NULL) AS y, substring(u, 1, 1) NOT IN ('a', 'b') AS z FROM strs ORDER BY id`);
  });

  it('TPC-H Q22 country codes, also over a dictionary column', async () => {
    const sql = `SELECT substring(c_phone, 1, 2) AS cc, count(*) AS n, sum(c_acctbal) AS s FROM customer
      WHERE substring(c_phone, 1, 2) IN ('13', '31', '23', '29', '30', '18', '17') GROUP BY cc ORDER BY cc`;
    await same(sql);
    await same(`SELECT id, substring(c, 1, 2) IN ('al', 'ga', 'x_') AS x FROM dicts WHERE substring(c, 1, 1) IN ('b', 'd', 'x') OR id < 20 ORDER BY id`);
  });
});
