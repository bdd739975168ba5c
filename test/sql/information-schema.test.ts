/**
 * information_schema (src/sql/information-schema.ts, src/api/information-schema.ts): the same DDL
 * run in eddy and in DuckDB gives the same rows in the columns eddy provides, with DuckDB's column
 * names and types; the views compose with filters, joins and aggregates like any table (also at
 * parallelism 2); a query sees the catalog as it is when it is planned, and a cached result over
 * an old catalog state never answers a query over a new one.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { col, lit, TableEnvironment } from '../../src/index.js';
import { rowsOf } from '../../src/api/result.js';
import { parseTableName } from '../../src/sql/information-schema.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { openDuck, type Duck } from '../helpers/duckdb.js';
import { testTempDir } from '../helpers/temp-dir.js';

/** DDL both engines run (types that map one to one: eddy reads DECIMAL as DOUBLE, so none here). */
const DDL = [
  'CREATE TABLE T1 (a INTEGER NOT NULL, b VARCHAR, c DOUBLE, d DATE, e TIMESTAMP, f BOOLEAN, g BIGINT NOT NULL)',
  "INSERT INTO T1 VALUES (1, 'x', 1.5, DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05', true, 10), (2, NULL, NULL, NULL, NULL, NULL, 20)",
  'CREATE TABLE u AS SELECT a, b FROM T1',
  'CREATE TABLE empty_one (k BIGINT)',
  'CREATE VIEW v AS SELECT a, a * 2 AS a2, CAST(a AS BIGINT) AS a64, NULL AS z, b || \'!\' AS b1 FROM T1 WHERE g > 5',
];

const COLUMNS = 'table_catalog, table_schema, table_name, column_name, ordinal_position, column_default, is_nullable, data_type, character_maximum_length, numeric_precision, numeric_precision_radix, numeric_scale';
const TABLES = 'table_catalog, table_schema, table_name, table_type, is_insertable_into';

async function eddyRows(env: TableEnvironment, sql: string) {
  const r = await env.executeSql(sql);
  if (r.kind !== 'rows') throw new Error(`expected rows from ${sql}`);
  return fromArrow(r.table);
}

describe('information_schema against DuckDB', () => {
  let duck: Duck;
  let env: TableEnvironment;
  beforeAll(async () => {
    duck = await openDuck();
    env = TableEnvironment.create({ parallelism: 1 });
    for (const s of DDL) {
      await duck.run(s);
      await env.executeSql(s);
    }
  });
  afterAll(async () => {
    await env.close();
    duck.close();
  });

  const same = async (sql: string): Promise<void> => {
    const e = await eddyRows(env, sql);
    const d = await duck.query(sql);
    expect(e.names).toEqual(d.names);
    expect(e.rows.length).toBeGreaterThan(0);
    expectSameResult(e, d, { ordered: true });
  };

  it('tables: the same rows for tables and views', async () => {
    await same(`SELECT ${TABLES} FROM information_schema.tables WHERE table_schema = 'main' ORDER BY table_name`);
  });

  it('columns: the same rows (names, positions, NOT NULL, DuckDB type spellings, precisions)', async () => {
    await same(`SELECT ${COLUMNS} FROM information_schema.columns WHERE table_schema = 'main' ORDER BY table_name, ordinal_position`);
  });

  it('views and schemata: the same rows in the columns both fill the same way', async () => {
    await same("SELECT table_catalog, table_schema, table_name FROM information_schema.views WHERE table_catalog = 'memory' ORDER BY table_name");
    await same("SELECT catalog_name, schema_name FROM information_schema.schemata WHERE catalog_name || '.' || schema_name IN ('memory.main', 'system.information_schema') ORDER BY 1, 2");
    const e = rowsOf((await env.sql('SELECT * FROM information_schema.schemata ORDER BY catalog_name').collect()));
    expect(e).toEqual([
      { catalog_name: 'memory', schema_name: 'main', schema_owner: 'eddy' },
      { catalog_name: 'system', schema_name: 'information_schema', schema_owner: 'eddy' },
    ]);
    expect(rowsOf(await env.sql('SELECT table_name, view_definition FROM information_schema.views').collect()))
      .toEqual([{ table_name: 'v', view_definition: DDL[4] }]);
  });

  it("each view's columns are DuckDB's of that name, in DuckDB's order, with DuckDB's types", async () => {
    for (const view of ['tables', 'columns', 'schemata', 'views']) {
      const mine = (await eddyRows(env, `DESCRIBE information_schema.${view}`)).rows.map((r) => [r[0], r[1]]);
      const theirs = (await duck.query(`DESCRIBE information_schema.${view}`)).rows.map((r) => [r[0], r[1]]);
      const order = mine.map(([name]) => theirs.findIndex(([n]) => n === name));
      expect(order.every((i) => i >= 0), `${view}: ${JSON.stringify(mine)}`).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      expect(mine).toEqual(order.map((i) => theirs[i]));
    }
  });

  it('composes with filters, joins, aggregates, subqueries and ORDER BY like any table', async () => {
    await same(`SELECT t.table_name, t.table_type, count(*) AS n, sum(c.ordinal_position) AS s, max(c.data_type) AS m
      FROM information_schema.tables t JOIN information_schema.columns c ON c.table_name = t.table_name AND c.table_schema = t.table_schema
      WHERE t.table_schema = 'main' GROUP BY t.table_name, t.table_type ORDER BY n DESC, t.table_name`);
    await same(`SELECT column_name FROM information_schema.columns WHERE table_name IN
      (SELECT table_name FROM information_schema.tables WHERE table_type = 'VIEW' AND table_schema = 'main') AND data_type <> 'INTEGER' ORDER BY column_name`);
    await same("SELECT tables.table_name FROM information_schema.tables WHERE tables.table_schema = 'main' AND table_name LIKE '%e%' ORDER BY 1");
  });

  it('main.t and memory.main.t name table t, in queries and in statements', async () => {
    await same('SELECT u.a, u.b FROM main.u ORDER BY a');
    await same('SELECT count(*) AS n FROM memory.main.T1 x JOIN main.u USING (a)');
    for (const st of ['CREATE TABLE main.t2 (a INTEGER)', 'INSERT INTO memory.main.t2 VALUES (1), (2), (3)', 'UPDATE main.t2 SET a = a * 10 WHERE a > 1',
      'DELETE FROM main.t2 WHERE a = 1', 'CREATE VIEW main.v2 AS SELECT a + 1 AS b FROM main.t2']) {
      await duck.run(st);
      await env.executeSql(st);
    }
    await same("SELECT table_name, table_type FROM information_schema.tables WHERE table_name IN ('t2', 'v2') ORDER BY 1");
    await same('SELECT * FROM v2 ORDER BY b');
    for (const st of ['DROP VIEW main.v2', 'DROP TABLE memory.main.t2']) {
      await duck.run(st);
      await env.executeSql(st);
    }
    await same("SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'main'");
  });
});

describe('information_schema and the catalog', () => {
  it('lists file-backed tables and Table API views with their columns', async () => {
    const env = TableEnvironment.create({ parallelism: 1 });
    try {
      const dir = testTempDir('eddy-infoschema-');
      writeFileSync(join(dir, 'f.csv'), 'id,name,score\n1,a,0.5\n2,b,1.5\n');
      env.registerTable('f', await env.fromCsv(join(dir, 'f.csv')));
      env.registerTable('high', env.from('f').filter(col('score').gt(1)).select('name'));
      expect(rowsOf(await env.sql('SELECT table_name, table_type FROM information_schema.tables ORDER BY 1').collect()))
        .toEqual([{ table_name: 'f', table_type: 'BASE TABLE' }, { table_name: 'high', table_type: 'VIEW' }]);
      const cols = rowsOf(await env.sql('SELECT table_name, column_name, ordinal_position, data_type FROM information_schema.columns ORDER BY 1, 3').collect());
      const described = env.from('f').schema.fields.map((fl, i) => ({ table_name: 'f', column_name: fl.name, ordinal_position: i + 1, data_type: fl.type }));
      expect(cols).toEqual([...described, { table_name: 'high', column_name: 'name', ordinal_position: 1, data_type: 'VARCHAR' }]);
      expect(rowsOf(await env.sql('SELECT table_name, view_definition FROM information_schema.views').collect()))
        .toEqual([{ table_name: 'high', view_definition: null }]);
      // The Table API reads the same views.
      const t = env.from('information_schema.columns').filter(col('table_name').eq(lit('f'))).select('column_name');
      expect(rowsOf(await t.collect()).map((r) => r['column_name'])).toEqual(['id', 'name', 'score']);
      expect(() => env.from('information_schema.colums')).toThrow(/information_schema has no view "colums"; did you mean "columns"\?/);
    } finally {
      await env.close();
    }
  });

  it('a query sees a table registered (or dropped) between two identical queries, also through a cache', async () => {
    const env = TableEnvironment.create({ parallelism: 1 });
    try {
      const q = 'SELECT table_name, count(*) AS n FROM information_schema.columns GROUP BY table_name ORDER BY table_name';
      const names = async (): Promise<unknown[]> => rowsOf(await env.sql(q).cache().collect()).map((r) => `${String(r['table_name'])}:${String(r['n'])}`);
      env.registerTable('a', env.fromRecords([{ x: 1 }]));
      expect(await names()).toEqual(['a:1']);
      expect(await names()).toEqual(['a:1']);
      expect(env.cacheManager.stats().hits).toBe(1); // the same catalog state: the cached result answers
      expect(env.cacheManager.stats().entries).toBe(1);
      env.registerTable('b', env.fromRecords([{ x: 1, y: 'q' }]));
      expect(env.cacheManager.stats().entries).toBe(0); // over an old state: released at once, not left to eviction
      expect(await names()).toEqual(['a:1', 'b:2']);
      env.registerTable('a', env.fromRecords([{ x: 1, y: 2, z: 3 }])); // replaced with more columns
      expect(await names()).toEqual(['a:3', 'b:2']);
      await env.executeSql('CREATE VIEW w AS SELECT x FROM b');
      expect(env.cacheManager.stats().entries).toBe(0); // a view is part of the state too
      expect(await names()).toEqual(['a:3', 'b:2', 'w:1']);
      env.dropTable('b');
      expect(await names()).toEqual(['a:3', 'w:1']);
      expect(env.cacheManager.stats().hits).toBe(1);
      // CACHE TABLE ... AS query defines a (cached) view.
      await env.executeSql('CACHE TABLE c AS SELECT 1 AS one');
      expect(rowsOf(await env.sql("SELECT table_type FROM information_schema.tables WHERE table_name = 'c'").collect())).toEqual([{ table_type: 'VIEW' }]);
    } finally {
      await env.close();
    }
  });

  it('a view (and a cached view) over information_schema follows the catalog, as a view over a table follows the table', async () => {
    const env = TableEnvironment.create({ parallelism: 1 });
    try {
      const list = async (sql: string): Promise<unknown[]> => rowsOf(await env.sql(sql).collect()).map((r) => r['table_name']);
      env.registerTable('a', env.fromRecords([{ x: 1 }]));
      await env.executeSql("CREATE VIEW base_tables AS SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE'");
      await env.executeSql("CACHE TABLE cols AS SELECT table_name, column_name FROM information_schema.columns WHERE table_name <> 'cols'");
      expect(await list('SELECT * FROM base_tables ORDER BY 1')).toEqual(['a']);
      expect(await list('SELECT DISTINCT table_name FROM cols ORDER BY 1')).toEqual(['a', 'base_tables']);
      env.registerTable('b', env.fromRecords([{ y: 1 }]));
      expect(await list('SELECT * FROM base_tables ORDER BY 1')).toEqual(['a', 'b']);
      expect(await list('SELECT DISTINCT table_name FROM cols ORDER BY 1')).toEqual(['a', 'b', 'base_tables']);
      // The named cache is marked again over the new state (also after a change of views only) and reused.
      await env.executeSql('CREATE VIEW w AS SELECT 1 AS one');
      const hits = env.cacheManager.stats().hits;
      expect(await list('SELECT DISTINCT table_name FROM cols ORDER BY 1')).toEqual(['a', 'b', 'base_tables', 'w']);
      expect(await list('SELECT DISTINCT table_name FROM cols ORDER BY 1')).toEqual(['a', 'b', 'base_tables', 'w']);
      expect(env.cacheManager.stats().hits).toBe(hits + 1);
      expect(env.cacheManager.stats().entries).toBe(1);
    } finally {
      await env.close();
    }
  });

  it('reads the catalog as it was when the query was planned (as a Table reads the table versions it was built on)', async () => {
    const env = TableEnvironment.create({ parallelism: 1 });
    try {
      env.registerTable('a', env.fromRecords([{ x: 1 }]));
      const before = env.sql('SELECT count(*) AS n FROM information_schema.tables');
      const prepared = env.prepare('SELECT count(*) AS n FROM information_schema.tables WHERE table_name <> $1');
      env.registerTable('b', env.fromRecords([{ x: 1 }]));
      expect(rowsOf(await before.collect())).toEqual([{ n: 1n }]);
      expect(rowsOf(await env.sql('SELECT count(*) AS n FROM information_schema.tables').collect())).toEqual([{ n: 2n }]);
      expect(rowsOf(await prepared.execute('zzz'))).toEqual([{ n: 2n }]); // a prepared statement re-binds after a catalog change
      // One query, one state: both sides of a self-join read the same snapshot.
      expect(rowsOf(await env.sql('SELECT count(*) AS n FROM information_schema.tables x, information_schema.tables y').collect())).toEqual([{ n: 4n }]);
    } finally {
      await env.close();
    }
  });

  it('gives the same results at parallelism 2 as at 1', async () => {
    const e1 = TableEnvironment.create({ parallelism: 1 });
    const e2 = TableEnvironment.create({ parallelism: 2 });
    try {
      for (const env of [e1, e2]) {
        env.registerTpch(0.001);
        await env.executeSql('CREATE VIEW big_orders AS SELECT o_orderkey, o_totalprice FROM orders WHERE o_totalprice > 100000');
      }
      const q = `SELECT t.table_type, c.data_type, count(*) AS n, min(c.column_name) AS first
        FROM information_schema.columns c JOIN information_schema.tables t USING (table_name)
        JOIN lineitem l ON l.l_linenumber = c.ordinal_position
        GROUP BY t.table_type, c.data_type ORDER BY 1, 2`;
      const a = fromArrow(await e2.sql(q).collect());
      expect(a.rows.length).toBeGreaterThan(3);
      expectSameResult(a, fromArrow(await e1.sql(q).collect()), { ordered: true });
    } finally {
      await e1.close();
      await e2.close();
    }
  });
});

describe('information_schema names and errors', () => {
  it('splits qualified names', () => {
    expect(parseTableName('orders')).toEqual({ schema: 'main', name: 'orders' });
    expect(parseTableName('MAIN.Orders')).toEqual({ schema: 'main', name: 'Orders' });
    expect(parseTableName('memory.main.orders')).toEqual({ schema: 'main', name: 'orders' });
    expect(parseTableName('Information_Schema.TABLES')).toEqual({ schema: 'information_schema', view: 'tables' });
    expect(parseTableName('system.information_schema.columns')).toEqual({ schema: 'information_schema', view: 'columns' });
    expect(parseTableName('other.orders')).toEqual({ schema: 'main', name: 'other.orders' });
  });

  it('an unknown view names the ones that exist; an unknown schema is an unknown table', async () => {
    const env = TableEnvironment.create({ parallelism: 1 });
    try {
      env.registerTable('orders', env.fromRecords([{ x: 1 }]));
      expect(() => env.sql('SELECT * FROM information_schema.tabels')).toThrow(/line 1, column 15: information_schema has no view "tabels"; did you mean "tables"\? \(views: columns, schemata, tables, views\)/);
      expect(() => env.sql('SELECT * FROM information_schema.routines')).toThrow(/no view "routines" \(views: columns, schemata, tables, views\)/);
      await expect(env.executeSql('DESCRIBE information_schema.nope')).rejects.toThrow(/information_schema has no view "nope"/);
      expect(() => env.sql('SELECT * FROM other.orders')).toThrow(/table "other.orders" not found; did you mean "orders"\?/);
      const readOnly = /"information_schema.tables" is a read-only view of the catalog \(information_schema\): query it with SELECT; it cannot be changed or dropped/;
      for (const st of ['INSERT INTO information_schema.tables VALUES (1)', "DELETE FROM information_schema.tables WHERE table_name = 'orders'",
        "UPDATE information_schema.tables SET table_name = 'x'", 'DROP TABLE information_schema.tables', 'DROP VIEW IF EXISTS information_schema.columns']) {
        // IF EXISTS skips a missing name, not a read-only view (DuckDB: "Cannot drop internal catalog entry").
        await expect(env.executeSql(st), st).rejects.toThrow(st.includes('columns') ? /"information_schema.columns" is a read-only view of the catalog/ : readOnly);
      }
      await expect(env.executeSql('DELETE FROM ordrs')).rejects.toThrow(/table "ordrs" does not exist; did you mean "orders"\?/);
    } finally {
      await env.close();
    }
  });
});
