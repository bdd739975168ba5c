/**
 * The fixed costs of a small query (issue #10): the parser's work is cached by text, its lookahead
 * functions are built on first use (not all at start-up), optimizer rules whose trigger a plan lacks
 * are skipped, and parameters (`$n`, `?`) are numbered as DuckDB numbers them.
 */
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/index.js';
import { parameterCount, parseQuery, parseStats } from '../../../src/sql/parse.js';
import { lookaheadStats } from '../../../src/sql/parser-lookahead.js';
import { sqlParser } from '../../../src/sql/parser.js';
import { optimizerStats } from '../../../src/planner/optimizer.js';

describe('small-query fixed costs', () => {
  it('parses a text once: the second parse is a cache hit returning the same AST', () => {
    const text = 'SELECT a, b FROM cached_parse_t WHERE a > 1';
    const misses = parseStats.misses;
    const first = parseQuery(text);
    const hits = parseStats.hits;
    expect(parseQuery(text)).toBe(first);
    expect(parseStats.hits).toBe(hits + 1);
    expect(parseStats.misses).toBe(misses + 1);
    // A huge text is not kept.
    const big = `SELECT 1 WHERE 1 IN (${Array.from({ length: 5000 }, (_, i) => i).join(',')})`;
    const m2 = parseStats.misses;
    parseQuery(big);
    parseQuery(big);
    expect(parseStats.misses).toBe(m2 + 2);
  });

  it('builds lookahead functions lazily: a simple query builds a fraction of the grammar', () => {
    sqlParser();
    const before = lookaheadStats.built;
    parseQuery('SELECT lazy_x FROM lazy_t WHERE lazy_x = 1');
    const simple = lookaheadStats.built - before;
    parseQuery("SELECT CASE WHEN a THEN 1 ELSE 2 END, CAST(b AS INTEGER), b LIKE 'x%' FROM lazy_v ORDER BY 1 DESC LIMIT 3");
    // Each decision is built at most once: parsing the same shapes again builds nothing more.
    const after = lookaheadStats.built;
    parseQuery('SELECT lazy_y FROM lazy_t2 WHERE lazy_y = 2');
    expect(lookaheadStats.built).toBe(after);
    expect(simple).toBeLessThan(200);
  });

  it('numbers ? after $n as DuckDB does', () => {
    expect(parameterCount('SELECT ?, ?')).toBe(2);
    expect(parameterCount('SELECT $1, ?')).toBe(2);
    expect(parameterCount('SELECT $3')).toBe(3);
    expect(parameterCount("SELECT '?', '$1'")).toBe(0);
  });

  it('skips the join, limit, subquery and decorrelation rules for a plain filter query, with the same answer', async () => {
    const env = TableEnvironment.create({ parallelism: 1 });
    env.registerTable('t', env.fromRecords(Array.from({ length: 10 }, (_, i) => ({ a: i })), { a: 'INTEGER' }));
    const skipped = optimizerStats.skipped;
    const rows = await env.sql('SELECT a FROM t WHERE a > 6 ORDER BY a').toArray();
    expect(rows).toEqual([{ a: 7 }, { a: 8 }, { a: 9 }]);
    expect(optimizerStats.skipped - skipped).toBeGreaterThanOrEqual(8); // 5 decorrelation + 2 join rules + ..., per pass
    const withJoin = await env.sql('SELECT count(*) AS n FROM t x JOIN t y ON x.a = y.a WHERE x.a IN (SELECT a FROM t WHERE a < 3)').toArray();
    expect(withJoin).toEqual([{ n: 3n }]);
    await env.close();
  });
});
