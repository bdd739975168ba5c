/**
 * Parquet files as DuckDB writes them: every page codec DuckDB offers reads
 * back (ZSTD, GZIP, Brotli, LZ4, LZ4_RAW, Snappy, uncompressed), and
 * row-group pruning: a filter pushed into the scan skips the row groups whose
 * footer statistics prove it false — counted here by wrapping the source —
 * while every answer stays DuckDB's (NaN above every bound, NULL counts,
 * BIGINT, DATE, TIMESTAMP and string bounds).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { parquetSource } from '../../src/io/parquet.js';
import type { ScanOptions, TableSource } from '../../src/io/source.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { openDuck, type Duck } from '../helpers/duckdb.js';
import { fileTempDir } from '../helpers/temp-dir.js';

const dir = fileTempDir('eddy-pq-prune-');
let duck: Duck;
let env: TableEnvironment;
/** Row groups that produced at least one batch since the last reset. */
let groupsRead = new Set<number>();

/** A source that records which partitions (row groups) yielded rows. */
function counting(src: TableSource): TableSource {
  return {
    schema: src.schema,
    description: src.description,
    partitions: src.partitions,
    ...(src.numRows !== undefined ? { numRows: src.numRows } : {}),
    statistics: () => src.statistics?.(),
    async *scan(options: ScanOptions) {
      for await (const b of src.scan(options)) {
        groupsRead.add(options.partition);
        yield b;
      }
    },
  };
}

beforeAll(async () => {
  duck = await openDuck();
  env = TableEnvironment.create({ parallelism: 2 });
  const file = `${dir}/p.parquet`;
  await duck.run('SET threads = 1'); // row groups of exactly ROW_GROUP_SIZE rows, in order
  await duck.run(`COPY (SELECT i::INTEGER AS id, i::BIGINT * 1000000 AS big, 'n' || lpad(i::VARCHAR, 5, '0') AS name,
      DATE '2000-01-01' + i::INTEGER AS day, TIMESTAMP '2000-01-01 00:00:00' + to_seconds(i * 60) AS ts,
      CASE WHEN i = 10 THEN 'NaN'::DOUBLE ELSE i * 0.5 END AS d,
      CASE WHEN i BETWEEN 4100 AND 4199 THEN NULL ELSE i END AS n
    FROM range(10240) t(i) ORDER BY i) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`);
  await duck.run(`CREATE TABLE p AS SELECT * FROM '${file}'`);
  const src = await parquetSource(file);
  expect(src.partitions).toBe(5);
  env.registerTable('p', counting(src));
});
afterAll(async () => {
  await env.close();
  duck.close();
});

const CASES: readonly [string, number][] = [
  ['id < 2048', 1],
  ['id = 5000', 1],
  ['id BETWEEN 3000 AND 5000', 2],
  ['5000 < id', 3],
  ['id IN (5, 10239)', 2],
  ["day >= DATE '2025-01-01'", 1],
  ["name = 'n10239'", 1],
  ["name < 'n00500' OR name > 'n09500'", 2],
  ['big > 9000000000', 1],
  ["ts < TIMESTAMP '2000-01-01 10:00:00'", 1],
  ['d > 4800', 2], // the NaN in row group 0 is above every bound: that group is read (and its NaN row kept)
  ['n IS NULL', 1],
  ["name = 'zzz'", 0],
  ['id > 100 AND id < 200', 1],
];

describe('row-group pruning from Parquet statistics', () => {
  for (const [where, groups] of CASES) {
    it(`${where}: reads ${groups} of 5 row groups, DuckDB's answer`, async () => {
      const sql = `SELECT id, big, name, day, ts, d, n FROM p WHERE ${where} ORDER BY id`;
      groupsRead = new Set();
      const r = await env.executeSql(sql);
      if (r.kind !== 'rows') throw new Error('expected rows');
      expect(groupsRead.size).toBe(groups);
      expectSameResult(fromArrow(r.table), await duck.query(sql), { ordered: true });
    });
  }

  it('without a filter reads every row group', async () => {
    groupsRead = new Set();
    await env.executeSql('SELECT count(*) FROM p');
    expect(groupsRead.size).toBe(5);
  });
});

describe('compressed Parquet pages', () => {
  for (const codec of ['zstd', 'gzip', 'brotli', 'lz4', 'lz4_raw', 'snappy', 'uncompressed']) {
    it(`reads ${codec} pages DuckDB wrote`, async () => {
      const file = `${dir}/c_${codec}.parquet`;
      await duck.run('SET threads = 1'); // row groups of exactly ROW_GROUP_SIZE rows, in order
  await duck.run(`COPY (SELECT * FROM p) TO '${file}' (FORMAT parquet, COMPRESSION ${codec})`);
      const sql = `SELECT count(*) AS c, sum(id) AS s, max(name) AS m, min(day) AS dd, sum(n) AS sn FROM read_parquet('${file}')`;
      const r = await env.executeSql(sql);
      if (r.kind !== 'rows') throw new Error('expected rows');
      expectSameResult(fromArrow(r.table), await duck.query(sql));
    });
  }
});
