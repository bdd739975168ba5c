/**
 * The PIVOT / UNPIVOT grammar (parser-pivot.ts) and its AST (cst-pivot.ts): the simplified statements as
 * `SELECT * FROM <item>`, the standard-form suffixes on FROM items, DuckDB's defaults, aliases, and the
 * words that stay names (a table or column called pivot; PIVOT followed by neither a name nor `(`).
 */
import { describe, expect, it } from 'vitest';
import { parseQuery, parseStatements } from '../../../src/sql/parse.js';
import { stripPos } from './strip-pos.js';

const from = (sql: string): unknown => {
  const q = parseQuery(sql);
  if (q.kind !== 'select') throw new Error(`expected a select, got ${q.kind}`);
  return stripPos(q.from[0]);
};
const col = (name: string) => ({ kind: 'column', name });
const num = (value: string) => ({ kind: 'literal', literal: 'number', value });
const sum = (arg: string) => ({ kind: 'function', name: 'sum', args: [col(arg)], distinct: false, star: false });

describe('PIVOT syntax', () => {
  it('the simplified statement, with IN names, several aggregates and GROUP BY', () => {
    expect(from('PIVOT t ON y IN (2000 AS a, 2010) USING sum(x) AS s, max(x) m GROUP BY g, h')).toEqual({
      kind: 'pivot',
      source: { kind: 'table', name: 't' },
      on: [{ expr: col('y'), values: [{ value: num('2000'), alias: 'a' }, { value: num('2010') }] }],
      using: [{ expr: sum('x'), alias: 's' }, { expr: { ...sum('x'), name: 'max' }, alias: 'm' }],
      groupBy: [{ name: 'g' }, { name: 'h' }],
    });
  });

  it('defaults: USING count(*); no IN list means every value; PIVOT_WIDER is PIVOT', () => {
    expect(from('PIVOT_WIDER t ON a, b + 1')).toEqual({
      kind: 'pivot',
      source: { kind: 'table', name: 't' },
      on: [{ expr: col('a') }, { expr: { kind: 'binary', op: '+', left: col('b'), right: num('1') } }],
      using: [{ expr: { kind: 'function', name: 'count', args: [], distinct: false, star: true } }],
    });
  });

  it('the standard form is a suffix of a FROM item, with its alias after it', () => {
    expect(from("SELECT * FROM t AS x PIVOT (sum(v) FOR k IN ('a', 'b') GROUP BY g) p")).toMatchObject({
      kind: 'pivot',
      source: { kind: 'table', name: 't', alias: 'x' },
      on: [{ expr: col('k'), values: [{ value: { literal: 'string', value: 'a' } }, { value: { literal: 'string', value: 'b' } }] }],
      using: [{ expr: sum('v') }],
      groupBy: [{ name: 'g' }],
      alias: 'p',
    });
  });

  it('a statement works as a subquery, a CTE and a set operand, and takes ORDER BY / LIMIT', () => {
    const q = parseQuery('WITH c AS (PIVOT t ON k) SELECT * FROM (UNPIVOT u ON a, b) s UNION ALL PIVOT t ON k ORDER BY 1 LIMIT 3');
    expect(q.kind).toBe('with');
    expect(parseStatements('PIVOT t ON k USING count(*) ORDER BY 1 LIMIT 2')[0]).toMatchObject({ query: { kind: 'select', limit: num('2') } });
  });

  it('needs ON, USING or GROUP BY', () => {
    expect(() => parseQuery('PIVOT t')).toThrow(/PIVOT needs at least one of ON, USING and GROUP BY/);
  });
});

describe('UNPIVOT syntax', () => {
  it('the simplified statement with INTO NAME / VALUE, groups and AS names', () => {
    expect(from('UNPIVOT t ON a AS x, (b, c) AS y INTO NAME n VALUE v1, v2')).toEqual({
      kind: 'unpivot',
      source: { kind: 'table', name: 't' },
      entries: [{ exprs: [col('a')], alias: 'x' }, { exprs: [col('b'), col('c')], alias: 'y' }],
      nameColumn: 'n',
      valueColumns: ['v1', 'v2'],
      includeNulls: false,
    });
    expect(from('PIVOT_LONGER t ON a')).toMatchObject({ kind: 'unpivot', nameColumn: 'name', valueColumns: ['value'] });
  });

  it('the standard form, INCLUDE / EXCLUDE NULLS, string names, several value columns', () => {
    expect(from("SELECT * FROM t UNPIVOT INCLUDE NULLS (v FOR n IN (a AS 'A', b)) AS u")).toEqual({
      kind: 'unpivot',
      source: { kind: 'table', name: 't' },
      entries: [{ exprs: [col('a')], alias: 'A' }, { exprs: [col('b')] }],
      nameColumn: 'n',
      valueColumns: ['v'],
      includeNulls: true,
      alias: 'u',
    });
    expect(from('SELECT * FROM t UNPIVOT EXCLUDE NULLS ((x, y) FOR n IN ((a, b), (c, d)))')).toMatchObject({ valueColumns: ['x', 'y'], includeNulls: false, entries: [{ exprs: [col('a'), col('b')] }, { exprs: [col('c'), col('d')] }] });
  });

  it('checks the clause words', () => {
    expect(() => parseQuery('UNPIVOT t ON a INTO NAMES n VALUE v')).toThrow(/unexpected "NAMES"; expected NAME/);
    expect(() => parseQuery('UNPIVOT t ON a INTO NAME n "VALUE" v')).toThrow(/expected VALUE/);
    expect(() => parseQuery('SELECT * FROM t UNPIVOT KEEP NULLS (v FOR n IN (a))')).toThrow(/unexpected "KEEP"/);
  });
});

describe('DESCRIBE and SUMMARIZE', () => {
  it('take a PIVOT / UNPIVOT statement, and a table named pivot', () => {
    expect(stripPos(parseStatements('DESCRIBE PIVOT t ON k')[0])).toMatchObject({ kind: 'describe', name: '', query: { kind: 'select', from: [{ kind: 'pivot' }] } });
    expect(stripPos(parseStatements('SUMMARIZE UNPIVOT t ON a, b')[0])).toMatchObject({ kind: 'summarize', name: '', query: { from: [{ kind: 'unpivot' }] } });
    expect(stripPos(parseStatements('DESCRIBE pivot')[0])).toEqual({ kind: 'describe', name: 'pivot' });
    expect(stripPos(parseStatements('SUMMARIZE unpivot')[0])).toEqual({ kind: 'summarize', name: 'unpivot' });
  });
});

describe('pivot and unpivot stay names', () => {
  it('as tables, aliases, columns and qualifiers', () => {
    expect(from('SELECT pivot FROM pivot')).toEqual({ kind: 'table', name: 'pivot' });
    expect(from('SELECT * FROM t pivot')).toEqual({ kind: 'table', name: 't', alias: 'pivot' });
    expect(from('SELECT * FROM t AS unpivot (a, b)')).toEqual({ kind: 'table', name: 't', alias: 'unpivot', columnAliases: ['a', 'b'] });
    expect(from('SELECT * FROM (pivot)')).toEqual({ kind: 'table', name: 'pivot' });
    expect(from('SELECT * FROM (pivot JOIN unpivot ON pivot.a = unpivot.a)')).toMatchObject({ kind: 'join', left: { name: 'pivot' }, right: { name: 'unpivot' } });
    expect(stripPos(parseQuery('SELECT (pivot), pivot.unpivot FROM t'))).toMatchObject({ items: [{ expr: col('pivot') }, { expr: { kind: 'column', name: 'unpivot', qualifier: 'pivot' } }] });
  });
});
