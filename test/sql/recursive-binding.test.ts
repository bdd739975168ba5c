/**
 * WITH RECURSIVE parsing and binding (src/sql/binder/recursive.ts): the
 * Iterate each form binds to (pinned with explainTree, no lowering needed),
 * the grammar of USING KEY and Materialize's recursion-limit clauses, and
 * every error with the text it points at. Results are checked against
 * DuckDB in recursive-results.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { explainTree } from '../../src/relnode/explain.js';
import type { Iterate } from '../../src/relnode/iterate.js';
import { inputs, type RelNode } from '../../src/relnode/rel.js';
import { parseQuery } from '../../src/sql/parse.js';
import { stripPos } from './parser/strip-pos.js';

let env: TableEnvironment;
beforeAll(() => {
  env = TableEnvironment.create();
  env.registerTable('edges', env.fromRecords([{ src: 1, dst: 2 }], { src: 'INTEGER', dst: 'INTEGER' }));
});

const plan = (sql: string): string => explainTree(env.sql(sql).plan).replace(/, version=\[[^\]]*\]/g, '');
const lines = (...l: string[]): string => l.join('\n');
/** The first Iterate of a plan (pre-order). */
function iterateOf(p: RelNode): Iterate {
  const stack = [p];
  while (stack.length > 0) {
    const n = stack.shift()!;
    if (n.kind === 'Iterate') return n;
    stack.push(...inputs(n));
  }
  throw new Error('no Iterate in the plan');
}
const iterateFor = (sql: string): Iterate => iterateOf(env.sql(sql).plan);
const bindError = (sql: string): string => {
  try {
    env.sql(sql);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`expected an error for: ${sql}`);
};

describe('grammar', () => {
  it('USING KEY and the recursion-limit clause', () => {
    const q = stripPos(parseQuery('WITH RECURSIVE (ERROR AT RECURSION LIMIT 7) t(k, v) USING KEY (k) AS (SELECT 1, 2 UNION SELECT k, v FROM t) SELECT * FROM t')) as Record<string, unknown>;
    expect(q['recursionLimit']).toEqual({ rounds: 7, action: 'error' });
    expect((q['ctes'] as Record<string, unknown>[])[0]!['usingKey']).toEqual({ columns: ['k'] });
    const r = stripPos(parseQuery('with recursive (return at recursion limit 0) t as (select 1) select 1')) as Record<string, unknown>;
    expect(r['recursionLimit']).toEqual({ rounds: 0, action: 'return' });
  });

  it('the words of the limit clause are checked, and stay usable as names', () => {
    expect(() => parseQuery('WITH RECURSIVE (STOP AT RECURSION LIMIT 5) t AS (SELECT 1) SELECT 1')).toThrow('unexpected "STOP"; expected RETURN or ERROR');
    expect(() => parseQuery('WITH RECURSIVE (RETURN ON RECURSION LIMIT 5) t AS (SELECT 1) SELECT 1')).toThrow('unexpected "ON"');
    expect(() => parseQuery('WITH RECURSIVE (RETURN AT RECURSION LIMIT 2.5) t AS (SELECT 1) SELECT 1')).toThrow('RECURSION LIMIT needs a whole number of rounds, got 2.5');
    expect(() => parseQuery('SELECT return, at, recursion, error FROM t')).not.toThrow();
  });
});

describe('plans', () => {
  it('UNION: a distinct accumulating Iterate; the term reads the previous round through a FeedbackRef', () => {
    expect(plan('WITH RECURSIVE t AS (SELECT 1 AS x UNION SELECT x + 1 FROM t WHERE x < 3) SELECT * FROM t')).toBe(lines(
      'Project(exprs=[x], names=[x])',
      '  Iterate(mode=[accumulate], variables=[1], data=[0], output=[0], distinct=[true])',
      '    Distinct()',
      '      Project(exprs=[x], names=[x])',
      '        Project(exprs=[1], names=[x])',
      '          Values(rows=[(0)], types=[INTEGER])',
      '    Project(exprs=[(x + 1)], names=[x])',
      '      Project(exprs=[(x + 1)], names=[(x + 1)])',
      '        Filter(condition=[(x < 3)])',
      '          FeedbackRef(variable=[0], view=[current])',
    ));
  });

  it('UNION ALL: not distinct, the anchor not deduplicated', () => {
    const it = iterateFor('WITH RECURSIVE t AS (SELECT 1 AS x UNION ALL SELECT x + 1 FROM t WHERE x < 3) SELECT * FROM t');
    expect(it.distinct).toBe(false);
    expect(it.variables[0]!.kind).toBe('Project');
  });

  it('a table the term reads is a data input, read once; several self-references are FeedbackRefs', () => {
    expect(plan('WITH RECURSIVE r(a, b) AS (SELECT src, dst FROM edges UNION SELECT r.a, e.dst FROM r JOIN edges e ON r.b = e.src JOIN r r2 ON r2.a = r.a) SELECT * FROM r')).toBe(lines(
      'Project(exprs=[a, b], names=[a, b])',
      '  Iterate(mode=[accumulate], variables=[1], data=[1], output=[0], replay=[once], distinct=[true])',
      '    Distinct()',
      '      Project(exprs=[src, dst], names=[a, b])',
      '        Project(exprs=[src, dst], names=[src, dst])',
      '          Scan(table=[edges])',
      '    Scan(table=[edges])',
      '    Project(exprs=[a, dst], names=[a, b])',
      '      Project(exprs=[a#0, dst], names=[a, dst])',
      '        Join(type=[inner], condition=[(a#4 = a#0)])',
      '          Join(type=[inner], condition=[(b = src)])',
      '            FeedbackRef(variable=[0], view=[current])',
      '            DataRef(index=[0])',
      '          FeedbackRef(variable=[0], view=[current])',
    ));
  });

  it('subqueries: a self-reference inside one stays in the body, an uncorrelated loop-free one becomes a data input', () => {
    expect(plan('WITH RECURSIVE t AS (SELECT 1 AS x UNION SELECT x + (SELECT max(dst) FROM edges) FROM t WHERE EXISTS (SELECT 1 FROM edges WHERE src = t.x) AND x < (SELECT count(*) FROM t)) SELECT * FROM t')).toBe(lines(
      'Project(exprs=[x], names=[x])',
      '  Iterate(mode=[accumulate], variables=[1], data=[2], output=[0], replay=[once, once], distinct=[true])',
      '    Distinct()',
      '      Project(exprs=[x], names=[x])',
      '        Project(exprs=[1], names=[x])',
      '          Values(rows=[(0)], types=[INTEGER])',
      '    Scan(table=[edges])',
      '    Project(exprs=[max(dst)], names=[max(dst)])',
      '      Aggregate(group=[], aggs=[max(__arg0) AS max(dst)])',
      '        Project(exprs=[dst], names=[__arg0])',
      '          Scan(table=[edges])',
      '    Project(exprs=[(x + (SELECT ...))], names=[x])',
      '      Project(exprs=[(x + SCALAR {DataRef(index=[1])})], names=[(x + (SELECT ...))])',
      '        Filter(condition=[(EXISTS {Project(exprs=[1], names=[1]) <- Filter(condition=[(src = ^x)]) <- DataRef(index=[0])} AND (CAST(x AS BIGINT) < SCALAR {Project(exprs=[count_star()], names=[count_star()]) <- Aggregate(group=[], aggs=[count(*) AS count_star()]) <- Project(exprs=[], names=[]) <- FeedbackRef(variable=[0], view=[current])}))])',
      '          FeedbackRef(variable=[0], view=[current])',
    ));
  });

  it('the term is cast to the anchor types; an anchor column of type NULL takes the term type', () => {
    expect(plan('WITH RECURSIVE t AS (SELECT 1 AS x UNION ALL SELECT x + 0.5 FROM t WHERE x < 3) SELECT * FROM t')).toContain('Project(exprs=[CAST((x + 0.5) AS INTEGER)], names=[x])');
    const it = iterateFor('WITH RECURSIVE t AS (SELECT NULL AS x UNION ALL SELECT 1 FROM t WHERE x IS NULL) SELECT * FROM t');
    expect(it.schema.fields.map((f) => f.type)).toEqual(['INTEGER']);
    expect(it.variables[0]!.schema.fields[0]!.type).toBe('INTEGER');
  });

  it('column names come from the column list, then the anchor; the CTE and its aliases qualify them', () => {
    const it = iterateFor('WITH RECURSIVE t(a) AS (SELECT 1 AS x, 2 AS y UNION SELECT zz + 1, y FROM t t1(zz) WHERE t1.zz < 3) SELECT a, y FROM t');
    expect(it.schema.fields.map((f) => f.name)).toEqual(['a', 'y']);
  });

  it('USING KEY: keys and the recurring view, qualified as the CTE', () => {
    const it = iterateFor('WITH RECURSIVE t(k, v) USING KEY (k) AS (SELECT 1, 10 UNION SELECT t.k, t.v + (SELECT count(*) FROM recurring.t) FROM t WHERE v < 13) SELECT * FROM t');
    expect(it.keys).toEqual([[0]]);
    // A keyed iteration's anchor is not wrapped in Distinct: duplicate keys overwrite each other.
    expect(it.variables[0]!.kind).toBe('Project');
    expect(explainTree(it)).toContain('FeedbackRef(variable=[0], view=[recurring])');
    expect(iterateFor('WITH RECURSIVE t(k, v) USING KEY (v, k) AS (SELECT 1, 10 UNION SELECT r.k, r.v FROM recurring.t AS r WHERE r.v < 13) SELECT * FROM t').keys).toEqual([[1, 0]]);
  });

  it('the recursion-limit clause sets maxRounds and atMaxRounds of every recursive CTE in the WITH', () => {
    const sql = (clause: string): string => `WITH RECURSIVE ${clause} t AS (SELECT 1 AS x UNION ALL SELECT x + 1 FROM t), u AS (SELECT 1 AS y) SELECT * FROM t, u`;
    const r = iterateFor(sql('(RETURN AT RECURSION LIMIT 4)'));
    expect([r.maxRounds, r.atMaxRounds]).toEqual([4, 'return']);
    const e = iterateFor(`WITH RECURSIVE (ERROR AT RECURSION LIMIT 9) t AS (SELECT 1 AS x UNION ALL SELECT x + 1 FROM t) SELECT * FROM t`);
    expect([e.maxRounds, e.atMaxRounds]).toEqual([9, 'error']);
    expect(iterateFor('WITH RECURSIVE t AS (SELECT 1 AS x UNION ALL SELECT x + 1 FROM t) SELECT * FROM t').maxRounds).toBeUndefined();
  });

  it('a CTE of WITH RECURSIVE that does not read itself is a plain CTE; later CTEs read recursive ones', () => {
    expect(plan('WITH RECURSIVE a AS (SELECT 1 AS x UNION SELECT 2) SELECT * FROM a')).not.toContain('Iterate');
    const p = plan('WITH RECURSIVE t AS (SELECT 1 AS x UNION ALL SELECT x + 1 FROM t WHERE x < 3), u AS (SELECT x * 10 AS y FROM t) SELECT * FROM u, t');
    expect(p.match(/Iterate\(/g)?.length).toBe(2);
  });

  it('an independent recursive CTE inside the recursive term is a data input (no nested iteration)', () => {
    const it = iterateFor('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + p FROM c, (WITH RECURSIVE n(p) AS (SELECT 1 UNION ALL SELECT p + 1 FROM n WHERE p < 2) SELECT * FROM n) AS _ WHERE x < 10) SELECT * FROM c');
    expect(it.data).toHaveLength(1);
    expect(iterateOf(it.data[0]!).next[0]!.kind).toBe('Project');
  });
});

describe('errors', () => {
  it('INTERSECT / EXCEPT as the recursion operator', () => {
    expect(bindError('with recursive t as (select 1 as x intersect select x+1 from t where x < 3) select * from t')).toContain('INTERSECT cannot join the anchor and the recursive term of recursive CTE "t"; use UNION or UNION ALL');
    expect(bindError('with recursive t as (select 1 as x except select x+1 from t where x < 3) select * from t')).toContain('EXCEPT cannot join');
  });

  it('ORDER BY / LIMIT / OFFSET in the recursive query or its term, pointing at the clause', () => {
    expect(bindError('with recursive t as (select 1 as x union all select x+1 from t where x < 3 order by x) select * from t')).toContain('ORDER BY is not allowed in a recursive CTE');
    expect(bindError('with recursive t as (select 1 as x union all select x+1 from t where x < 3 LIMIT 1 OFFSET 1) select * from t')).toContain('LIMIT is not allowed');
    expect(bindError('with recursive t as (select 1 as x union all select x+1 from t where x < 3 OFFSET 1) select * from t')).toContain('OFFSET is not allowed');
    expect(bindError('with recursive t as (select 1 as x union all (select x+1 from t where x < 3 limit 1)) select * from t')).toMatch(/column 83: LIMIT is not allowed in the recursive term of a recursive CTE/);
  });

  it('a self-reference in the anchor, or a self-reading CTE that is no UNION', () => {
    expect(bindError('with recursive t as (select 1 as x from t union all select 2) select * from t')).toMatch(/column 41: recursive CTE "t" reads itself in its anchor/);
    expect(bindError('with recursive t as (select 1 as x union select x + 1 from t union select x + 2 from t) select * from t')).toContain('reads itself in its anchor');
    expect(bindError('with recursive t as (select x from t) select * from t')).toContain('its query must be an anchor query, UNION [ALL], then the recursive term');
  });

  it('USING KEY misuse', () => {
    expect(bindError('with recursive t as (select 1 as x union all select x+1 from recurring.t) select * from t')).toMatch(/column 62: recurring\.t reads the keyed table of a USING KEY CTE; add USING KEY/);
    expect(bindError('with recursive t(a) using key (b) as (select 1 union all select a+1 from t) select * from t')).toContain('USING KEY column "b" is not a column of CTE "t"; did you mean "a"?');
    expect(bindError('with recursive t(a) using key (a, A) as (select 1 union all select a+1 from t) select * from t')).toContain('USING KEY names column "A" twice');
    expect(bindError('with t(a) using key (a) as (select 1) select * from t')).toContain('USING KEY needs WITH RECURSIVE');
    expect(bindError('with recursive t(a) using key (a) as (select 1) select * from t')).toContain('USING KEY needs a recursive CTE: "t" does not read itself');
    expect(bindError('with recursive t(a) using key (a) as (select 1 union select a + 1 from t) select * from recurring.t')).toContain('table "recurring.t" not found');
  });

  it('column counts and types of the term', () => {
    expect(bindError('with recursive t as (select 1 as x union all select x, x from t) select * from t')).toContain('the recursive term of CTE "t" returns 2 columns but its anchor returns 1');
    expect(bindError('with recursive t(a, b, c) as (select 1, 2 union all select a, b from t) select * from t')).toContain('CTE "t" names 3 columns but its query returns 2');
  });
});
