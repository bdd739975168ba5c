/**
 * One copy of a shipped table (src/planner/ship-tables.ts, src/io/memory.ts `StoredBatches.adopt`,
 * src/exec/workers/shared-data.ts): a column copied into SharedArrayBuffers for the workers
 * becomes the table's own data, the original can be collected, answers do not change, and a
 * new table version (INSERT) is shipped as itself.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import * as arrow from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { memorySource } from '../../src/io/memory.js';
import type { TableSource } from '../../src/io/source.js';
import { SharedTables } from '../../src/planner/ship-tables.js';
import { coResidentColumns, isSharedData, shareData } from '../../src/exec/workers/shared-data.js';
import { TableEnvironment } from '../../src/api/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { workerStats } from './helpers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * Collects garbage until `alive` says no, or gives up after a few rounds. Each collection runs in
 * a turn of its own: a WeakRef's target read in a turn (`deref`) is kept until the turn ends.
 */
async function collected(alive: () => boolean): Promise<boolean> {
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setTimeout(r, 10));
    gc();
    if (!alive()) return true;
  }
  return false;
}

const isShared = (b: ArrayBufferView | null | undefined): boolean => b != null && b.buffer instanceof SharedArrayBuffer;

/** Every stored batch of an in-memory source (one partition per batch here). */
function stored(src: TableSource): arrow.RecordBatch[] {
  const out: arrow.RecordBatch[] = [];
  for (let p = 0; p < src.partitions; p++) out.push(...(src.scan({ partition: p, batchSize: 1 << 20 }) as Iterable<arrow.RecordBatch>));
  return out;
}

/** Batches of (k INTEGER, x DOUBLE, s dictionary VARCHAR with NULLs), each column in its own buffers. */
function batches(n: number, rows: number): arrow.RecordBatch[] {
  const dict = arrow.vectorFromArray(['red', 'green', 'blue'], new arrow.Utf8());
  const type = new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32());
  return Array.from({ length: n }, (_, b) => {
    const nulls = new Uint8Array(Math.ceil(rows / 8)).fill(0xff);
    nulls[0] = 0xfe; // row 0 is NULL
    return new arrow.RecordBatch({
      k: arrow.makeData({ type: new arrow.Int32(), data: Int32Array.from({ length: rows }, (_, i) => (b * rows + i) % 97) }),
      x: arrow.makeData({ type: new arrow.Float64(), data: Float64Array.from({ length: rows }, (_, i) => (b * rows + i) * 0.25) }),
      s: arrow.makeData({ type, length: rows, nullCount: 1, nullBitmap: nulls, data: Int32Array.from({ length: rows }, (_, i) => i % 3), dictionary: dict }),
    });
  });
}

describe('shareData', () => {
  it('copies a column into shared memory with the same type object, offset and values; a shared column is returned as it is', () => {
    const d = batches(1, 100)[0]!.data.children[2]!.slice(10, 50);
    const s = shareData(d);
    expect(s).not.toBe(d);
    expect(s.type).toBe(d.type);
    expect([s.offset, s.length, s.nullCount]).toEqual([d.offset, d.length, d.nullCount]);
    expect(isShared(s.values) && isShared(s.nullBitmap) && isShared(s.dictionary!.data[0]!.values)).toBe(true);
    expect(arrow.makeVector(s).toArray()).toEqual(arrow.makeVector(d).toArray());
    expect(isSharedData(s)).toBe(true);
    expect(shareData(s)).toBe(s);
  });

  it('the batches of a dictionary column keep one dictionary after the copy', () => {
    const [a, b] = batches(2, 10).map((x) => shareData(x.data.children[2]!));
    expect(a!.dictionary).toBe(b!.dictionary);
  });

  it('coResidentColumns adds the columns whose buffers lie in the same ArrayBuffer (an Arrow IPC body)', () => {
    const body = new ArrayBuffer(3 * 8 * 4);
    const col = (i: number): arrow.Data => arrow.makeData({ type: new arrow.Int32(), data: new Int32Array(body, i * 32, 8) });
    const own = arrow.makeData({ type: new arrow.Int32(), data: new Int32Array(8) });
    const batch = new arrow.RecordBatch({ a: col(0), b: own, c: col(1), d: col(2) });
    expect(coResidentColumns(batch, [2])).toEqual([0, 2, 3]);
    expect(coResidentColumns(batch, [1])).toEqual([1]);
  });
});

describe('SharedTables puts the shared copy in the table', () => {
  it('shipped columns read shared memory afterwards, others stay; values and statistics are the same', async () => {
    const src = memorySource(batches(3, 64), 't');
    const before = stored(src).map((b) => b.toArray().map((r) => JSON.stringify(r!.toJSON())));
    const stats = src.statistics?.()?.column(1);
    await new SharedTables().share(src, [1, 2]);
    const after = stored(src);
    expect(after.every((b) => isShared(b.data.children[1]!.values) && isShared(b.data.children[2]!.values))).toBe(true);
    expect(after.some((b) => isShared(b.data.children[0]!.values))).toBe(false);
    expect(after.map((b) => b.toArray().map((r) => JSON.stringify(r!.toJSON())))).toEqual(before);
    expect(src.statistics?.()?.column(1)).toEqual(stats);
  });

  it('ship() of a shared column hands out views of the table\'s own shared buffers (no second copy)', async () => {
    const src = memorySource(batches(2, 32), 't');
    const shared = new SharedTables();
    await shared.share(src, [0]);
    const shipped = shared.ship(src, [0], false);
    stored(src).forEach((b, i) => expect(shipped.columns[0]![i]!.values!.buffer).toBe(b.data.children[0]!.values.buffer));
  });

  it('a table already in shared memory is not copied', async () => {
    const src = memorySource(batches(2, 32).map((b) => new arrow.RecordBatch(b.schema, b.data.clone(b.data.type, 0, b.numRows, 0, undefined, b.data.children.map((c) => shareData(c))))), 't');
    const first = stored(src).map((b) => b.data.children[1]);
    new SharedTables().ship(src, [1], false);
    stored(src).forEach((b, i) => expect(b.data.children[1]).toBe(first[i]));
  });

  it('the original buffers can be collected once the table reads the copy', async () => {
    const refs: WeakRef<ArrayBufferLike>[] = [];
    const src = ((): TableSource => {
      const bs = batches(4, 256);
      for (const b of bs) refs.push(new WeakRef(b.data.children[1]!.values.buffer));
      return memorySource(bs, 't');
    })();
    // Without the copy nothing may go: the table holds them.
    expect(await collected(() => refs.some((r) => r.deref() !== undefined))).toBe(false);
    await new SharedTables().share(src, [1]);
    expect(await collected(() => refs.some((r) => r.deref() !== undefined))).toBe(true);
    expect(stored(src).reduce((n, b) => n + (b.getChildAt(1)!.toArray() as Float64Array).reduce((a, x) => a + x, 0), 0)).toBe(0.25 * (1024 * 1023) / 2);
  });
});

describe('at parallelism 2', () => {
  const envs: TableEnvironment[] = [];
  afterAll(async () => { await Promise.all(envs.map((e) => e.close())); });
  const make = (parallelism: number): TableEnvironment => {
    const e = TableEnvironment.create({ parallelism, workers: 'always', batchSize: 4096 });
    envs.push(e);
    return e;
  };
  const SQL = 'SELECT k, s, count(*) AS n, sum(x) AS sx FROM t GROUP BY k, s ORDER BY k, s';

  it('a registered table the caller does not hold is freed after its first shipped query, and answers stay those of parallelism 1', async () => {
    const p2 = make(2);
    const p1 = make(1);
    const refs: WeakRef<ArrayBufferLike>[] = [];
    ((): void => {
      const bs = batches(4, 5_000);
      for (const b of bs) refs.push(new WeakRef(b.data.children[1]!.values.buffer), new WeakRef(b.data.children[0]!.values.buffer));
      p2.registerTable('t', new arrow.Table(bs));
      p1.registerTable('t', new arrow.Table(batches(4, 5_000)));
    })();
    const stages = workerStats(p2).stages;
    const first = await p2.sql(SQL).collect();
    expect(workerStats(p2).stages).toBeGreaterThan(stages);
    expect(await collected(() => refs.some((r) => r.deref() !== undefined))).toBe(true);
    const second = await p2.sql(SQL).collect();
    const want = fromArrow(await p1.sql(SQL).collect());
    expectSameResult(fromArrow(first), want, {});
    expectSameResult(fromArrow(second), want, {});
    // p1 and p2 give the same bits.
    expect(second.getChild('sx')!.toArray()).toEqual(first.getChild('sx')!.toArray());
  });

  it('a new version of the table (INSERT) ships as itself', async () => {
    const p2 = make(2);
    const p1 = make(1);
    p2.registerTable('t', new arrow.Table(batches(4, 5_000)));
    p1.registerTable('t', new arrow.Table(batches(4, 5_000)));
    await p2.sql(SQL).collect();
    for (const e of [p1, p2]) await e.executeSql("INSERT INTO t VALUES (1000, 1.5, 'red'), (1000, 2.5, NULL), (3, 7.0, 'blue')");
    const stages = workerStats(p2).stages;
    const got = await p2.sql(SQL).collect();
    expect(workerStats(p2).stages).toBeGreaterThan(stages);
    expectSameResult(fromArrow(got), fromArrow(await p1.sql(SQL).collect()), {});
    expect(got.toArray().filter((r) => r.k === 1000).length).toBe(2);
  });
});
