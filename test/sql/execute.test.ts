/**
 * The statement executor: DDL/DML sequences (create, insert, select,
 * replace, drop), views, SHOW TABLES / DESCRIBE / EXPLAIN, SET, table
 * functions, the not-yet-wired CACHE statements, error reporting across
 * statements, and SQL text in Table API methods.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testTempDir } from '../helpers/temp-dir.js';
import { col, TableEnvironment, ValidationError } from '../../src/index.js';
import { executeSql, type SqlResult } from '../../src/api/sql-statements.js';
import { rowsOf } from '../../src/api/result.js';
import { writeArrowFile, writeParquet } from '../../src/io/write.js';

let env: TableEnvironment;
beforeEach(() => { env = TableEnvironment.create(); });
afterEach(async () => { await env.close(); });

function rows(r: SqlResult | undefined): Record<string, unknown>[] {
  if (!r || r.kind !== 'rows') throw new Error(`expected rows, got ${JSON.stringify(r)}`);
  return rowsOf(r.table);
}

async function error(p: Promise<unknown> | (() => unknown)): Promise<Error> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

describe('DDL and DML', () => {
  it('creates, inserts, selects, replaces and drops a table', async () => {
    const results = await executeSql(env, `
      CREATE TABLE t (id INTEGER, name VARCHAR(20), price DECIMAL(10,2), d DATE);
      INSERT INTO t VALUES (1, 'a', 1.5, DATE '2020-01-01'), (2, 'b', NULL, '2020-02-01');
      INSERT INTO t (name, id) VALUES ('c', 3);
      SELECT * FROM t ORDER BY id;
      CREATE OR REPLACE TABLE t AS SELECT id * 10 AS id FROM t WHERE id > 1;
      SELECT * FROM t ORDER BY id;
      DROP TABLE t;
      DROP TABLE IF EXISTS t;
      SHOW TABLES`);
    expect(results.map((r) => (r.kind === 'status' ? r.message : 'rows'))).toEqual(['CREATE TABLE', 'INSERT 2', 'INSERT 1', 'rows', 'CREATE TABLE', 'rows', 'DROP TABLE', 'DROP TABLE', 'rows']);
    expect(results[1]).toMatchObject({ kind: 'status', rowsAffected: 2, statement: "INSERT INTO t VALUES (1, 'a', 1.5, DATE '2020-01-01'), (2, 'b', NULL, '2020-02-01')" });
    expect(rows(results[3])).toEqual([
      { id: 1, name: 'a', price: 1.5, d: new Date('2020-01-01') },
      { id: 2, name: 'b', price: null, d: new Date('2020-02-01') },
      { id: 3, name: 'c', price: null, d: null },
    ]);
    expect(rows(results[5])).toEqual([{ id: 20 }, { id: 30 }]);
    expect(rows(results[8])).toEqual([]);
  });

  it('CREATE OR REPLACE bumps the version; an existing name without OR REPLACE is an error', async () => {
    await env.executeSql('CREATE TABLE t AS SELECT 1 AS x');
    const v1 = (env.from('t').plan as { table: { version: number } }).table.version;
    await env.executeSql('CREATE OR REPLACE TABLE t AS SELECT 2 AS x');
    const v2 = (env.from('t').plan as { table: { version: number } }).table.version;
    expect(v2).toBeGreaterThan(v1);
    expect(await env.sql('SELECT x FROM t').toArray()).toEqual([{ x: 2 }]);
    expect((await error(env.executeSql('CREATE TABLE t AS SELECT 3 AS x'))).message).toBe(
      'line 1, column 1: table "t" already exists; use CREATE OR REPLACE TABLE, or DROP TABLE first\n  1 | CREATE TABLE t AS SELECT 3 AS x\n    | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^');
    await env.executeSql('CREATE TABLE IF NOT EXISTS t (y INTEGER)');
    expect(env.from('t').columns).toEqual(['x']);
  });

  it('unknown column types are named', async () => {
    const e = await error(env.executeSql('CREATE TABLE t (a INTEGER, b FANCY)'));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe('line 1, column 28: unknown type "FANCY" for column "b"; use one of BOOLEAN, INTEGER, BIGINT, DOUBLE, VARCHAR, DATE, TIMESTAMP\n  1 | CREATE TABLE t (a INTEGER, b FANCY)\n    |                            ^^^^^^^');
  });

  it('INSERT ... SELECT casts to the table types and reports the count', async () => {
    await env.executeSql('CREATE TABLE t (a BIGINT, b DOUBLE)');
    const r = await env.executeSql('INSERT INTO t SELECT k, k FROM (VALUES (1), (2), (3)) AS v (k)');
    expect(r).toMatchObject({ kind: 'status', message: 'INSERT 3', rowsAffected: 3 });
    expect((await env.sql('SELECT * FROM t').collect()).schema.fields.map((f) => String(f.type))).toEqual(['Int64', 'Float64']);
    expect((await error(env.executeSql('INSERT INTO nope VALUES (1)'))).message).toContain('table "nope" does not exist');
  });

  it('SHOW TABLES lists a view by the name it was created with (as DuckDB); lookups stay case-insensitive', async () => {
    const results = await executeSql(env, `CREATE TABLE Orders (x INTEGER); CREATE VIEW MyView AS SELECT 1 AS x; SHOW TABLES; SELECT * FROM myview`);
    expect(rows(results[2]).map((r) => r.name)).toEqual(['MyView', 'Orders']);
    expect(rows(results[3])).toEqual([{ x: 1 }]);
  });

  it('CREATE / DROP INDEX are accepted and do nothing', async () => {
    const r = await executeSql(env, 'CREATE TABLE t (a INTEGER); CREATE INDEX i ON t (a); DROP INDEX i');
    expect(r.map((x) => x.kind === 'status' && x.message)).toEqual(['CREATE TABLE', 'CREATE INDEX', 'DROP INDEX']);
  });
});

describe('views', () => {
  it('a view is a stored query: it sees later inserts, renames columns, is replaced and dropped', async () => {
    await executeSql(env, `
      CREATE TABLE t (a INTEGER, b VARCHAR);
      INSERT INTO t VALUES (1, 'x'), (2, 'y');
      CREATE VIEW v (n, label) AS SELECT a * 10, upper(b) FROM t WHERE a > 1`);
    expect(env.isView('v')).toBe(true);
    expect(await env.sql('SELECT * FROM v').toArray()).toEqual([{ n: 20, label: 'Y' }]);
    await env.executeSql("INSERT INTO t VALUES (3, 'z')");
    expect(await env.sql('SELECT n FROM v ORDER BY n').toArray()).toEqual([{ n: 20 }, { n: 30 }]);
    expect((await error(env.executeSql('CREATE VIEW v AS SELECT 1 AS one'))).message).toContain('view "v" already exists; use CREATE OR REPLACE VIEW');
    await env.executeSql('CREATE OR REPLACE VIEW v AS SELECT count(*) AS c FROM t');
    expect(await env.sql('SELECT * FROM v').toArray()).toEqual([{ c: 3n }]);
    expect((await error(env.executeSql('DROP TABLE v'))).message).toContain('"v" is a view; use DROP VIEW v');
    expect((await error(env.executeSql('DROP VIEW t'))).message).toContain('"t" is a table; use DROP TABLE t');
    expect((await error(env.executeSql("INSERT INTO v VALUES (1)"))).message).toContain('cannot insert into view "v"');
    await env.executeSql('DROP VIEW v');
    expect(env.hasTable('v')).toBe(false);
    expect((await env.executeSql('DROP VIEW IF EXISTS v'))).toMatchObject({ message: 'DROP VIEW' });
  });
});

describe('SHOW TABLES, DESCRIBE, EXPLAIN, SET', () => {
  it('SHOW TABLES and DESCRIBE return rows', async () => {
    await executeSql(env, 'CREATE TABLE b (x INTEGER); CREATE TABLE a (y VARCHAR, z DATE)');
    expect(rows(await env.executeSql('SHOW TABLES'))).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(rows(await env.executeSql('DESCRIBE a'))).toEqual([
      { column_name: 'y', column_type: 'VARCHAR', null: 'YES', key: null, default: null, extra: null },
      { column_name: 'z', column_type: 'DATE', null: 'YES', key: null, default: null, extra: null },
    ]);
    expect((await error(env.executeSql('DESCRIBE c'))).message).toContain('table "c" does not exist');
  });

  it('EXPLAIN and EXPLAIN ANALYZE return the plan text in one VARCHAR column', async () => {
    env.registerTpch(0.01);
    const plain = rows(await env.executeSql('EXPLAIN SELECT n_name FROM nation WHERE n_regionkey = 1'));
    expect(Object.keys(plain[0]!)).toEqual(['explain']);
    expect(plain[0]!['explain']).toBe(await env.sql('SELECT n_name FROM nation WHERE n_regionkey = 1').explain());
    const analyzed = rows(await env.executeSql('EXPLAIN ANALYZE SELECT n_name FROM nation WHERE n_regionkey = 1'));
    expect(String(analyzed[0]!['explain'])).toMatch(/5 rows in/);
  });

  it('SET integer_division switches / on integers', async () => {
    expect(await env.sql('SELECT 7 / 2 AS q').toArray()).toEqual([{ q: 3.5 }]);
    await env.executeSql('SET integer_division = true');
    expect(env.settings.get('integer_division')).toBe(true);
    expect(await env.sql('SELECT 7 / 2 AS q, 7.0 / 2 AS r').toArray()).toEqual([{ q: 3, r: 3.5 }]);
    await env.executeSql('SET integer_division = false');
    expect(await env.sql('SELECT 7 / 2 AS q').toArray()).toEqual([{ q: 3.5 }]);
    expect((await error(env.executeSql('SET integer_divison = true'))).message).toBe(
      'line 1, column 1: unknown setting "integer_divison"; did you mean "integer_division"? (known settings: integer_division, memory_limit, default_null_order)\n  1 | SET integer_divison = true\n    | ^^^^^^^^^^^^^^^^^^^^^^^^^^');    // DuckDB's SET threads (and parallelism) name the way to choose it instead of an unknown setting.
    for (const name of ['threads', 'parallelism', 'PARALLELISM']) {
      expect((await error(env.executeSql(`SET ${name} = 2`))).message).toContain(`"${name}" cannot change in a running environment: parallelism is set when it starts (the shell's --parallelism N, TableEnvironment.create({ parallelism: N }))`);
    }
  });

  it('CACHE statements (C5): eager and lazy caching, SHOW CACHES, UNCACHE, CLEAR CACHE', async () => {
    await env.executeSql('CREATE OR REPLACE TABLE cached_src AS SELECT * FROM (VALUES (1, \'a\'), (2, \'b\'), (3, NULL)) v(k, s)');
    expect(await env.executeSql('CACHE TABLE c1 AS SELECT k, s FROM cached_src WHERE k > 1')).toMatchObject({ kind: 'status', message: 'CACHE TABLE' });
    const shown = await env.executeSql('SHOW CACHES');
    if (shown.kind !== 'rows') throw new Error('expected rows');
    const rows = shown.table.toArray().map((r) => r.toJSON());
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'materialized', rows: 2n, tables: 'cached_src', lost: 0n });
    expect(String(rows[0]!['digest'])).toMatch(/^[0-9a-f]{16}$/);
    const count = await env.executeSql('SELECT count(*) AS n FROM c1');
    expect(count.kind === 'rows' && count.table.toArray()[0].toJSON()).toEqual({ n: 2n });
    expect(env.cacheManager.stats().hits).toBeGreaterThan(0);
    await env.executeSql("CACHE LAZY TABLE c2 OPTIONS ('storageLevel' = 'memory_only') AS SELECT k FROM cached_src");
    expect(env.cacheManager.list().find((e) => e.tables.includes('cached_src') && e.state === 'marked')?.storageLevel).toBe('MEMORY_ONLY');
    expect(await env.executeSql('UNCACHE TABLE c1')).toMatchObject({ message: 'UNCACHE TABLE' });
    expect(await env.executeSql('UNCACHE TABLE IF EXISTS nothing_here')).toMatchObject({ message: 'UNCACHE TABLE' });
    await expect(env.executeSql('UNCACHE TABLE nothing_here')).rejects.toThrow(/not found; use UNCACHE TABLE IF EXISTS/);
    await expect(env.executeSql("CACHE TABLE c3 OPTIONS ('storageLevel' = 'disk') AS SELECT 1")).rejects.toThrow(/storageLevel must be one of MEMORY_AND_DISK, MEMORY_ONLY/);
    expect(await env.executeSql('CLEAR CACHE')).toMatchObject({ message: 'CLEAR CACHE' });
    expect(env.cacheManager.list()).toEqual([]);
  });
});

describe('errors across statements', () => {
  it('stops at the first failing statement and names it', async () => {
    const e = await error(env.executeSql('CREATE TABLE t (a INTEGER);\nSELECT b FROM t;\nDROP TABLE t'));
    expect(e.message).toBe('statement 2 of 3 (SELECT b FROM t) failed: line 2, column 8: column "b" not found; did you mean "a"?\n  2 | SELECT b FROM t;\n    |        ^');
    expect(env.hasTable('t')).toBe(true);
  });
});

describe('table functions', () => {
  it('read_csv with options runs through executeSql; env.sql asks for executeSql', async () => {
    const dir = testTempDir('eddy-sql-');
    const path = join(dir, 'people.csv');
    writeFileSync(path, 'name;age\nann;31\nbob;NA\ncid;25\n');
    const r = await env.executeSql(`SELECT name, age + 1 AS next FROM read_csv('${path}', header = true, delim = ';', nullstr = 'NA') AS p WHERE p.name <> 'cid' ORDER BY name`);
    expect(rows(r)).toEqual([{ name: 'ann', next: 32 }, { name: 'bob', next: null }]);
    const e = await error(() => env.sql(`SELECT * FROM read_csv('${path}')`));
    expect(e.message).toContain('run this query with env.executeSql(...)');
    expect((await error(env.executeSql(`SELECT * FROM read_csv('${path}', colour = 'red')`))).message).toContain('unknown read_csv option "colour"');
    expect((await error(env.executeSql("SELECT * FROM read_csv('/nonexistent/x.csv')"))).message).toContain("read_csv('/nonexistent/x.csv')");
  });

  it('read_parquet and read_arrow, joined, and a view over a table function', async () => {
    const dir = testTempDir('eddy-sql-');
    const data = await env.sql("SELECT * FROM (VALUES (1, 'one'), (2, 'two'), (3, 'three')) AS v (id, label)").collect();
    await writeParquet(join(dir, 'a.parquet'), data);
    await writeArrowFile(join(dir, 'b.arrow'), data);
    const r = await env.executeSql(`SELECT p.id, a.label FROM read_parquet('${join(dir, 'a.parquet')}') p JOIN read_arrow('${join(dir, 'b.arrow')}') a ON p.id = a.id WHERE p.id > 1 ORDER BY p.id`);
    expect(rows(r)).toEqual([{ id: 2, label: 'two' }, { id: 3, label: 'three' }]);
    await env.executeSql(`CREATE VIEW pv AS SELECT count(*) AS n FROM read_parquet('${join(dir, 'a.parquet')}')`);
    expect(await env.sql('SELECT n FROM pv').toArray()).toEqual([{ n: 3n }]);
  });
});

describe('SQL and the Table API', () => {
  it('SQL text in Table methods and Table methods on SQL results', async () => {
    env.registerTpch(0.01);
    const t = env.from('nation').filter("n_regionkey = 1 AND n_name LIKE '%A%'").select('n_name, n_nationkey * 2 AS k2');
    const s = env.sql("SELECT n_name, n_nationkey * 2 AS k2 FROM nation WHERE n_regionkey = 1 AND n_name LIKE '%A%'");
    expect(await t.toArray()).toEqual(await s.toArray());
    const more = await env.sql('SELECT n_name, n_regionkey FROM nation').filter(col('n_regionkey').eq(0)).orderBy('n_name').limit(2).toArray();
    expect(more).toEqual([{ n_name: 'ALGERIA', n_regionkey: 0 }, { n_name: 'ETHIOPIA', n_regionkey: 0 }]);
    expect(await env.from('nation').filter("n_nationkey IN (1, 2) AND n_regionkey BETWEEN 0 AND 5").count()).toBe(2);
  });
});
