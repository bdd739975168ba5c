/**
 * Loaders that build tables in shared memory at parallelism > 1 (io/column-memory.ts): the TPC-H
 * generator and Arrow IPC files put their final column buffers in SharedArrayBuffers, so the first
 * query that ships such a table to worker threads copies nothing (shared-data.ts
 * `sharedCopyBytes`); at parallelism 1 they stay ordinary ArrayBuffers. Answers do not change.
 */
import * as arrow from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/index.js';
import '../../src/sql/index.js';
import { generateTpch } from '../../src/io/tpch/index.js';
import { SHARED_MEMORY } from '../../src/io/column-memory.js';
import { arrowFileSource } from '../../src/io/arrow-file.js';
import { writeArrowFile } from '../../src/io/write.js';
import { isSharedData, sharedCopyBytes } from '../../src/exec/workers/shared-data.js';
import { SharedTables } from '../../src/planner/ship-tables.js';
import type { TableSource } from '../../src/io/source.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { workerStats } from '../workers/helpers.js';
import { tempDir } from './file-source-helpers.js';

const tmp = tempDir('shared-loaders');
const envs: TableEnvironment[] = [];
afterAll(async () => { await Promise.all(envs.map((e) => e.close())); tmp.cleanup(); });

const make = (parallelism: number): TableEnvironment => {
  const e = TableEnvironment.create({ parallelism, workers: 'always', batchSize: 4096 });
  envs.push(e);
  return e;
};

/** Every buffer of a column (its dictionary's included), empty ones left out. */
function buffersOf(d: arrow.Data): ArrayBufferLike[] {
  const own = [d.values, d.valueOffsets, d.nullBitmap].filter((b): b is NonNullable<typeof b> => b != null && b.byteLength > 0).map((b) => b.buffer);
  return [...own, ...(d.dictionary?.data.flatMap(buffersOf) ?? [])];
}

/** Every buffer of every column of the batches. */
function allBuffers(batches: readonly arrow.RecordBatch[]): ArrayBufferLike[] {
  return batches.flatMap((b) => b.data.children.flatMap(buffersOf));
}

/** The registered table's source (the catalog's handle). */
function sourceOf(env: TableEnvironment, name: string): TableSource {
  const plan = env.from(name).plan;
  if (plan.kind !== 'Scan') throw new Error(`${name} is not a scan`);
  return plan.table.handle as TableSource;
}

/** The stored batches of an in-memory source, whole. */
function storedBatches(src: TableSource): arrow.RecordBatch[] {
  const out: arrow.RecordBatch[] = [];
  for (let p = 0; p < src.partitions; p++) out.push(...(src.scan({ partition: p, batchSize: 1 << 24 }) as Iterable<arrow.RecordBatch>));
  return out;
}

/** Runs `sql` at p2 and p1: p2 must run a worker stage without copying a column into shared memory, and answer as p1. */
async function expectShippedWithoutCopy(p2: TableEnvironment, p1: TableEnvironment, sql: string): Promise<void> {
  const copied = sharedCopyBytes();
  const stages = workerStats(p2).stages;
  const got = await p2.sql(sql).collect();
  expect(workerStats(p2).stages).toBeGreaterThan(stages);
  expect(sharedCopyBytes() - copied).toBe(0);
  expectSameResult(fromArrow(got), fromArrow(await p1.sql(sql).collect()), {});
}

const TPCH_SQL = [
  'SELECT l_returnflag, l_linestatus, count(*) AS n, sum(l_extendedprice * (1 - l_discount)) AS rev FROM lineitem GROUP BY l_returnflag, l_linestatus ORDER BY 1, 2',
  "SELECT o_orderpriority, count(*) AS n FROM orders WHERE o_comment NOT LIKE '%special%' GROUP BY o_orderpriority ORDER BY 1",
  'SELECT n_name, count(*) AS n FROM customer JOIN nation ON c_nationkey = n_nationkey GROUP BY n_name ORDER BY 1',
];

describe('TPC-H generator', () => {
  it('builds every column in SharedArrayBuffers with SHARED_MEMORY, in ArrayBuffers by default; the rows are the same', () => {
    const heap = generateTpch(0.002);
    const shared = generateTpch(0.002, { memory: SHARED_MEMORY });
    for (const name of Object.keys(heap) as (keyof typeof heap)[]) {
      const h = allBuffers(heap[name].batches);
      const s = allBuffers(shared[name].batches);
      expect(h.length).toBeGreaterThan(0);
      expect(h.every((b) => b instanceof ArrayBuffer)).toBe(true);
      expect(s.every((b) => b instanceof SharedArrayBuffer)).toBe(true);
      expect(shared[name].toArray().map((r) => r.toJSON())).toEqual(heap[name].toArray().map((r) => r.toJSON()));
    }
  });

  it('the batches of a dictionary column share one (shared) dictionary', () => {
    const t = generateTpch(0.01, { memory: SHARED_MEMORY, batchSize: 10_000 }).lineitem;
    expect(t.batches.length).toBeGreaterThan(2);
    const dicts = new Set(t.batches.map((b) => b.getChild('l_shipmode')!.data[0]!.dictionary));
    expect(dicts.size).toBe(1);
  });

  it('registerTpch at parallelism 2 ships with no copy and answers as at parallelism 1', async () => {
    const p2 = make(2);
    const p1 = make(1);
    p2.registerTpch(0.01);
    p1.registerTpch(0.01);
    expect(storedBatches(sourceOf(p2, 'lineitem')).every((b) => b.data.children.every(isSharedData))).toBe(true);
    expect(allBuffers(storedBatches(sourceOf(p1, 'lineitem'))).every((b) => b instanceof ArrayBuffer)).toBe(true);
    for (const sql of TPCH_SQL) await expectShippedWithoutCopy(p2, p1, sql);
  });
});

describe('Arrow IPC files', () => {
  /** Batches of (k INTEGER, x DOUBLE with NULLs, s VARCHAR, d dictionary VARCHAR). */
  function batches(n: number, rows: number): arrow.RecordBatch[] {
    const type = new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32());
    const dict = arrow.vectorFromArray(['red', 'green', 'blue'], new arrow.Utf8());
    return Array.from({ length: n }, (_, b) => new arrow.RecordBatch({
      k: arrow.makeData({ type: new arrow.Int32(), data: Int32Array.from({ length: rows }, (_, i) => (b * rows + i) % 101) }),
      x: arrow.vectorFromArray(Array.from({ length: rows }, (_, i) => (i % 7 === 0 ? null : (b * rows + i) * 0.5)), new arrow.Float64()).data[0]!,
      s: arrow.vectorFromArray(Array.from({ length: rows }, (_, i) => `s${(b + i) % 13}`), new arrow.Utf8()).data[0]!,
      d: arrow.makeData({ type, length: rows, nullCount: 0, data: Int32Array.from({ length: rows }, (_, i) => i % 3), dictionary: dict }),
    }));
  }

  for (const format of ['file', 'stream'] as const) {
    it(`a scan reads the batches into SharedArrayBuffers with SHARED_MEMORY, ArrayBuffers by default (${format} format)`, async () => {
      const p = tmp.path(`t.${format}`);
      await writeArrowFile(p, batches(3, 2000), { format });
      const read = async (src: TableSource): Promise<arrow.RecordBatch[]> => {
        const out: arrow.RecordBatch[] = [];
        for (let part = 0; part < src.partitions; part++) for await (const b of src.scan({ partition: part, batchSize: 1 << 20 })) out.push(b);
        return out;
      };
      const heap = await read(await arrowFileSource(p));
      const shared = await read(await arrowFileSource(p, SHARED_MEMORY));
      expect(allBuffers(heap).every((b) => b instanceof ArrayBuffer)).toBe(true);
      expect(allBuffers(shared).length).toBeGreaterThan(0);
      expect(allBuffers(shared).every((b) => b instanceof SharedArrayBuffer)).toBe(true);
      expect(new arrow.Table(shared).toArray().map((r) => r.toJSON())).toEqual(new arrow.Table(heap).toArray().map((r) => r.toJSON()));
    });
  }

  it('a table collected from a file at parallelism 2 ships its plain columns with no copy, and answers as at parallelism 1', async () => {
    const p = tmp.path('ship.arrow');
    await writeArrowFile(p, batches(4, 5000));
    const p2 = make(2);
    const p1 = make(1);
    for (const e of [p1, p2]) e.registerTable('t', await (await e.fromArrowFile(p)).collect());
    expect(allBuffers(storedBatches(sourceOf(p1, 't'))).every((b) => b instanceof ArrayBuffer)).toBe(true);
    await expectShippedWithoutCopy(p2, p1, 'SELECT k, count(*) AS n, sum(x) AS sx, min(s) AS ms FROM t GROUP BY k ORDER BY k');
  });
});

describe('shared memory and garbage collection', () => {
  it('dropped shared buffers are collected without a forced GC (V8 is told about shared allocations)', () => {
    // 1.6 GB of 16 MB shared buffers, only the last kept: uncounted by V8, they were never collected.
    const before = process.memoryUsage().arrayBuffers;
    let kept: Uint8Array | undefined;
    for (let i = 0; i < 100; i++) kept = SHARED_MEMORY.bytes(16 << 20);
    expect(kept!.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(400e6);
  });
});

describe('the share step', () => {
  it('copies a table in ordinary buffers (a caller\'s Arrow table) and counts the bytes; a shared one it does not', () => {
    const heap = generateTpch(0.002).supplier;
    const shared = generateTpch(0.002, { memory: SHARED_MEMORY }).supplier;
    const e = make(1);
    e.registerTable('heap', heap);
    e.registerTable('shared', shared);
    const tables = new SharedTables();
    const cols = heap.schema.fields.map((_, i) => i);
    let copied = sharedCopyBytes();
    tables.ship(sourceOf(e, 'shared'), cols);
    expect(sharedCopyBytes() - copied).toBe(0);
    copied = sharedCopyBytes();
    tables.ship(sourceOf(e, 'heap'), cols);
    expect(sharedCopyBytes() - copied).toBeGreaterThan(20 * heap.numRows);
  });
});
