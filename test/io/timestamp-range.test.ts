/**
 * TIMESTAMP values past eddy's range (±8.64e15 ms, relnode/types.ts) in binary files: Arrow IPC in
 * every unit and Parquet written by DuckDB (whose microsecond TIMESTAMP reaches further) are refused
 * with the file, the column and the value, never read as NULL or as a wrapped value; values at the
 * ends of the range and NULL slots holding anything read as they are.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as arrow from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionError, TableEnvironment } from '../../src/index.js';
import { fromArrow } from '../helpers/compare.js';
import { openDuck, type Duck } from '../helpers/duckdb.js';
import { testTempDir } from '../helpers/temp-dir.js';

const RANGE = 'TIMESTAMP values lie between 271822-04-20 (BC) and 275760-09-13';

let env: TableEnvironment;
let duck: Duck;

beforeAll(async () => {
  env = TableEnvironment.create({ parallelism: 1 });
  duck = await openDuck();
});

afterAll(async () => {
  await env?.close();
  duck?.close();
});

/** An Arrow IPC file of one timestamp column `ts` of `type` with `values` (null for NULL). */
function arrowFile(dir: string, name: string, type: arrow.Timestamp, values: readonly (bigint | null)[]): string {
  const data = arrow.makeData({ type, length: values.length, nullCount: values.filter((v) => v === null).length,
    nullBitmap: arrow.util.packBools(values.map((v) => v !== null)), data: BigInt64Array.from(values, (v) => v ?? 9223372036854775807n) });
  const path = join(dir, name);
  writeFileSync(path, arrow.tableToIPC(new arrow.Table({ ts: arrow.makeVector(data) }), 'file'));
  return path;
}

/** The rows of a query (read_arrow / read_parquet run through executeSql: they open files). */
async function query(sql: string): Promise<unknown[][]> {
  const r = await env.executeSql(sql);
  if (r.kind !== 'rows') throw new Error(`expected rows from ${sql}`);
  return fromArrow(r.table).rows;
}

async function failure(sql: string): Promise<Error> {
  const e = await env.executeSql(sql).then(() => undefined, (x: unknown) => x);
  if (!(e instanceof Error)) throw new Error(`expected an error from ${sql}`);
  return e;
}

describe('TIMESTAMP values past the range in Arrow IPC files', () => {
  it('milliseconds: the ends of the range read; past them an error naming file, column and value; a NULL slot may hold anything', async () => {
    const dir = testTempDir('eddy-ts-range-');
    const ok = arrowFile(dir, 'ok.arrow', new arrow.TimestampMillisecond(), [8_640_000_000_000_000n, -8_640_000_000_000_000n, null, 0n]);
    const rows = await query(`SELECT CAST(ts AS VARCHAR) AS t FROM read_arrow('${ok}')`);
    expect(rows).toEqual([['275760-09-13 00:00:00'], ['271822-04-20 (BC) 00:00:00'], [null], ['1970-01-01 00:00:00']]);
    const bad = arrowFile(dir, 'bad.arrow', new arrow.TimestampMillisecond(), [0n, 9_000_000_000_000_000n]);
    const e = await failure(`SELECT * FROM read_arrow('${bad}')`);
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toContain(`arrow ${bad}, column "ts": TIMESTAMP value 287168-08-24 16:00:00 is past the range of TIMESTAMP (${RANGE})`);
    // Also through env.fromArrowFile.
    await expect(env.fromArrowFile(bad).then((t) => t.collect())).rejects.toThrow(/column "ts": TIMESTAMP value 287168-08-24 16:00:00 is past the range/);
  });

  it('seconds (whose milliseconds pass int64), microseconds and nanoseconds, converted and checked', async () => {
    const dir = testTempDir('eddy-ts-range-');
    const sec = arrowFile(dir, 's.arrow', new arrow.TimestampSecond(), [9_223_372_036_854_775n]);
    expect((await failure(`SELECT * FROM read_arrow('${sec}')`)).message).toMatch(/column "ts": TIMESTAMP value 9223372036854775000 ms from 1970-01-01 is past the range of TIMESTAMP/);
    const micro = arrowFile(dir, 'us.arrow', new arrow.TimestampMicrosecond(), [9_000_000_000_000_000_000n]);
    expect((await failure(`SELECT * FROM read_arrow('${micro}')`)).message).toContain('column "ts": TIMESTAMP value 287168-08-24 16:00:00 is past the range');
    const nano = arrowFile(dir, 'ns.arrow', new arrow.TimestampNanosecond(), [-1n, null]);
    expect(await query(`SELECT CAST(ts AS VARCHAR) AS t FROM read_arrow('${nano}')`)).toEqual([['1969-12-31 23:59:59.999'], [null]]);
  });
});

describe('TIMESTAMP values past the range in Parquet', () => {
  it("DuckDB's microsecond TIMESTAMPs past eddy's range: an error with the row; DuckDB reads them (its range is wider)", async () => {
    const dir = testTempDir('eddy-ts-range-');
    const path = join(dir, 'far.parquet');
    await duck.run(`COPY (SELECT * FROM (VALUES (1, TIMESTAMP '2020-01-01 00:00:00'), (2, NULL), (3, TIMESTAMP '290000-01-01 00:00:00')) v(k, ts)) TO '${path}' (FORMAT PARQUET)`);
    expect((await duck.query(`SELECT count(*) FROM read_parquet('${path}')`)).rows).toEqual([[3]]);
    const e = await failure(`SELECT k, ts FROM read_parquet('${path}')`);
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toContain(`parquet ${path}, column "ts", row 3: TIMESTAMP value 290000-01-01 00:00:00 is past the range of TIMESTAMP (${RANGE})`);
    // The columns without such values read.
    expect(await query(`SELECT sum(k) AS s FROM read_parquet('${path}')`)).toEqual([[6]]);
  });
});
