import { describe, expect, it } from 'vitest';
import type { Statement } from '../../../src/sql/ast.js';
import { parseStatements, statementText } from '../../../src/sql/parse.js';
import { stripPos } from './strip-pos.js';

const one = (sql: string) => {
  const all = parseStatements(sql);
  expect(all).toHaveLength(1);
  return stripPos(all[0]) as Record<string, unknown>;
};
const num = (value: string) => ({ kind: 'literal', literal: 'number', value });

describe('statements', () => {
  it('splits on ;, skips empty statements, keeps each statement text', () => {
    const text = ';; SELECT 1;\n\nSELECT 2 ; ;\n-- only a comment\nSELECT 3';
    const all = parseStatements(text);
    expect(all.map((s) => s.kind)).toEqual(['query', 'query', 'query']);
    expect(all.map((s) => statementText(text, s))).toEqual(['SELECT 1', 'SELECT 2', 'SELECT 3']);
    expect(all[1]!.pos).toEqual({ line: 3, column: 1, offset: 14, length: 8 });
    expect(parseStatements('')).toEqual([]);
    expect(parseStatements(' ; -- nothing\n')).toEqual([]);
  });

  it('CREATE TABLE with types, NOT NULL, PRIMARY KEY (inline and as a constraint)', () => {
    expect(one('CREATE TABLE IF NOT EXISTS t (a INTEGER NOT NULL, b VARCHAR(25) NULL, c DECIMAL(15,2) PRIMARY KEY, "D d" DOUBLE PRECISION, e DATE, PRIMARY KEY (e))')).toEqual({
      kind: 'createTable',
      name: 't',
      columns: [
        { name: 'a', type: 'INTEGER', notNull: true },
        { name: 'b', type: 'VARCHAR(25)', notNull: false },
        { name: 'c', type: 'DECIMAL(15,2)', notNull: true },
        { name: 'D d', type: 'DOUBLE PRECISION', notNull: false },
        { name: 'e', type: 'DATE', notNull: true },
      ],
      orReplace: false,
      ifNotExists: true,
    });
    expect(one('create or replace temp table x(i int)')).toMatchObject({ kind: 'createTable', name: 'x', orReplace: true, ifNotExists: false });
    expect(() => parseStatements('CREATE TABLE t (a INT, PRIMARY KEY (b))')).toThrow('key column "b"');
  });

  it('CREATE TABLE AS, CREATE VIEW, CREATE INDEX', () => {
    expect(one('CREATE OR REPLACE TABLE t AS SELECT 1')).toMatchObject({ kind: 'createTableAs', name: 't', orReplace: true, query: { kind: 'select' } });
    expect(one('CREATE TABLE t AS (SELECT 1) UNION ALL (SELECT 2)')).toMatchObject({ kind: 'createTableAs', query: { kind: 'setop' } });
    expect(one('CREATE TABLE t (a BIGINT) AS VALUES (1), (2)')).toMatchObject({
      kind: 'createTableAs',
      query: {
        items: [{ kind: 'expr', expr: { kind: 'cast', arg: { kind: 'column', name: 'a' }, type: 'BIGINT' }, alias: 'a' }],
        from: [{ kind: 'subquery', query: { kind: 'values' }, alias: 't', columnAliases: ['a'] }],
      },
    });
    expect(one('CREATE VIEW v (x, y) AS SELECT a, b FROM t')).toMatchObject({ kind: 'createView', name: 'v', columns: ['x', 'y'], orReplace: false, ifNotExists: false });
    expect(one('CREATE OR REPLACE VIEW v AS SELECT 1')).toMatchObject({ kind: 'createView', orReplace: true });
    expect(one('CREATE UNIQUE INDEX i ON t (a, b DESC)')).toEqual({ kind: 'createIndex', name: 'i', table: 't' });
    expect(one('CREATE INDEX idx ON t1(a)')).toEqual({ kind: 'createIndex', name: 'idx', table: 't1' });
  });

  it('CREATE EXTERNAL TABLE (DataFusion) becomes CREATE TABLE AS over read_csv', () => {
    expect(one("CREATE EXTERNAL TABLE sales STORED AS CSV LOCATION '../sales.csv' OPTIONS ('format.has_header' 'true')")).toEqual({
      kind: 'createTableAs',
      name: 'sales',
      query: {
        kind: 'select', distinct: false, items: [{ kind: 'star' }],
        from: [{ kind: 'tableFunction', name: 'read_csv', args: [{ kind: 'literal', literal: 'string', value: '../sales.csv' }], options: [{ name: 'header', value: { kind: 'literal', literal: 'boolean', value: 'true' } }] }],
      },
      orReplace: false,
      ifNotExists: false,
    });
    expect(one("CREATE EXTERNAL TABLE t (id VARCHAR, v INT) STORED AS CSV WITH HEADER ROW LOCATION 'x.csv'")).toMatchObject({
      query: { items: [{ alias: 'id' }, { alias: 'v' }], from: [{ alias: 't', columnAliases: ['id', 'v'], options: [{ name: 'header' }] }] },
    });
    expect(() => parseStatements("CREATE EXTERNAL TABLE t STORED AS JSON LOCATION 'x'")).toThrow('STORED AS JSON is not supported');
  });

  it('INSERT with and without a column list, from VALUES or a query', () => {
    expect(one('INSERT INTO t(e, c) VALUES (1, 2), (3, 4)')).toEqual({
      kind: 'insert', table: 't', columns: ['e', 'c'], source: { kind: 'values', rows: [[num('1'), num('2')], [num('3'), num('4')]] },
    });
    expect(one('INSERT INTO t SELECT * FROM u')).toMatchObject({ kind: 'insert', table: 't', source: { kind: 'select' } });
    expect(one('INSERT INTO t (SELECT 1)')).toMatchObject({ kind: 'insert', source: { kind: 'select' } });
    expect(one('insert into t (a) (select 1)')).toMatchObject({ kind: 'insert', columns: ['a'], source: { kind: 'select' } });
  });

  it('DROP, SHOW, DESCRIBE, EXPLAIN', () => {
    expect(one('DROP TABLE IF EXISTS t')).toEqual({ kind: 'drop', object: 'table', name: 't', ifExists: true });
    expect(one('drop view v')).toEqual({ kind: 'drop', object: 'view', name: 'v', ifExists: false });
    expect(one('DROP INDEX i')).toEqual({ kind: 'drop', object: 'index', name: 'i', ifExists: false });
    expect(one('SHOW TABLES')).toEqual({ kind: 'showTables' });
    expect(one('SHOW CACHES')).toEqual({ kind: 'showCaches' });
    expect(one('DESCRIBE lineitem')).toEqual({ kind: 'describe', name: 'lineitem' });
    expect(one('EXPLAIN SELECT 1')).toMatchObject({ kind: 'explain', analyze: false, statement: { kind: 'query' } });
    expect(one('EXPLAIN ANALYZE INSERT INTO t VALUES (1)')).toMatchObject({ kind: 'explain', analyze: true, statement: { kind: 'insert' } });
    const text = 'EXPLAIN  SELECT 1 + 2';
    const ex = parseStatements(text)[0] as Extract<Statement, { kind: 'explain' }>;
    expect(statementText(text, ex.statement)).toBe('SELECT 1 + 2');
  });

  it('SET and PRAGMA with strings, numbers, booleans and bare words', () => {
    expect(one("SET default_null_order = 'nulls_first'")).toEqual({ kind: 'set', name: 'default_null_order', value: 'nulls_first' });
    expect(one('SET threads TO 4')).toEqual({ kind: 'set', name: 'threads', value: 4 });
    expect(one('SET x = -1.5')).toEqual({ kind: 'set', name: 'x', value: -1.5 });
    expect(one('set integer_division = true')).toEqual({ kind: 'set', name: 'integer_division', value: true });
    expect(one('SET search_path = main')).toEqual({ kind: 'set', name: 'search_path', value: 'main' });
    expect(one('set datafusion.execution.batch_size = 2')).toEqual({ kind: 'set', name: 'datafusion.execution.batch_size', value: 2 });
    expect(one("PRAGMA default_null_order='NULLS LAST'")).toEqual({ kind: 'set', name: 'default_null_order', value: 'NULLS LAST' });
    expect(one('PRAGMA enable_verification')).toEqual({ kind: 'set', name: 'enable_verification', value: true });
  });

  it('CACHE, UNCACHE, CLEAR CACHE', () => {
    expect(one('CACHE TABLE t')).toEqual({ kind: 'cache', lazy: false, name: 't', options: {} });
    expect(one("CACHE LAZY TABLE big OPTIONS ('storage' = 'memory', tier 'disk') AS SELECT * FROM lineitem WHERE l_quantity > 10")).toMatchObject({
      kind: 'cache', lazy: true, name: 'big', options: { storage: 'memory', tier: 'disk' }, query: { kind: 'select' },
    });
    expect(one('UNCACHE TABLE IF EXISTS big')).toEqual({ kind: 'uncache', name: 'big', ifExists: true });
    expect(one('uncache table t')).toEqual({ kind: 'uncache', name: 't', ifExists: false });
    expect(one('CLEAR CACHE')).toEqual({ kind: 'clearCache' });
  });

  it('statement words are not reserved: they still name tables and columns', () => {
    expect(one('SELECT show, cache, set, explain, describe, tables FROM clear')).toMatchObject({ kind: 'query' });
    expect(one('CREATE TABLE index (key INTEGER, value VARCHAR, view TEXT)')).toMatchObject({ name: 'index', columns: [{ name: 'key' }, { name: 'value' }, { name: 'view' }] });
  });
});
