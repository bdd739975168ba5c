/**
 * Worker stages over Parquet files (src/planner/ship-files.ts): the row groups of a file (or of a
 * glob of files) are dealt to the shares, each share opens the file and decodes its own row
 * groups, and the answers are parallelism 1's — bit for bit for DOUBLE sums and averages — and
 * DuckDB's. Small DuckDB-written files with many row groups keep this file fast.
 */
import { copyFileSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { parquetMetadata } from 'hyparquet';
import type * as arrow from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/index.js';
import { CancelledError, ExecutionError } from '../../src/relnode/errors.js';
import { dealFileParts } from '../../src/planner/ship-files.js';
import { parquetSource } from '../../src/io/parquet.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { openDuck, type Duck } from '../helpers/duckdb.js';
import { fileTempDir } from '../helpers/temp-dir.js';
import { workerStats } from './helpers.js';

const dir = fileTempDir('eddy-file-stages-');
const ROWS = 24_000;
const GROUP_ROWS = 2048;
const file = `${dir}/t.parquet`;
let duck: Duck;
const p1 = TableEnvironment.create({ parallelism: 1 });
const p2 = TableEnvironment.create({ parallelism: 2, workers: 'always' });
const p3 = TableEnvironment.create({ parallelism: 3, workers: 'always' });

/** Rows ordered by i (row-group statistics then prune by i); DOUBLE values of mixed magnitudes, NULLs in every column. */
const DATA = `SELECT i::INTEGER AS i, (i * 7919 % 100003)::BIGINT * 1000003 AS b,
    CASE WHEN i % 97 = 0 THEN NULL ELSE ((i * 2654435761) % 1000003) / 7.0 * (CASE WHEN i % 5 = 0 THEN 1e9 ELSE 1e-3 END) END AS d,
    CASE WHEN i % 89 = 0 THEN NULL ELSE ((i * 31) % 100000 / 100.0)::DECIMAL(12,2) END AS m,
    CASE WHEN i % 101 = 0 THEN NULL ELSE 'k' || (i % 7) END AS k,
    (i % 3)::INTEGER AS g, i % 5000 AS many, DATE '2000-01-01' + (i % 400)::INTEGER AS day
  FROM range(${ROWS}) t(i) ORDER BY i`;

beforeAll(async () => {
  duck = await openDuck();
  await duck.run('SET threads = 1'); // row groups of exactly ROW_GROUP_SIZE rows, in order
  await duck.run(`COPY (${DATA}) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE ${GROUP_ROWS})`);
  for (let f = 0; f < 3; f++) await duck.run(`COPY (SELECT * FROM (${DATA}) WHERE i % 3 = ${f}) TO '${dir}/part-${f}.parquet' (FORMAT parquet, ROW_GROUP_SIZE ${GROUP_ROWS})`);
  await duck.run(`COPY (SELECT * FROM (${DATA}) WHERE i < 1000) TO '${dir}/one.parquet' (FORMAT parquet)`);
  await duck.run(`CREATE TABLE t AS SELECT * FROM '${file}'`);
});
afterAll(async () => {
  await Promise.all([p1.close(), p2.close(), p3.close()]);
  duck.close();
});

/** The rows of a query (executeSql: read_parquet opens its file asynchronously). */
async function run(env: TableEnvironment, sql: string): Promise<arrow.Table> {
  const r = await env.executeSql(sql);
  if (r.kind !== 'rows') throw new Error('expected rows');
  return r.table;
}

const rowsOf = (t: arrow.Table): unknown[][] => t.toArray().map((r) => Object.values(r.toJSON() as Record<string, unknown>));

/** Runs `sql` (over `from`) at p1, p2 and p3: the same rows and bits at every parallelism, DuckDB's answer; returns p2's stage decisions (each shipped one ran). */
async function sameEverywhere(sql: (from: string) => string, from = `read_parquet('${file}')`, duckFrom = 't'): Promise<ReturnType<typeof workerStats>['decisions']> {
  const a = await run(p1, sql(from));
  const stages = workerStats(p2).stages;
  const b = await run(p2, sql(from));
  const decisions = workerStats(p2).decisions;
  // A stage decided as shipped ran on the workers (one that cannot ship is left here after its decision).
  expect(workerStats(p2).stages - stages).toBe(decisions.filter((x) => x.shipped).length);
  const c = await run(p3, sql(from));
  const ra = rowsOf(a);
  for (const other of [b, c]) {
    const ro = rowsOf(other);
    expect(ro.length).toBe(ra.length);
    ra.forEach((row, i) => row.forEach((v, j) => expect(Object.is(ro[i]![j], v) || (typeof v === 'bigint' && ro[i]![j] === v)).toBe(true)));
  }
  expectSameResult(fromArrow(a), await duck.query(sql(duckFrom)), { ordered: true });
  return decisions;
}

const SHIPPED = expect.objectContaining({ shipped: true });

describe('aggregates over a Parquet file on the workers', { timeout: 60_000 }, () => {
  it('deals a file\'s row groups round-robin, skipping the ones the filters prune; sums row groups\' distinct counts', async () => {
    const src = await parquetSource(file);
    expect(src.partitions).toBe(Math.ceil(ROWS / GROUP_ROWS));
    // Distinct counts: the row groups' add up to a bound of the file's (g: 3 per row group).
    const st = src.statistics!()!;
    expect(src.schema.fields.map((_, i) => st.column(i).distinct)).toEqual([undefined, undefined, undefined, undefined, 7 * 12, 3 * 12, undefined, undefined]);
    const all = dealFileParts(src.files!, undefined, 3);
    expect(all.map((p) => Array.from(p))).toEqual([0, 1, 2].map((s) => Array.from({ length: 12 }, (_, g) => g).filter((g) => g % 3 === s).flatMap((g) => [0, g])));
    // Row groups 9 (18432..20479) to 11 hold i >= 20000.
    const filters = [{ kind: 'Call', op: 'ge', args: [{ kind: 'InputRef', index: 0, type: 'INTEGER' }, { kind: 'Literal', value: 20000, type: 'INTEGER' }], type: 'BOOLEAN' }] as const;
    expect(dealFileParts(src.files!, filters as never, 2).map((p) => Array.from(p))).toEqual([[0, 9, 0, 11], [0, 10]]);
  });

  it('grouped sums, averages, counts, min and max over INTEGER, BIGINT, DOUBLE, DECIMAL and VARCHAR keys, with NULLs', async () => {
    const d = await sameEverywhere((f) => `SELECT k, count(*) AS c, count(d) AS cd, sum(i) AS si, sum(b) AS sb, sum(d) AS sd, avg(d) AS ad, avg(m) AS am, sum(m) AS sm,
        avg(i) AS ai, avg(b) AS ab, min(d) AS mind, max(m) AS maxm, min(day) AS mday, max(k) AS mk FROM ${f} GROUP BY k ORDER BY k`);
    expect(d).toEqual([expect.objectContaining({ mode: 'partial', shipped: true })]);
  });

  it('INTEGER and several keys; a HAVING above the aggregate', async () => {
    expect(await sameEverywhere((f) => `SELECT g, k, sum(d) AS s, count(*) AS c FROM ${f} GROUP BY g, k HAVING count(*) > 100 ORDER BY g, k`)).toEqual([SHIPPED]);
  });

  it('many groups: shuffled by the key (every share decodes only its own row groups)', async () => {
    const d = await sameEverywhere((f) => `SELECT many, g, sum(d) AS s, avg(m) AS a, count(*) AS c FROM ${f} GROUP BY many, g ORDER BY many, g`);
    expect(d).toEqual([expect.objectContaining({ mode: 'shuffle', shipped: true })]);
    expect(workerStats(p2).traces.at(-1)?.mode).toBe('shuffle');
  });

  it('a filter-sum without keys (TPC-H Q6\'s shape), with row groups pruned', async () => {
    expect(await sameEverywhere((f) => `SELECT sum(d * m) AS revenue, count(*) AS c FROM ${f} WHERE i >= 5000 AND i < 15000 AND day >= DATE '2000-03-01' AND m BETWEEN 10 AND 600`)).toEqual([SHIPPED]);
    // Every row group pruned.
    expect(await sameEverywhere((f) => `SELECT sum(d) AS s, count(*) AS c FROM ${f} WHERE i > 1000000`)).toEqual([SHIPPED]);
  });

  it('a join with an in-memory table: the table goes to the workers in shared memory, the file is read by row groups', async () => {
    const dimSql = "SELECT 'k' || x AS k, x * 10 AS w FROM range(7) t(x)";
    await duck.run(`CREATE OR REPLACE TABLE dim AS ${dimSql}`);
    const dim = await duck.query('SELECT k, w::INTEGER AS w FROM dim ORDER BY k');
    for (const env of [p1, p2, p3]) env.registerTable('dim', env.fromRecords(dim.rows.map(([k, w]) => ({ k: k as string, w: Number(w) }))));
    const d = await sameEverywhere((f) => `SELECT dim.w, sum(t.d) AS s, count(*) AS c FROM ${f} t JOIN dim ON t.k = dim.k WHERE t.i % 2 = 0 GROUP BY dim.w ORDER BY dim.w`, `read_parquet('${file}')`, 't');
    expect(d).toEqual([SHIPPED]);
  });

  it('a join of two files stays on the calling thread, and its decision (EXPLAIN line) says why', async () => {
    await duck.run(`COPY (SELECT 'k' || x AS k, x * 10 AS w FROM range(7) t(x)) TO '${dir}/dim.parquet' (FORMAT parquet)`);
    const d = await sameEverywhere((f) => `SELECT dd.w, sum(t.d) AS s, count(*) AS c FROM ${f} t JOIN read_parquet('${dir}/dim.parquet') dd ON t.k = dd.k GROUP BY dd.w ORDER BY dd.w`,
      `read_parquet('${file}')`, 't');
    expect(d).toEqual([expect.objectContaining({ shipped: false, reason: expect.stringMatching(/it also reads parquet .*dim\.parquet, a file \(only the scan the stage divides may read Parquet files\)/) })]);
  });

  it('a glob of files: (file, row group) pairs in file order', async () => {
    const d = await sameEverywhere((f) => `SELECT g, sum(d) AS s, avg(b) AS a, count(*) AS c, max(k) AS mk FROM ${f} GROUP BY g ORDER BY g`, `read_parquet('${dir}/part-*.parquet')`);
    expect(d).toEqual([SHIPPED]);
  });

  it('a file with one row group stays on the calling thread', async () => {
    const d = await sameEverywhere((f) => `SELECT k, sum(d) AS s, count(*) AS c FROM ${f} GROUP BY k ORDER BY k`, `read_parquet('${dir}/one.parquet')`, `(SELECT * FROM t WHERE i < 1000)`);
    expect(d).toEqual([]);
  });

  it('EXPLAIN at parallelism 2 shows the stage', async () => {
    const text = (await run(p2, `EXPLAIN SELECT k, sum(d) FROM read_parquet('${file}') GROUP BY k`)).toArray().map((x) => String(x.explain)).join('\n');
    expect(text).toMatch(new RegExp(`1\\. partial stage over ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(24,000 rows\\): shipped`));
  });

  it('a file gone at run time fails with parallelism 1\'s message, and the environment still answers', async () => {
    const gone = `${dir}/gone.parquet`;
    await duck.run(`COPY (${DATA}) TO '${gone}' (FORMAT parquet, ROW_GROUP_SIZE ${GROUP_ROWS})`);
    const sql = 'SELECT k, sum(d) AS s FROM g GROUP BY k';
    const messages: string[] = [];
    for (const env of [p1, p2, p3]) env.registerTable('g', await env.fromParquet(gone));
    rmSync(gone);
    for (const env of [p1, p2, p3]) {
      const e = await env.sql(sql).collect().then(() => undefined, (x: unknown) => x);
      expect(e).toBeInstanceOf(ExecutionError);
      messages.push((e as Error).message);
    }
    expect(messages[0]).toMatch(/cannot open parquet file .*gone\.parquet/);
    expect(messages[1]).toBe(messages[0]);
    expect(messages[2]).toBe(messages[0]);
    // The workers are fine after the failure.
    await sameEverywhere((f) => `SELECT g, count(*) AS c FROM ${f} GROUP BY g ORDER BY g`);
  });

  it('a row group corrupted after the file was opened: the same error at every parallelism', async () => {
    const bad = `${dir}/bad.parquet`;
    copyFileSync(file, bad);
    for (const env of [p1, p2, p3]) env.registerTable('bad', await env.fromParquet(bad));
    // Overwrite the middle of row group 7's column d (same size: the footer still reads).
    const meta = parquetMetadata(readFileSync(bad).buffer);
    const chunk = meta.row_groups[7]!.columns.find((c) => c.meta_data?.path_in_schema[0] === 'd')!.meta_data!;
    const at = Number(chunk.data_page_offset) + Math.floor(Number(chunk.total_compressed_size) / 2);
    const fd = openSync(bad, 'r+');
    writeSync(fd, Buffer.alloc(64, 0xab), 0, 64, at);
    closeSync(fd);
    const outcome = async (env: TableEnvironment): Promise<string> => env.sql('SELECT g, sum(d) AS s, count(*) AS c FROM bad GROUP BY g ORDER BY g').collect().then(
      (t) => JSON.stringify(rowsOf(t), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : typeof v === 'number' ? v.toString(16) : v)),
      (e: unknown) => `${(e as Error).name}: ${(e as Error).message}`,
    );
    const first = await outcome(p1);
    expect(first).toMatch(/^ExecutionError: parquet .*bad\.parquet: cannot read column "d" of row group 7/);
    expect(await outcome(p2)).toBe(first);
    expect(await outcome(p3)).toBe(first);
  });

  it('a cancelled query rejects with CancelledError, and the next one answers', async () => {
    p2.registerTable('f', await p2.fromParquet(file));
    const ac = new AbortController();
    ac.abort();
    await expect(p2.sql('SELECT k, sum(d) AS s FROM f GROUP BY k').collect({ signal: ac.signal })).rejects.toBeInstanceOf(CancelledError);
    await sameEverywhere((f) => `SELECT k, sum(d) AS s FROM ${f} GROUP BY k ORDER BY k`);
  });
});
