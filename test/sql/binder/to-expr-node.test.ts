/**
 * SQL expression text → Table API expressions (`parseExpressions`): the
 * nodes built, and Table methods taking SQL text giving the same results as
 * the equivalent Expr calls.
 */
import { describe, expect, it } from 'vitest';
import { col, date, TableEnvironment } from '../../../src/index.js';
import { toExprNodes } from '../../../src/sql/to-expr-node.js';

describe('toExprNodes', () => {
  it('builds the Table API nodes', () => {
    expect(toExprNodes('a + 1 > 2', false)).toEqual([col('a').plus(1).gt(2).node]);
    expect(toExprNodes('x BETWEEN 1 AND 2', false)).toEqual([col('x').between(1, 2).node]);
    expect(toExprNodes("d < DATE '1995-01-01' + INTERVAL 3 MONTH", false)).toEqual([col('d').lt(date('1995-04-01')).node]);
    expect(toExprNodes('t.a, b * 2 AS c, count(*) AS n, sum(DISTINCT b)', true)).toEqual([
      { k: 'col', name: 'a', qualifier: 't' },
      { k: 'alias', name: 'c', arg: col('b').times(2).node },
      { k: 'alias', name: 'n', arg: { k: 'agg', fn: 'count_star', distinct: false } },
      { k: 'agg', fn: 'sum', arg: { k: 'col', name: 'b' }, distinct: true },
    ]);
    expect(toExprNodes('-2147483648', false)).toEqual([{ k: 'lit', value: -2147483648, type: 'INTEGER' }]);
    expect(toExprNodes('3000000000', false)).toEqual([{ k: 'lit', value: 3000000000n, type: 'BIGINT' }]);
  });

  it('rejects subqueries and unknown names with a caret', () => {
    expect(() => toExprNodes('a IN (SELECT 1)', false)).toThrow('subqueries are not supported in Table API expressions');
    expect(() => toExprNodes('frob(a)', false)).toThrow('line 1, column 1: unknown function "frob"\n  1 | frob(a)\n    | ^^^^^^^');
  });

  it('drives Table methods', async () => {
    const env = TableEnvironment.create();
    env.registerTable('t', env.fromRecords([{ a: 1, s: 'x' }, { a: 5, s: 'y' }, { a: null, s: 'z' }], { a: 'INTEGER', s: 'VARCHAR' }));
    const viaText = await env.from('t').filter("a IS NOT NULL AND s IN ('x', 'y')").select("s, CASE WHEN a > 2 THEN 'big' ELSE 'small' END AS size").toArray();
    expect(viaText).toEqual([{ s: 'x', size: 'small' }, { s: 'y', size: 'big' }]);
  });
});
