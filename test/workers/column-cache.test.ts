/**
 * A worker keeps the table columns it rebuilt from shared memory across tasks
 * (src/planner/ship-column-cache.ts): per-Data facts that kernels cache (a Utf8 column's
 * "every string is one byte") are then computed once per worker, not once per query, and a
 * column the worker holds travels as its id only; a worker missing one gets the task again whole.
 */
import * as arrow from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { memorySource } from '../../src/io/memory.js';
import { SharedTables, shippedSource, type ShippedTable } from '../../src/planner/ship-tables.js';
import { ColumnCache, MISSING_COLUMN, SentColumns } from '../../src/planner/ship-column-cache.js';
import { TableEnvironment } from '../../src/api/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { workerStats } from './helpers.js';

function table(k: number): ReturnType<typeof memorySource> {
  const batches = [0, 1].map((b) => new arrow.RecordBatch({
    x: arrow.makeData({ type: new arrow.Int32(), data: Int32Array.from({ length: 4 }, (_, i) => 100 * k + 10 * b + i) }),
    s: arrow.vectorFromArray(['a', 'b', 'c', 'd'].map((c) => `${c}${k}`), new arrow.Utf8()).data[0]!,
  }));
  return memorySource(batches, `t${k}`);
}

/** The Data objects and values a scan of the whole shipped table yields (column `c`). */
function scanned(src: ReturnType<typeof shippedSource>, c: number): { data: arrow.Data[]; values: unknown[] } {
  const data: arrow.Data[] = [];
  const values: unknown[] = [];
  for (const b of src.scan({ partition: 0, batchSize: 1 << 20, columns: [c] }) as Iterable<arrow.RecordBatch>) {
    data.push(b.data.children[0]!);
    values.push(...b.getChildAt(0)!.toArray());
  }
  return { data, values };
}

describe('shared column ids', () => {
  it('one id per table version and column, the same on every ship', () => {
    const shared = new SharedTables();
    const a = table(1);
    const b = table(2);
    const a1 = shared.ship(a, [0, 1], false);
    const a2 = shared.ship(a, [1], false);
    const b1 = shared.ship(b, [0, 1], false);
    expect(a2.ids![1]).toBe(a1.ids![1]);
    expect(a1.ids![0]).not.toBe(a1.ids![1]);
    expect(new Set([a1.ids![0], a1.ids![1], b1.ids![0], b1.ids![1]]).size).toBe(4);
  });
});

describe('ColumnCache', () => {
  it('a later task scanning the same shared column gets the same Data objects, with the same values', () => {
    const shipped = new SharedTables().ship(table(1), [0, 1], false);
    const kept = new ColumnCache();
    kept.beginTask();
    const first = scanned(shippedSource(shipped, 't', undefined, kept), 1);
    kept.beginTask();
    const second = scanned(shippedSource(shipped, 't', undefined, kept), 1);
    expect(second.values).toEqual(['a1', 'b1', 'c1', 'd1', 'a1', 'b1', 'c1', 'd1']);
    expect(second.values).toEqual(first.values);
    expect(second.data.every((d, i) => d === first.data[i])).toBe(true);
    // Without the cache every source rebuilds its columns.
    const fresh = scanned(shippedSource(shipped, 't'), 1);
    expect(fresh.values).toEqual(first.values);
    expect(fresh.data.some((d, i) => d === first.data[i])).toBe(false);
  });

  it('different ids are different columns', () => {
    const shared = new SharedTables();
    const one = shared.ship(table(1), [0], false);
    const two = shared.ship(table(2), [0], false);
    const kept = new ColumnCache();
    kept.beginTask();
    expect(scanned(shippedSource(one, 't', undefined, kept), 0).values).toEqual([100, 101, 102, 103, 110, 111, 112, 113]);
    expect(scanned(shippedSource(two, 't', undefined, kept), 0).values).toEqual([200, 201, 202, 203, 210, 211, 212, 213]);
    expect(kept.size).toBe(2);
  });

  it('drops a column no task used for keepTasks tasks, and rebuilds it on its next use', () => {
    const shared = new SharedTables();
    const one = shared.ship(table(1), [0], false);
    const two = shared.ship(table(2), [0], false);
    const kept = new ColumnCache(2);
    kept.beginTask();
    const d1 = scanned(shippedSource(one, 't', undefined, kept), 0).data;
    for (let i = 0; i < 2; i++) { kept.beginTask(); scanned(shippedSource(two, 't', undefined, kept), 0); }
    expect(kept.size).toBe(2); // `one` was used 2 tasks ago: still kept
    kept.beginTask();
    expect(kept.size).toBe(1); // 3 tasks ago: dropped
    const again = scanned(shippedSource(one, 't', undefined, kept), 0);
    expect(again.values).toEqual([100, 101, 102, 103, 110, 111, 112, 113]);
    expect(again.data[0]).not.toBe(d1[0]);
  });
});

describe('SentColumns', () => {
  it('a worker gets a column with its data once, then its id only, until it has dropped it; another worker gets the data', () => {
    const shipped = new SharedTables().ship(table(1), [0, 1], false);
    const sent = new SentColumns(2);
    const cols = (t: Record<string, ShippedTable>): number[] => Object.keys(t['m']!.columns).map(Number);
    expect(cols(sent.strip({ m: shipped }, 7))).toEqual([0, 1]);
    expect(cols(sent.strip({ m: shipped }, 7))).toEqual([]);
    expect(sent.strip({ m: shipped }, 7)['m']!.ids).toEqual(shipped.ids);
    expect(cols(sent.strip({ m: shipped }, 8))).toEqual([0, 1]);
    for (let i = 0; i < 3; i++) sent.strip({}, 7); // 3 tasks without the table: the worker dropped it
    expect(cols(sent.strip({ m: shipped }, 7))).toEqual([0, 1]);
    sent.forget(7);
    expect(cols(sent.strip({ m: shipped }, 7))).toEqual([0, 1]);
  });

  it('follows the worker\'s own rule: over any sequence of tasks the worker holds every column sent as an id', () => {
    const shared = new SharedTables();
    const tables = [1, 2, 3, 4].map((k) => shared.ship(table(k), [0, 1], false));
    const sent = new SentColumns(3);
    const kept = new ColumnCache(3);
    let seed = 12345;
    const rnd = (n: number): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
    let stripped = 0;
    for (let task = 0; task < 200; task++) {
      const use: Record<string, ShippedTable> = {};
      for (let j = rnd(3); j > 0; j--) { const k = rnd(4); use[`t${k}`] = tables[k]!; }
      const posted = sent.strip(use, 1);
      for (const t of Object.values(posted)) stripped += Object.keys(t.ids!).length - Object.keys(t.columns).length;
      expect(() => kept.beginTask(Object.values(posted))).not.toThrow();
      for (const [k, t] of Object.entries(posted)) expect(scanned(shippedSource(t, k, undefined, kept), 0).values).toEqual(scanned(shippedSource(use[k]!, k), 0).values);
    }
    expect(stripped).toBeGreaterThan(100);
  });

  it('a worker that does not hold a column sent as an id fails the task with MISSING_COLUMN', () => {
    const shipped = new SharedTables().ship(table(1), [0], false);
    const sent = new SentColumns();
    sent.strip({ m: shipped }, 1);
    const idsOnly = sent.strip({ m: shipped }, 1);
    let err: unknown;
    try { new ColumnCache().beginTask(Object.values(idsOnly)); } catch (e) { err = e; }
    expect((err as Error).name).toBe(MISSING_COLUMN);
  });
});

describe('column ids on worker threads', { timeout: 120_000 }, () => {
  const rows = 4000;
  const data = (m: number): arrow.Table => arrow.tableFromArrays({ k: Int32Array.from({ length: rows }, (_, i) => i % m), v: Float64Array.from({ length: rows }, (_, i) => i / 3) });
  const make = (parallelism: number): TableEnvironment => {
    // Worker threads only: the tests follow what each worker thread holds.
    const env = TableEnvironment.create({ parallelism, workers: 'always', batchSize: 512, callingThreadShare: false });
    env.registerTable('t', data(7));
    env.registerTable('u', data(5));
    return env;
  };
  const p2 = make(2);
  const p1 = make(1);
  afterAll(async () => { await p2.close(); await p1.close(); });
  const sql = (name: string): string => `SELECT k, sum(v) AS s, count(*) AS c FROM ${name} GROUP BY k`;
  type Runner = { sent: SentColumns; pool: { slots: ({ worker: { terminate(): Promise<number> } } | undefined)[] } };
  const runner = (): Runner => (p2 as unknown as { executor: { stageRunner: Runner } }).executor.stageRunner;

  it('a later query sends the table as ids only', async () => {
    const expected = fromArrow(await p1.sql(sql('t')).collect());
    expectSameResult(fromArrow(await p2.sql(sql('t')).collect()), expected, {});
    const sent = runner().sent;
    const posted: number[] = [];
    const strip = sent.strip.bind(sent);
    sent.strip = (tables, serial) => { const out = strip(tables, serial); for (const x of Object.values(out)) posted.push(Object.keys(x.columns).length); return out; };
    expectSameResult(fromArrow(await p2.sql(sql('t')).collect()), expected, {});
    expect(posted).toEqual([0, 0]); // both workers hold both columns
  });

  it('a worker that ends takes its record with it; its replacement gets the data and a record of its own', async () => {
    const expected = fromArrow(await p1.sql(sql('t')).collect());
    expectSameResult(fromArrow(await p2.sql(sql('t')).collect()), expected, {});
    const r = runner();
    expect(r.sent.size).toBe(2);
    await r.pool.slots[0]!.worker.terminate();
    await expect.poll(() => r.sent.size, { timeout: 5_000 }).toBe(1);
    const posted: number[] = [];
    const sent = r.sent;
    const strip = sent.strip.bind(sent);
    sent.strip = (tables, serial) => { const out = strip(tables, serial); for (const x of Object.values(out)) posted.push(Object.keys(x.columns).length); return out; };
    try {
      expectSameResult(fromArrow(await p2.sql(sql('t')).collect()), expected, {});
    } finally {
      sent.strip = strip;
    }
    expect(posted.sort()).toEqual([0, 2]); // the new worker 0 gets both columns with their data, worker 1 ids only
    expect(r.sent.size).toBe(2);
  });

  it('a worker sent an id it does not hold answers MISSING_COLUMN and gets the task again with the data', async () => {
    const expected = fromArrow(await p1.sql(sql('u')).collect());
    const lying = new SentColumns();
    const strip = lying.strip.bind(lying);
    let calls = 0;
    // The first two tasks (one per worker) claim that the workers hold u's columns, which they never got.
    lying.strip = (tables, serial) => { const out = strip(tables, serial); return ++calls <= 2 ? Object.fromEntries(Object.entries(out).map(([k, x]) => [k, { ...x, columns: {} }])) : out; };
    const forgotten: number[] = [];
    const forget = lying.forget.bind(lying);
    lying.forget = (serial) => { forgotten.push(serial); forget(serial); };
    runner().sent = lying;
    expectSameResult(fromArrow(await p2.sql(sql('u')).collect()), expected, {});
    expect(forgotten.length).toBe(2); // both workers refused their task once
    expect(new Set(forgotten).size).toBe(2);
  });
});
