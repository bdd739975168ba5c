import { writeFileSync } from 'node:fs';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { parquetWriteFile } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parquetSource } from '../../src/io/parquet.js';
import { writeParquet } from '../../src/io/write.js';
import { CancelledError, ExecutionError } from '../../src/relnode/errors.js';
import { ALL_TYPES, ALL_TYPES_ROWS, allTypesBatch, collect, errorOf, rowsOf, tempDir } from './file-source-helpers.js';

const tmp = tempDir('parquet');
let duck: DuckDBConnection;
/** A DuckDB-written file: 300k rows in row groups of 100k, with types hyparquet-writer does not produce. */
let bigFile: string;

beforeAll(async () => {
  const inst = await DuckDBInstance.create();
  duck = await inst.connect();
  bigFile = tmp.path('big.parquet');
  await duck.run(`COPY (
    SELECT i::INTEGER AS id, (i % 1000)::SMALLINT AS small, (i * 1.25)::DECIMAL(15, 2) AS price, (i / 4)::FLOAT AS f,
      CASE WHEN i % 5 = 0 THEN NULL ELSE 'name' || (i % 17) END AS name,
      DATE '2020-01-01' + (i % 400)::INTEGER AS day,
      TIMESTAMP '2020-01-01 00:00:00.123456' + to_seconds(i) AS ts,
      TIMESTAMPTZ '2020-01-01 00:00:00+00' AS tz,
      (i % 3 = 0) AS flag, i::BIGINT * 1000000 AS big, i::UINTEGER AS u32
    FROM range(300000) t(i)) TO '${bigFile}' (FORMAT parquet, ROW_GROUP_SIZE 100000)`);
});
afterAll(() => tmp.cleanup());

describe('parquetSource', () => {
  it('round-trips every type with NULLs (writeParquet → scan)', async () => {
    const p = tmp.path('all.parquet');
    await writeParquet(p, [allTypesBatch()]);
    const src = await parquetSource(p);
    expect(src.schema.fields.map((f) => [f.name, f.type])).toEqual(ALL_TYPES);
    expect(src.numRows).toBe(5);
    expect(src.partitions).toBe(1);
    expect(rowsOf(await collect(src))).toEqual(ALL_TYPES_ROWS);
  });

  it('maps foreign parquet types and reads one row group per partition', async () => {
    const src = await parquetSource(bigFile);
    expect(src.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual([
      'id:INTEGER', 'small:INTEGER', 'price:DOUBLE', 'f:DOUBLE', 'name:VARCHAR', 'day:DATE', 'ts:TIMESTAMP', 'tz:TIMESTAMP', 'flag:BOOLEAN', 'big:BIGINT', 'u32:BIGINT',
    ]);
    expect(src.numRows).toBe(300_000);
    expect(src.partitions).toBe(3); // DuckDB rounds row groups to whole vectors: ~100k rows each
    const expected = (i: number): Record<string, unknown> => ({
      id: i, small: i % 1000, price: (i * 125) / 100, f: i / 4, name: i % 5 === 0 ? null : `name${i % 17}`, day: 18262 + (i % 400),
      ts: 1577836800123n + BigInt(i) * 1000n, tz: 1577836800000n, flag: i % 3 === 0, big: BigInt(i) * 1_000_000n, u32: BigInt(i),
    });
    let next = 0;
    for (let p = 0; p < src.partitions; p++) {
      const batches = await collect(src, { partition: p, batchSize: 1000 });
      const n = batches.reduce((k, b) => k + b.numRows, 0);
      expect(n).toBeGreaterThan(90_000);
      const first = rowsOf(batches.slice(0, 1)), last = rowsOf(batches.slice(-1));
      for (const k of [0, 1, 5]) expect(first[k]).toEqual(expected(next + k));
      expect(last.at(-1)).toEqual(expected(next + n - 1));
      next += n;
    }
    expect(next).toBe(300_000);
  });

  it('reads DECIMAL exactly (correctly rounded) and projects only the requested column chunks', async () => {
    const src = await parquetSource(bigFile);
    let sumCents = 0, rows = 0;
    for (let p = 0; p < src.partitions; p++) {
      for await (const b of src.scan({ partition: p, batchSize: 30_000, columns: [2, 0] })) {
        expect(b.schema.fields.map((f) => f.name)).toEqual(['price', 'id']);
        expect(b.numRows).toBeLessThanOrEqual(30_000);
        const price = b.data.children[0]!, id = b.data.children[1]!;
        for (let i = 0; i < b.numRows; i++) {
          const v = (price.values as Float64Array)[price.offset + i]!;
          const k = (id.values as Int32Array)[id.offset + i]!;
          if (v !== Number(`${Math.floor((k * 125) / 100)}.${String((k * 125) % 100).padStart(2, '0')}`)) throw new Error(`price of ${k} is ${v}`);
          sumCents += Math.round(v * 100);
        }
        rows += b.numRows;
      }
    }
    expect(rows).toBe(300_000);
    expect(sumCents).toBe((125 * 299_999 * 300_000) / 2);
  });

  it('respects batchSize with zero-copy slices of a row group', async () => {
    const src = await parquetSource(bigFile);
    const batches = await collect(src, { partition: 2, batchSize: 30_000, columns: [0] });
    const total = batches.reduce((n, b) => n + b.numRows, 0);
    expect(batches.map((b) => b.numRows)).toEqual([30_000, 30_000, 30_000, total - 90_000]);
    expect((batches[1]!.data.children[0]!.values as Int32Array).buffer).toBe((batches[0]!.data.children[0]!.values as Int32Array).buffer);
    expect(rowsOf(batches).at(-1)).toEqual({ id: 299_999 });
  });

  it('maps REQUIRED columns to NOT NULL and decodes them into typed arrays', async () => {
    const p = tmp.path('required.parquet');
    const a = Int32Array.from({ length: 5000 }, (_, i) => i);
    parquetWriteFile({
      filename: p,
      columnData: [{ name: 'a', data: a }, { name: 'b', data: Float64Array.from(a, (i) => i / 2) }, { name: 'c', data: new Array(5000).fill(null) }],
      schema: [
        { name: 'root', num_children: 3 },
        { name: 'a', type: 'INT32', repetition_type: 'REQUIRED' },
        { name: 'b', type: 'DOUBLE', repetition_type: 'REQUIRED' },
        { name: 'c', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
      ],
    });
    const src = await parquetSource(p);
    expect(src.schema.fields.map((f) => `${f.name}:${f.type}:${f.nullable}`)).toEqual(['a:INTEGER:false', 'b:DOUBLE:false', 'c:VARCHAR:true']);
    expect(src.partitions).toBe(2); // hyparquet-writer's default row groups: 1000, then 100000 rows
    const rows = rowsOf([...(await collect(src, { partition: 0 })), ...(await collect(src, { partition: 1, batchSize: 4096 }))]);
    expect(rows).toHaveLength(5000);
    expect(rows[1000]).toEqual({ a: 1000, b: 500, c: null });
    expect(rows[4999]).toEqual({ a: 4999, b: 2499.5, c: null });
  });

  it('reports a file that is not parquet, naming it', async () => {
    const p = tmp.path('not.parquet');
    writeFileSync(p, 'a,b\n1,2\n');
    const err = await errorOf(() => parquetSource(p));
    expect(err).toBeInstanceOf(ExecutionError);
    expect(err.message).toContain(`parquet ${p}: cannot read the footer`);
    await expect(parquetSource(tmp.path('missing.parquet'))).rejects.toThrow(/cannot open parquet file .*missing\.parquet/);
  });

  it('stops when the signal is aborted', async () => {
    const src = await parquetSource(bigFile);
    const ctrl = new AbortController();
    let seen = 0;
    const err = await errorOf(async () => {
      for await (const b of src.scan({ partition: 0, batchSize: 10_000, columns: [0], signal: ctrl.signal })) { seen += b.numRows; ctrl.abort(); }
    });
    expect(err).toBeInstanceOf(CancelledError);
    expect(seen).toBe(10_000);
    await expect(collect(src, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(CancelledError);
  });
});
