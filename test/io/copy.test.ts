/**
 * COPY ... TO and COPY ... FROM: DuckDB reads what eddy writes (CSV, JSON,
 * Parquet, every column type with NULLs) and gets the rows eddy's query
 * returns; eddy reads back what it wrote; writers stream (a Parquet file of
 * several row groups from several batches) and are atomic (no temporary file
 * is left after success or failure, and a failed COPY keeps the old target).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { openDuck, type Duck } from '../helpers/duckdb.js';
import { fileTempDir } from '../helpers/temp-dir.js';

const dir = fileTempDir('eddy-copy-');
const SETUP = `CREATE TABLE t AS SELECT * FROM (VALUES
  (1, 10000000000, 'plain', 1.5, DATE '2020-01-01', TIMESTAMP '2020-01-01 10:11:12.5', true),
  (2, NULL, 'with, comma', NULL, DATE '1969-07-20', NULL, false),
  (3, -5, 'quote " and
newline', -0.25, NULL, TIMESTAMP '1999-12-31 23:59:59', NULL),
  (NULL, 7, '', 1e20, DATE '2024-02-29', TIMESTAMP '2024-02-29 00:00:00', true),
  (5, 8, NULL, 3.0, DATE '2000-03-01', TIMESTAMP '2000-03-01 01:02:03', false)) v(i, big, s, d, dt, ts, b)`;

let env: TableEnvironment;
let duck: Duck;
beforeAll(async () => {
  env = TableEnvironment.create({ batchSize: 2 });
  duck = await openDuck();
  await env.executeSql(SETUP);
  await duck.run(SETUP);
});
afterAll(async () => {
  await env.close();
  duck.close();
});

const rowsOf = async (sql: string) => {
  const r = await env.executeSql(sql);
  if (r.kind !== 'rows') throw new Error(`${sql}: no rows`);
  return fromArrow(r.table);
};
const noTempFiles = (): void => expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);

describe('COPY TO', () => {
  for (const [format, reader] of [['csv', 'read_csv'], ['json', 'read_json'], ['parquet', 'read_parquet']] as const) {
    it(`writes ${format} that DuckDB reads back as the same rows`, async () => {
      const file = join(dir, `t.${format}`);
      const r = await env.executeSql(`COPY (SELECT * FROM t) TO '${file}' (FORMAT ${format})`);
      expect(r.kind === 'status' ? r.rowsAffected : -1).toBe(5);
      noTempFiles();
      // JSON has no date or timestamp type: both readers are told which text columns hold them.
      const q = (extra = '') => `SELECT i, big, s, d, CAST(dt AS DATE) AS dt, CAST(ts AS TIMESTAMP) AS ts, b FROM ${reader}('${file}'${extra}) ORDER BY i NULLS LAST`;
      // DuckDB reads "" as NULL unless allow_quoted_nulls is off (it writes the empty string as "" itself).
      expectSameResult(await duck.query(q(format === 'csv' ? ', allow_quoted_nulls = false' : '')), await rowsOf('SELECT * FROM t ORDER BY i NULLS LAST'), { ordered: true });
      expectSameResult(await rowsOf(q()), await duck.query('SELECT * FROM t ORDER BY i NULLS LAST'), { ordered: true });
    });
  }

  it('writes a table, a column list, and the CSV options DuckDB has', async () => {
    const file = join(dir, 'opts.csv');
    await env.executeSql(`COPY t (i, s) TO '${file}' (HEADER false, DELIMITER '|')`);
    expect(readFileSync(file, 'utf8').split('\n')[0]).toBe('1|plain');
    // allow_quoted_nulls = false: DuckDB otherwise reads the empty string eddy (and DuckDB) writes as "" as NULL.
    const q = `SELECT * FROM read_csv('${file}', header = false, delim = '|', allow_quoted_nulls = false, columns = {'i': 'INTEGER', 's': 'VARCHAR'}) ORDER BY i`;
    expectSameResult(await duck.query(q), await rowsOf('SELECT i, s FROM t ORDER BY i'), { ordered: true });
  });

  it('streams: one row group per ROW_GROUP_SIZE rows, from batches of 2 rows', async () => {
    const file = join(dir, 'groups.parquet');
    await env.executeSql(`COPY (SELECT * FROM t UNION ALL SELECT * FROM t) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 3)`);
    const groups = await duck.query(`SELECT count(DISTINCT row_group_id) FROM parquet_metadata('${file}')`);
    expect(Number(groups.rows[0]![0])).toBe(4);
    const n = await duck.query(`SELECT count(*) FROM '${file}'`);
    expect(Number(n.rows[0]![0])).toBe(10);
  });

  it('is atomic: a failing query leaves the old file and no temporary file', async () => {
    const file = join(dir, 'keep.csv');
    writeFileSync(file, 'old\n');
    await expect(env.executeSql(`COPY (SELECT CAST(s AS INTEGER) AS x FROM t) TO '${file}'`)).rejects.toThrow(/could not convert/);
    expect(readFileSync(file, 'utf8')).toBe('old\n');
    noTempFiles();
    await expect(env.executeSql(`COPY t TO '${join(dir, 'no-such-dir', 'x.csv')}'`)).rejects.toThrow(/cannot write/);
  });

  it('rejects unknown options and formats', async () => {
    await expect(env.executeSql(`COPY t TO '${join(dir, 'x.csv')}' (HEADR true)`)).rejects.toThrow(/unknown COPY TO option "HEADR" for csv; did you mean "header"/);
    await expect(env.executeSql(`COPY t TO '${join(dir, 'x.csv')}' (FORMAT xlsx)`)).rejects.toThrow(/COPY FORMAT xlsx is not supported/);
    await expect(env.executeSql(`COPY t TO '${join(dir, 'x.parquet')}' (COMPRESSION lz4)`)).rejects.toThrow(/must be one of snappy, zstd, gzip, brotli, uncompressed, not lz4 \(eddy reads LZ4 pages/);
    expect(existsSync(join(dir, 'x.csv'))).toBe(false);
  });
});

describe('COPY TO parquet with COMPRESSION', () => {
  const zstdWritable = typeof (zlib as unknown as { zstdCompressSync?: unknown }).zstdCompressSync === 'function';
  for (const codec of ['gzip', 'brotli', 'zstd', 'snappy', 'uncompressed']) {
    it(`${codec}: DuckDB reads the rows and sees the codec; eddy reads them back`, async () => {
      const file = join(dir, `c-${codec}.parquet`);
      const copy = `COPY (SELECT * FROM t ORDER BY i) TO '${file}' (FORMAT parquet, COMPRESSION ${codec})`;
      if (codec === 'zstd' && !zstdWritable) {
        await expect(env.executeSql(copy)).rejects.toThrow(/writing ZSTD parquet pages needs Node.js >= 22.15/);
        noTempFiles();
        return;
      }
      await env.executeSql(copy);
      const codecs = await duck.query(`SELECT DISTINCT compression FROM parquet_metadata('${file}')`);
      expect(codecs.rows.map((r) => String(r[0]))).toEqual([codec.toUpperCase()]);
      expectSameResult(await rowsOf(`SELECT * FROM read_parquet('${file}') ORDER BY i`), await duck.query(`SELECT * FROM t ORDER BY i`));
      expectSameResult(await rowsOf(`SELECT * FROM read_parquet('${file}') ORDER BY i`), await duck.query(`SELECT * FROM read_parquet('${file}') ORDER BY i`));
    });
  }
});

describe('COPY FROM', () => {
  it('appends DuckDB-written files with the table types (csv, parquet, json)', async () => {
    for (const format of ['csv', 'parquet', 'json']) {
      const file = join(dir, `duck.${format}`);
      await duck.run(`COPY (SELECT * FROM t) TO '${file}' (FORMAT ${format})`);
      await env.executeSql('CREATE OR REPLACE TABLE u (i INTEGER, big BIGINT, s VARCHAR, d DOUBLE, dt DATE, ts TIMESTAMP, b BOOLEAN)');
      const r = await env.executeSql(`COPY u FROM '${file}'`);
      expect(r.kind === 'status' ? r.rowsAffected : -1).toBe(5);
      expectSameResult(await rowsOf('SELECT * FROM u ORDER BY i'), await duck.query('SELECT * FROM t ORDER BY i'), { ordered: true });
    }
  });

  it('fills named columns and leaves the others NULL; bumps the version like INSERT', async () => {
    const file = join(dir, 'two.csv');
    writeFileSync(file, 'a;b\n1;x\n2;y\n');
    await env.executeSql('CREATE OR REPLACE TABLE w (n INTEGER, label VARCHAR, extra DOUBLE)');
    await env.executeSql('CACHE TABLE wc AS SELECT count(*) AS c FROM w');
    await env.executeSql(`COPY w (n, label) FROM '${file}' (DELIMITER ';', HEADER)`);
    expect((await rowsOf('SELECT * FROM w ORDER BY n')).rows).toEqual([[1, 'x', null], [2, 'y', null]]);
    expect((await rowsOf('SELECT c FROM wc')).rows).toEqual([[2]]);
    await expect(env.executeSql(`COPY w FROM '${file}' (DELIMITER ';')`)).rejects.toThrow();
  });
});
