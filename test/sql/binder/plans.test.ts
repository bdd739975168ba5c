/**
 * Plan shapes the binder produces (pinned with explainTree): the same trees
 * as the Table API for the same query, hidden sort columns, subqueries left
 * as Subquery expressions, and (through the planner's decorrelation rules)
 * the joins each kind of subquery becomes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { col, sum, TableEnvironment } from '../../../src/index.js';
import { digest } from '../../../src/relnode/digest.js';
import { explainTree } from '../../../src/relnode/explain.js';
import { DECORRELATION_RULES, optimize } from '../../../src/planner/optimizer.js';

let env: TableEnvironment;
beforeAll(() => {
  env = TableEnvironment.create();
  env.registerTpch(0.01);
  env.registerTable('a', env.fromRecords([{ x: 1, y: 'p' }], { x: 'INTEGER', y: 'VARCHAR' }));
  env.registerTable('b', env.fromRecords([{ x: 1, z: 2 }], { x: 'INTEGER', z: 'INTEGER' }));
});

/** The logical plan of a query, without table versions. */
const plan = (sql: string): string => explainTree(env.sql(sql).plan).replace(/, version=\[[^\]]*\]/g, '');
const lines = (...l: string[]): string => l.join('\n');
/** The plan after the planner's subquery removal and decorrelation rules only. */
const decorrelated = (sql: string): string => explainTree(optimize(env.sql(sql).plan, DECORRELATION_RULES)).replace(/, version=\[[^\]]*\]/g, '');

describe('SQL and the Table API build the same trees', () => {
  it('GROUP BY with an aggregate', () => {
    const api = env.from('lineitem').groupBy('l_returnflag').select('l_returnflag', sum('l_quantity').as('qty'));
    const sql = env.sql('SELECT l_returnflag, sum(L_QUANTITY) AS qty FROM lineitem GROUP BY l_returnflag');
    expect(digest(sql.plan)).toBe(digest(api.plan));
    expect(explainTree(sql.plan)).toBe(explainTree(api.plan));
  });

  it('filter and projection', () => {
    const api = env.from('nation').filter(col('n_regionkey').eq(1)).select('n_name');
    const sql = env.sql('select N_NAME from NATION where n_regionkey = 1');
    expect(digest(sql.plan)).toBe(digest(api.plan));
  });
});

describe('plan shapes', () => {
  it('ORDER BY a column not selected: a hidden sort column, projected away', () => {
    expect(plan('SELECT n_name FROM nation ORDER BY n_regionkey DESC LIMIT 3')).toBe(lines(
      'Limit(fetch=[3])',
      '  Project(exprs=[n_name], names=[n_name])',
      '    Sort(keys=[__order0 DESC NULLS LAST])',
      '      Project(exprs=[n_name, n_regionkey], names=[n_name, __order0])',
      '        Scan(table=[nation])',
    ));
  });

  it('subqueries stay Subquery expressions, outer columns OuterRefs: the binder does not decorrelate', () => {
    expect(plan('SELECT x FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.x = a.x AND z > 1)')).toBe(lines(
      'Project(exprs=[x], names=[x])',
      '  Filter(condition=[(NOT EXISTS {Project(exprs=[1], names=[1]) <- Filter(condition=[((x = ^x) AND (z > 1))]) <- Scan(table=[b])})])',
      '    Scan(table=[a])',
    ));
    expect(plan('SELECT x, x IN (SELECT z FROM b) AS m FROM a')).toBe(lines(
      'Project(exprs=[x, (x IN {Project(exprs=[z], names=[z]) <- Scan(table=[b])})], names=[x, m])',
      '  Scan(table=[a])',
    ));
  });

  it('NOT IN over nullable columns keeps SQL NULL semantics in the anti join', () => {
    expect(decorrelated('SELECT x FROM a WHERE x NOT IN (SELECT z FROM b)')).toBe(lines(
      'Project(exprs=[x], names=[x])',
      '  Join(type=[anti], condition=[((x = z) OR (x IS NULL) OR (z IS NULL))])',
      '    Scan(table=[a])',
      '    Project(exprs=[z], names=[z])',
      '      Scan(table=[b])',
    ));
  });

  it('NOT IN over non-nullable columns is a plain (hashable) anti join', () => {
    expect(decorrelated('SELECT r_name FROM region WHERE r_regionkey NOT IN (SELECT n_regionkey FROM nation)')).toContain('Join(type=[anti], condition=[(r_regionkey = n_regionkey)])');
  });

  it('correlated NOT EXISTS: an anti join on the correlation, the rest filters the subquery', () => {
    expect(decorrelated('SELECT x FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.x = a.x AND z > 1)')).toBe(lines(
      'Project(exprs=[x], names=[x])',
      '  Join(type=[anti], condition=[(x#2 = x#0)])',
      '    Scan(table=[a])',
      '    Filter(condition=[(z > 1)])',
      '      Scan(table=[b])',
    ));
  });

  it('correlated scalar subquery with an aggregate: grouped by the key, left-joined; count() over no rows is 0', () => {
    expect(decorrelated('SELECT x, (SELECT count(*) FROM b WHERE b.x = a.x) AS c FROM a')).toBe(lines(
      'Project(exprs=[x, count_star()], names=[x, c])',
      '  Project(exprs=[x, y, coalesce(count_star(), 0)], names=[x, y, count_star()])',
      '    Join(type=[left], condition=[(x = __key0)])',
      '      Scan(table=[a])',
      '      Aggregate(group=[__key0], aggs=[count(*) AS count_star()])',
      '        Project(exprs=[x], names=[__key0])',
      '          Scan(table=[b])',
    ));
  });

  it('correlated scalar subquery without an aggregate: over the domain of outer values, one row per value, checked', () => {
    const p = decorrelated('SELECT x, (SELECT z FROM b WHERE b.x = a.x) AS zz FROM a');
    expect(p).toContain('Aggregate(group=[__domain0], aggs=[count(*) AS __rows, min(z) AS z])');
    expect(p).toContain('CASE WHEN assert_single_row(__rows) THEN z ELSE NULL END');
    expect(p).toContain('Filter(condition=[(x = __domain0)])');
  });

  it('uncorrelated scalar subquery: a cross join with one row (an aggregate needs no check)', () => {
    expect(decorrelated('SELECT x, (SELECT max(z) FROM b) AS m FROM a')).toBe(lines(
      'Project(exprs=[x, max(z)], names=[x, m])',
      '  Project(exprs=[x, y, max(z)], names=[x, y, max(z)])',
      '    Join(type=[cross], condition=[true])',
      '      Scan(table=[a])',
      '      Project(exprs=[max(z)], names=[max(z)])',
      '        Aggregate(group=[], aggs=[max(__arg0) AS max(z)])',
      '          Project(exprs=[z], names=[__arg0])',
      '            Scan(table=[b])',
    ));
    expect(decorrelated('SELECT x, (SELECT z FROM b) AS zz FROM a')).toContain('CASE WHEN assert_single_row(__rows) THEN z ELSE NULL END');
  });

  it('IN (subquery) as a value: a left join with the distinct values and the row / NULL counts', () => {
    const p = decorrelated('SELECT x, x IN (SELECT z FROM b) AS m FROM a');
    expect(p.split('\n')[1]).toBe('  Project(exprs=[x, y, CASE WHEN (__value IS NOT NULL) THEN true WHEN (coalesce(__n, 0) = 0) THEN false WHEN ((x IS NULL) OR (coalesce(__nn, 0) < coalesce(__n, 0))) THEN NULL ELSE false END], names=[x, y, mark])');
    expect(p).toContain('Join(type=[left], condition=[(x = __value)])');
    expect(p).toContain('Distinct()');
  });

  it('OR branches share their common conjuncts (the join key of TPC-H Q19 stays a join key)', () => {
    const p = plan('SELECT n_name FROM nation, region WHERE (n_regionkey = r_regionkey AND r_name = \'ASIA\') OR (n_regionkey = r_regionkey AND n_name = \'FRANCE\')');
    expect(p).toContain("Filter(condition=[((n_regionkey = r_regionkey) AND ((r_name = 'ASIA') OR (n_name = 'FRANCE')))])");
  });

  it('USING hides the right copy of the key from *', () => {
    expect(plan('SELECT * FROM a JOIN b USING (x)')).toBe(lines(
      'Project(exprs=[x#0, y, z], names=[x, y, z])',
      '  Join(type=[inner], condition=[(x#0 = x#2)])',
      '    Scan(table=[a])',
      '    Scan(table=[b])',
    ));
  });

  it('literals: INTEGER, BIGINT beyond int32, DOUBLE for decimals; DATE + INTERVAL folded to a TIMESTAMP with month-end clamping', () => {
    const t = env.sql("SELECT 7 AS i, 2147483648 AS b, 1.5 AS d, DATE '1995-01-31' + INTERVAL 1 MONTH AS m, DATE '1995-01-01' + INTERVAL '3' MONTH AS q");
    expect(t.schema.fields.map((f) => f.type)).toEqual(['INTEGER', 'BIGINT', 'DOUBLE', 'TIMESTAMP', 'TIMESTAMP']);
    expect(plan("SELECT DATE '1995-01-31' + INTERVAL 1 MONTH AS m")).toContain("exprs=[TIMESTAMP '1995-02-28 00:00:00']");
    expect(plan("SELECT DATE '1995-01-01' + INTERVAL '3' MONTH AS q")).toContain("exprs=[TIMESTAMP '1995-04-01 00:00:00']");
  });

  it('column ± INTERVAL months uses add_months, days use date_add, as a TIMESTAMP; compared with a DATE column it folds to a DATE', () => {
    expect(plan('SELECT o_orderdate + INTERVAL 2 MONTH AS m, o_orderdate - INTERVAL 5 DAY AS d FROM orders')).toContain('exprs=[CAST(add_months(o_orderdate, 2) AS TIMESTAMP), CAST(date_add(o_orderdate, -5) AS TIMESTAMP)]');
    expect(plan("SELECT o_orderkey FROM orders WHERE o_orderdate < DATE '1995-01-01' + INTERVAL 3 MONTH")).toContain("(o_orderdate < DATE '1995-04-01')");
  });
});
