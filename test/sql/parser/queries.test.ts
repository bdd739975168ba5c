import { describe, expect, it } from 'vitest';
import type { FromItem, Query, SelectQuery } from '../../../src/sql/ast.js';
import { parseQuery, parseSelectItems } from '../../../src/sql/parse.js';
import { stripPos } from './strip-pos.js';

const q = (sql: string) => stripPos(parseQuery(sql)) as Record<string, unknown>;
const col = (name: string, qualifier?: string) => (qualifier === undefined ? { kind: 'column', name } : { kind: 'column', name, qualifier });
const num = (value: string) => ({ kind: 'literal', literal: 'number', value });
const item = (expr: unknown, alias?: string) => (alias === undefined ? { kind: 'expr', expr } : { kind: 'expr', expr, alias });
const table = (name: string, alias?: string) => (alias === undefined ? { kind: 'table', name } : { kind: 'table', name, alias });
const select = (sql: string) => parseQuery(sql) as SelectQuery;

/** Renders a set-operation tree compactly: (a UNION ALL b). */
function shape(x: Query): string {
  if (x.kind === 'setop') return `(${shape(x.left)} ${x.op.toUpperCase()}${x.all ? ' ALL' : ''} ${shape(x.right)})`;
  if (x.kind === 'select') return x.from.length > 0 && x.from[0]!.kind === 'table' ? x.from[0]!.name : 'select';
  return x.kind;
}

/** Renders a join tree compactly. */
function joins(f: FromItem): string {
  if (f.kind === 'join') return `(${joins(f.left)} ${f.natural ? 'NATURAL ' : ''}${f.join.toUpperCase()} ${joins(f.right)}${f.using ? ` USING ${f.using.join(',')}` : ''}${f.on ? ' ON' : ''})`;
  if (f.kind === 'table') return f.alias ? `${f.name} ${f.alias}` : f.name;
  return f.kind;
}

describe('SELECT', () => {
  it('a full SELECT with every clause', () => {
    expect(q('SELECT DISTINCT a, sum(b) AS s FROM t WHERE a > 1 GROUP BY a HAVING sum(b) > 2 ORDER BY s DESC NULLS FIRST, a LIMIT 10 OFFSET 5')).toEqual({
      kind: 'select',
      distinct: true,
      items: [item(col('a')), item({ kind: 'function', name: 'sum', args: [col('b')], distinct: false, star: false }, 's')],
      from: [table('t')],
      where: { kind: 'binary', op: '>', left: col('a'), right: num('1') },
      groupBy: [col('a')],
      having: { kind: 'binary', op: '>', left: { kind: 'function', name: 'sum', args: [col('b')], distinct: false, star: false }, right: num('2') },
      orderBy: [{ expr: col('s'), desc: true, nullsFirst: true }, { expr: col('a'), desc: false }],
      limit: num('10'),
      offset: num('5'),
    });
  });

  it('SELECT ALL, no FROM, OFFSET before LIMIT, NULLS LAST, ASC', () => {
    expect(q('SELECT ALL 1')).toEqual({ kind: 'select', distinct: false, items: [item(num('1'))], from: [] });
    expect(q('SELECT a FROM t ORDER BY a ASC NULLS LAST OFFSET 2 LIMIT 3')).toMatchObject({
      orderBy: [{ expr: col('a'), desc: false, nullsFirst: false }], limit: num('3'), offset: num('2'),
    });
  });

  it('ORDER BY ALL orders by every output column', () => {
    expect(q('SELECT a, b FROM t ORDER BY ALL DESC').orderBy).toEqual([{ expr: num('1'), desc: true }, { expr: num('2'), desc: true }]);
    expect(() => parseQuery('SELECT * FROM t ORDER BY ALL')).toThrow('ORDER BY ALL needs a select list without *');
  });

  it('select items: *, t.*, aliases with and without AS, quoted and string aliases, keyword aliases', () => {
    expect(stripPos(parseSelectItems('*, t.*, a b, a AS "B c", a AS \'d\', x AS order, y first, l_extendedprice * (1 - l_discount) AS revenue'))).toEqual([
      { kind: 'star' },
      { kind: 'star', qualifier: 't' },
      item(col('a'), 'b'),
      item(col('a'), 'B c'),
      item(col('a'), 'd'),
      item(col('x'), 'order'),
      item(col('y'), 'first'),
      item({ kind: 'binary', op: '*', left: col('l_extendedprice'), right: { kind: 'binary', op: '-', left: num('1'), right: col('l_discount') } }, 'revenue'),
    ]);
  });

  it('keywords as column and table names', () => {
    expect(q('SELECT name, value, date, year, key, count, type, comment FROM data').items).toEqual(
      ['name', 'value', 'date', 'year', 'key', 'count', 'type', 'comment'].map((n) => item(col(n))),
    );
    expect(q('SELECT count(*) AS count FROM sum').from).toEqual([table('sum')]);
    expect(q('SELECT t.first FROM last t').from).toEqual([table('last', 't')]);
  });
});

describe('set operations', () => {
  it('INTERSECT binds tighter than UNION and EXCEPT, which are left-associative', () => {
    expect(shape(parseQuery('SELECT * FROM a UNION SELECT * FROM b INTERSECT SELECT * FROM c'))).toBe('(a UNION (b INTERSECT c))');
    expect(shape(parseQuery('SELECT * FROM a EXCEPT SELECT * FROM b UNION ALL SELECT * FROM c'))).toBe('((a EXCEPT b) UNION ALL c)');
    expect(shape(parseQuery('SELECT * FROM a INTERSECT ALL SELECT * FROM b EXCEPT ALL SELECT * FROM c'))).toBe('((a INTERSECT ALL b) EXCEPT ALL c)');
    expect(shape(parseQuery('SELECT * FROM a UNION DISTINCT (SELECT * FROM b UNION SELECT * FROM c)'))).toBe('(a UNION (b UNION c))');
  });

  it('ORDER BY / LIMIT after a set operation apply to the whole of it', () => {
    const x = parseQuery('SELECT a FROM t UNION ALL SELECT b FROM u ORDER BY 1 LIMIT 2');
    expect(x.kind).toBe('setop');
    expect(stripPos(x.orderBy)).toEqual([{ expr: num('1'), desc: false }]);
    expect(stripPos(x.limit)).toEqual(num('2'));
  });

  it('a parenthesised query with its own ORDER BY/LIMIT keeps it, wrapped when an outer one follows', () => {
    expect(q('(SELECT a FROM t ORDER BY a LIMIT 1)')).toMatchObject({ kind: 'select', limit: num('1') });
    const x = q('(SELECT a FROM t LIMIT 5) ORDER BY a DESC');
    expect(x).toMatchObject({ kind: 'select', items: [{ kind: 'star' }], orderBy: [{ expr: col('a'), desc: true }] });
    expect((x.from as unknown[])[0]).toMatchObject({ kind: 'subquery', query: { kind: 'select', limit: num('5') } });
    expect(q('(SELECT a FROM t) LIMIT 3')).toMatchObject({ kind: 'select', from: [table('t')], limit: num('3') });
  });

  it('TABLE t is SELECT * FROM t', () => {
    expect(q('TABLE t')).toEqual({ kind: 'select', distinct: false, items: [{ kind: 'star' }], from: [table('t')] });
  });
});

describe('VALUES and WITH', () => {
  it('VALUES as a query, a set-operation operand and a FROM item with column aliases', () => {
    expect(q('VALUES (1, 2), (3, 4)')).toEqual({ kind: 'values', rows: [[num('1'), num('2')], [num('3'), num('4')]] });
    expect(q('VALUES (1), (2),')).toEqual({ kind: 'values', rows: [[num('1')], [num('2')]] });
    expect(shape(parseQuery('VALUES (1) UNION ALL SELECT * FROM t'))).toBe('(values UNION ALL t)');
    expect(q('SELECT * FROM (VALUES (1, 2)) AS v(a, b)').from).toEqual([
      { kind: 'subquery', query: { kind: 'values', rows: [[num('1'), num('2')]] }, alias: 'v', columnAliases: ['a', 'b'] },
    ]);
  });

  it('WITH [RECURSIVE] with column lists; ORDER BY / LIMIT land on the body', () => {
    const x = q('WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 5), u AS MATERIALIZED (SELECT 2) SELECT n FROM t ORDER BY n LIMIT 3');
    expect(x).toMatchObject({ kind: 'with', recursive: true });
    expect(x.orderBy).toBeUndefined();
    expect(x.ctes).toMatchObject([{ name: 't', columns: ['n'], query: { kind: 'setop', op: 'union', all: true } }, { name: 'u', query: { kind: 'select' } }]);
    expect(x.body).toMatchObject({ kind: 'select', orderBy: [{ expr: col('n') }], limit: num('3') });
    expect(q('WITH a AS (SELECT 1) SELECT * FROM a')).toMatchObject({ kind: 'with', recursive: false, ctes: [{ name: 'a' }] });
    expect(q('(WITH a AS (SELECT 1) SELECT * FROM a) LIMIT 1')).toMatchObject({ kind: 'with', body: { limit: num('1') } });
  });
});

describe('FROM', () => {
  it('tables with aliases and column aliases, comma lists, subqueries', () => {
    expect(select('SELECT * FROM lineitem l, orders AS o(a, b), "My Table"').from.map(stripPos)).toEqual([
      table('lineitem', 'l'),
      { kind: 'table', name: 'orders', alias: 'o', columnAliases: ['a', 'b'] },
      table('My Table'),
    ]);
    expect(stripPos(select('SELECT * FROM (SELECT 1) s').from[0])).toMatchObject({ kind: 'subquery', alias: 's' });
    expect(stripPos(select('SELECT * FROM (SELECT 1)').from[0])).toMatchObject({ kind: 'subquery' });
    expect(stripPos(select('SELECT * FROM ((SELECT 1) UNION (SELECT 2)) u').from[0])).toMatchObject({ kind: 'subquery', query: { kind: 'setop' }, alias: 'u' });
    expect(stripPos(select('SELECT * FROM main.t').from[0])).toEqual(table('main.t'));
  });

  it('joins of every kind, left-deep, with ON, USING and NATURAL', () => {
    const j = (sql: string) => joins(select(`SELECT * FROM ${sql}`).from[0]!);
    expect(j('a JOIN b ON a.x = b.x')).toBe('(a INNER b ON)');
    expect(j('a INNER JOIN b USING (x, y)')).toBe('(a INNER b USING x,y)');
    expect(j('a LEFT JOIN b ON TRUE RIGHT OUTER JOIN c ON TRUE')).toBe('((a LEFT b ON) RIGHT c ON)');
    expect(j('a FULL OUTER JOIN b ON TRUE')).toBe('(a FULL b ON)');
    expect(j('a CROSS JOIN b')).toBe('(a CROSS b)');
    expect(j('a NATURAL JOIN b')).toBe('(a NATURAL INNER b)');
    expect(j('a NATURAL LEFT JOIN b')).toBe('(a NATURAL LEFT b)');
    expect(j('a x JOIN (b y JOIN c z ON TRUE) ON TRUE')).toBe('(a x INNER (b y INNER c z ON) ON)');
    expect(j('(a JOIN b ON TRUE)')).toBe('(a INNER b ON)');
  });

  it('table functions with positional arguments and named options (= or :=)', () => {
    expect(stripPos(select("SELECT * FROM read_csv('lineitem.tbl', header = true, delim := '|') AS l").from[0])).toEqual({
      kind: 'tableFunction',
      name: 'read_csv',
      args: [{ kind: 'literal', literal: 'string', value: 'lineitem.tbl' }],
      options: [
        { name: 'header', value: { kind: 'literal', literal: 'boolean', value: 'true' } },
        { name: 'delim', value: { kind: 'literal', literal: 'string', value: '|' } },
      ],
      alias: 'l',
    });
    expect(stripPos(select("SELECT * FROM read_parquet('p.parquet')").from[0])).toMatchObject({ kind: 'tableFunction', name: 'read_parquet', options: [] });
    expect(stripPos(select("SELECT * FROM READ_ARROW('p.arrow') t(a)").from[0])).toMatchObject({ name: 'read_arrow', alias: 't', columnAliases: ['a'] });
  });

  it('positions of queries and FROM items', () => {
    const x = select('SELECT a\nFROM t AS x');
    expect(x.pos).toEqual({ line: 1, column: 1, offset: 0, length: 20 });
    expect(x.from[0]!.pos).toEqual({ line: 2, column: 6, offset: 14, length: 6 });
    expect(x.items[0]!.pos).toEqual({ line: 1, column: 8, offset: 7, length: 1 });
  });
});

describe('FROM-first queries (DuckDB)', () => {
  it('parse to the AST of the SELECT-first spelling; without SELECT the list is *', () => {
    const pairs = [
      ['FROM t', 'SELECT * FROM t'],
      ['FROM t WHERE a > 1 ORDER BY a LIMIT 2', 'SELECT * FROM t WHERE a > 1 ORDER BY a LIMIT 2'],
      ['FROM t SELECT DISTINCT a, b AS c WHERE a > 1 GROUP BY ALL HAVING count(*) > 1 QUALIFY 1 = 1', 'SELECT DISTINCT a, b AS c FROM t WHERE a > 1 GROUP BY ALL HAVING count(*) > 1 QUALIFY 1 = 1'],
      ['FROM t SELECT DISTINCT ON (a) a, b', 'SELECT DISTINCT ON (a) a, b FROM t'],
      ['FROM t x JOIN u USING (k), v SELECT x.k', 'SELECT x.k FROM t x JOIN u USING (k), v'],
      ['FROM (FROM t) s SELECT a UNION FROM u', 'SELECT a FROM (SELECT * FROM t) s UNION SELECT * FROM u'],
      ['WITH c AS (FROM t) FROM c WHERE a IN (FROM u SELECT a)', 'WITH c AS (SELECT * FROM t) SELECT * FROM c WHERE a IN (SELECT a FROM u)'],
    ];
    for (const [fromFirst, selectFirst] of pairs) expect(q(fromFirst!), fromFirst).toEqual(q(selectFirst!));
  });

  it('the implied * points at FROM; the query spans from FROM to its end', () => {
    const x = select('FROM t\nSELECT a');
    expect(x.pos).toEqual({ line: 1, column: 1, offset: 0, length: 15 });
    expect(select('  FROM t').items).toEqual([{ kind: 'star', pos: { line: 1, column: 3, offset: 2, length: 4 } }]);
  });
});
