/**
 * UPDATE and DELETE: the same statement sequence run by eddy and DuckDB gives
 * the same affected-row counts and the same table after every step (at
 * parallelism 1 and 2); both bump the table version, so caches built on the
 * old rows are released (C9); errors for unknown columns, type mismatches,
 * views and file-backed tables; a failing statement changes nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { openDuck, type Duck } from '../helpers/duckdb.js';
import { testTempDir } from '../helpers/temp-dir.js';

const SETUP = `CREATE TABLE t AS SELECT * FROM (VALUES
  (1, 'a', 1.5, DATE '2020-01-01', true), (2, 'b', NULL, DATE '2021-06-30', false), (3, NULL, 3.0, NULL, NULL),
  (4, 'd', -2.0, DATE '1999-12-31', true), (5, 'e', 0.5, DATE '2020-02-29', NULL)) v(i, s, d, dt, b)`;

/** Statements and their affected-row counts, checked against DuckDB's. */
const STEPS = [
  'UPDATE t SET s = upper(s), d = d * 2 WHERE i >= 2',
  'UPDATE t SET i = i + 10',
  'UPDATE t SET b = NOT b WHERE b',
  'UPDATE t SET d = 7 WHERE d IS NULL',
  'UPDATE t SET s = s || \'!\' WHERE i IN (SELECT max(i) FROM t)',
  'UPDATE t SET dt = dt + 1 WHERE NULL',
  'UPDATE t SET s = \'x\', i = i * 2 WHERE s > \'C\' OR dt < DATE \'2000-01-01\'',
  'DELETE FROM t WHERE s IS NULL',
  'DELETE FROM t WHERE i > 100',
  'DELETE FROM t WHERE b',
  'DELETE FROM t',
];

describe.each([1, 2])('UPDATE / DELETE against DuckDB (parallelism %i)', (parallelism) => {
  let env: TableEnvironment;
  let duck: Duck;
  beforeAll(async () => {
    env = TableEnvironment.create({ parallelism });
    duck = await openDuck();
    await env.executeSql(SETUP);
    await duck.run(SETUP);
  });
  afterAll(async () => {
    await env.close();
    duck.close();
  });

  it('gives the same counts and rows after every statement', async () => {
    for (const st of STEPS) {
      const mine = await env.executeSql(st);
      const theirs = await duck.query(st);
      expect(mine.kind === 'status' ? mine.rowsAffected : undefined, st).toBe(Number(theirs.rows[0]![0]));
      const q = 'SELECT * FROM t ORDER BY i, s';
      const r = await env.executeSql(q);
      if (r.kind !== 'rows') throw new Error('expected rows');
      expectSameResult(fromArrow(r.table), await duck.query(q), { ordered: true });
    }
  });
});

describe('UPDATE / DELETE and the catalog', () => {
  it('bump the table version: a cached query over the table sees the new rows (C9)', async () => {
    const env = TableEnvironment.create();
    try {
      await env.executeSql('CREATE TABLE t AS SELECT * FROM (VALUES (1, 10), (2, 20), (3, 30)) v(k, x)');
      await env.executeSql('CACHE TABLE s AS SELECT sum(x) AS total FROM t');
      const total = async (): Promise<unknown> => { const r = await env.executeSql('SELECT total FROM s'); return r.kind === 'rows' ? r.table.getChildAt(0)?.get(0) : undefined; };
      expect(await total()).toBe(60n);
      const before = env.from('t').plan;
      await env.executeSql('UPDATE t SET x = x + 1 WHERE k = 1');
      expect(env.from('t').plan).not.toEqual(before);
      expect(await total()).toBe(61n);
      await env.executeSql('DELETE FROM t WHERE k = 3');
      expect(await total()).toBe(31n);
    } finally {
      await env.close();
    }
  });

  it('report errors and leave the table unchanged when a statement fails', async () => {
    const env = TableEnvironment.create();
    try {
      await env.executeSql("CREATE TABLE t (id INTEGER NOT NULL, name VARCHAR, day DATE)");
      await env.executeSql("INSERT INTO t VALUES (1, 'one', DATE '2020-01-01'), (2, '2', NULL)");
      await env.executeSql('CREATE VIEW v AS SELECT * FROM t');
      const error = async (sql: string): Promise<string> => env.executeSql(sql).then(() => 'no error', (e: Error) => e.message);
      expect(await error('UPDATE t SET nmae = 1')).toContain('table "t" has no column "nmae"; did you mean "name"?');
      expect(await error('UPDATE t SET day = 5')).toContain('column "day" is DATE but the value is INTEGER');
      expect(await error("UPDATE t SET id = name")).toContain("could not convert string 'one' to INTEGER");
      expect(await error('UPDATE t SET id = NULL WHERE id = 2')).toContain('NOT NULL constraint failed: t.id');
      expect(await error('UPDATE t SET id = 1, id = 2')).toContain('column "id" is assigned twice');
      expect(await error('UPDATE t SET id = 1 WHERE name')).toContain('WHERE condition must be BOOLEAN, got VARCHAR');
      expect(await error('UPDATE v SET id = 1')).toContain('cannot update view "v"');
      expect(await error('DELETE FROM v')).toContain('cannot delete from view "v"');
      expect(await error('DELETE FROM nope')).toContain('table "nope" does not exist');
      // A target column named twice (DuckDB refuses it too; it inserted one of the two values).
      expect(await error("INSERT INTO t (id, ID) VALUES (3, 4)")).toContain('column "id" is named twice in the column list of INSERT INTO t');
      expect(await error("INSERT INTO t (name, id, name) SELECT 'x', 3, 'y'")).toContain('column "name" is named twice');
      const r = await env.executeSql('SELECT id, name FROM t ORDER BY id');
      expect(r.kind === 'rows' ? r.table.toArray().map((x) => [x.id, x.name]) : []).toEqual([[1, 'one'], [2, '2']]);
    } finally {
      await env.close();
    }
  });

  it('refuse file-backed tables', async () => {
    const dir = testTempDir('eddy-dml-');
    const file = join(dir, 'f.csv');
    writeFileSync(file, 'a,b\n1,2\n');
    const env = TableEnvironment.create();
    try {
      env.registerTable('f', await env.fromCsv(file));
      await expect(env.executeSql('UPDATE f SET a = 2')).rejects.toThrow(/cannot update table "f": it reads csv .*only in-memory tables change/);
      await expect(env.executeSql('DELETE FROM f')).rejects.toThrow(/cannot delete from table "f"/);
    } finally {
      await env.close();
    }
  });
});
