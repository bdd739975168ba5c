/**
 * roll-up-scalar-aggregate.ts: an uncorrelated scalar subquery aggregating
 * what the outer query groups reads the outer groups (plan text: the global
 * aggregate sits over the grouped one, which is computed once), results stay
 * DuckDB's; no roll-up for count, DISTINCT, or a different input.
 */
import { describe, expect, it } from 'vitest';
import '../../src/sql/index.js';
import { useHarness } from '../diff/harness.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';

const h = useHarness();

function section(text: string, name: string): string {
  const from = text.indexOf(`== ${name}`);
  const next = text.indexOf('\n== ', from + 1);
  return text.slice(from, next < 0 ? undefined : next);
}

async function same(sql: string): Promise<void> {
  expectSameResult(fromArrow(await h.env.sql(sql).collect()), await h.duck.query(sql));
}

const FROM = `FROM partsupp, supplier, nation WHERE ps_suppkey = s_suppkey AND s_nationkey = n_nationkey AND n_name = 'GERMANY'`;
// TPC-H Q11.
const Q11 = `SELECT ps_partkey, sum(ps_supplycost * ps_availqty) AS value ${FROM} GROUP BY ps_partkey
  HAVING sum(ps_supplycost * ps_availqty) > (SELECT sum(ps_supplycost * ps_availqty) * 0.0001 ${FROM}) ORDER BY value DESC, ps_partkey`;

describe('roll-up of a scalar aggregate from the outer groups', () => {
  it('TPC-H Q11: the subquery sums the per-part sums, and the grouped aggregate runs once', async () => {
    const text = await h.env.sql(Q11).explain();
    expect(section(text, 'Optimized Plan')).toMatch(/Aggregate\(group=\[\], aggs=\[sum\(sum\([^\n]*\n\s+Aggregate\(group=\[ps_partkey\]/);
    const p = section(text, 'Physical Plan');
    expect(p.match(/Scan\(partsupp/g)).toHaveLength(1);
    expect(p).toMatch(/shared: HashAggregate#\d+/);
    await same(Q11);
  });

  it('min and max of an integer column, BIGINT sums, several aggregates', async () => {
    const sql = `SELECT ps_partkey, min(ps_availqty) AS lo, max(ps_availqty) AS hi, sum(ps_availqty) AS s ${FROM} GROUP BY ps_partkey
      HAVING max(ps_availqty) > (SELECT (max(ps_availqty) + min(ps_availqty)) / 2 ${FROM})
         AND sum(ps_availqty) * 2000 > (SELECT sum(ps_availqty) ${FROM}) ORDER BY ps_partkey`;
    expect(section(await h.env.sql(sql).explain(), 'Optimized Plan')).toMatch(/aggs=\[max\(max\(ps_availqty\)\)/);
    await same(sql);
  });

  it('no roll-up for count, DISTINCT, or a subquery over a different input; results still right', async () => {
    const cases = [
      `SELECT ps_partkey, count(*) AS c ${FROM} GROUP BY ps_partkey HAVING count(*) * 100 > (SELECT count(*) ${FROM}) ORDER BY ps_partkey`,
      `SELECT ps_partkey, sum(ps_availqty) AS s ${FROM} GROUP BY ps_partkey HAVING sum(ps_availqty) > (SELECT sum(DISTINCT ps_availqty) / 1000 ${FROM}) ORDER BY ps_partkey`,
      `SELECT ps_partkey, sum(ps_availqty) AS s ${FROM} GROUP BY ps_partkey HAVING sum(ps_availqty) > (SELECT sum(ps_availqty) / 1000 ${FROM.replace('GERMANY', 'FRANCE')}) ORDER BY ps_partkey`,
    ];
    for (const sql of cases) {
      expect(section(await h.env.sql(sql).explain(), 'Optimized Plan')).not.toMatch(/Aggregate\(group=\[\][^\n]*\n\s+Aggregate\(group=\[ps_partkey\]/);
      await same(sql);
    }
  });

  it('an empty input: the rolled-up sum is NULL, as the direct one', async () => {
    const empty = FROM.replace('GERMANY', 'ATLANTIS');
    const sql = `SELECT ps_partkey, sum(ps_supplycost) AS s ${empty} GROUP BY ps_partkey HAVING sum(ps_supplycost) > (SELECT sum(ps_supplycost) / 10 ${empty})
      UNION ALL SELECT -1, (SELECT sum(ps_supplycost) ${empty})`;
    await same(sql);
  });
});
