/**
 * The cache sink coalesces small batches into blocks of about the batch size
 * (src/cache/coalesce.ts): fewer, bigger blocks, each with its own
 * statistics, the same rows in the same order.
 */
import { Dictionary, Int32, Table as ArrowTable, Utf8, makeData, makeVector, type RecordBatch } from 'apache-arrow';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { col, lit } from '../../src/api/expr.js';
import { BlockCoalescer } from '../../src/cache/coalesce.js';
import { batchFromColumns, utf8FromStrings } from '../../src/exec/batch.js';
import { expectSameRows, numsTable, registerProbed } from './helpers.js';

/** A batch of `n` rows: k = from..from+n-1, mode a dictionary column over `dict` (code k % 2). */
function batch(from: number, n: number, dict = ['AIR', 'SHIP']): RecordBatch {
  const k = makeData({ type: new Int32(), length: n, data: Int32Array.from({ length: n }, (_, i) => from + i) });
  const codes = Int32Array.from({ length: n }, (_, i) => (from + i) % 2);
  const mode = makeData({ type: new Dictionary(new Utf8(), new Int32()), length: n, data: codes, dictionary: makeVector(utf8FromStrings(dict)) as never });
  return batchFromColumns(['k', 'mode'], [k, mode], n);
}

const keys = (bs: readonly RecordBatch[]): number[] => bs.flatMap((b) => [...b.getChild('k')!] as number[]);

describe('BlockCoalescer', () => {
  it('buffers batches until the next would pass the target, passes big batches through uncopied, keeps the order', () => {
    const c = new BlockCoalescer(100);
    const input = [batch(0, 30), batch(30, 30), batch(60, 30), batch(90, 50), batch(140, 200), batch(340, 10)];
    const out: RecordBatch[] = [];
    for (const b of input) out.push(...c.add(b));
    expect(c.bufferedRows).toBe(10);
    out.push(c.flush()!);
    expect(c.empty).toBe(true);
    expect(c.flush()).toBeUndefined();
    expect(out.map((b) => b.numRows)).toEqual([90, 50, 200, 10]);
    expect(out[2]).toBe(input[4]); // ≥ the target on an empty buffer: stored as it is
    expect(out[1]).toBe(input[3]); // a buffer of one batch: no copy either
    expect(keys(out)).toEqual(Array.from({ length: 350 }, (_, i) => i));
  });

  it('a buffer that reaches the target exactly is one block; empty batches are dropped from blocks with rows', () => {
    const c = new BlockCoalescer(64);
    const out = [...c.add(batch(0, 0)), ...c.add(batch(0, 32)), ...c.add(batch(32, 0)), ...c.add(batch(32, 32))];
    expect(out.map((b) => b.numRows)).toEqual([64]);
    expect(c.empty).toBe(true);
    c.add(batch(0, 0));
    expect(c.flush()!.numRows).toBe(0); // only empty batches: one empty block
  });

  it('batches with different dictionaries merge into one block with the right strings', () => {
    const c = new BlockCoalescer(10);
    c.add(batch(0, 4, ['AIR', 'SHIP']));
    const out = c.add(batch(4, 6, ['RAIL', 'AIR']));
    expect(out).toHaveLength(1);
    expect([...out[0]!.getChild('mode')!]).toEqual(['AIR', 'SHIP', 'AIR', 'SHIP', 'RAIL', 'AIR', 'RAIL', 'AIR', 'RAIL', 'AIR']);
  });
});

describe('coalesced cache entries', () => {
  let env: TableEnvironment;
  let plain: TableEnvironment;
  afterEach(async () => { await env.close(); await plain.close(); });

  async function setup(batchSize: number): Promise<void> {
    env = TableEnvironment.create({ parallelism: 1, batchSize });
    registerProbed(env, 'nums', await numsTable(env, 20, 100), { scans: 0, batches: 0 });
    plain = TableEnvironment.create({ parallelism: 1 });
    plain.registerTable('nums', await numsTable(plain, 20, 100));
  }

  const blocksOf = (t: { plan: Parameters<TableEnvironment['cacheManager']['idFor']>[0] }) => {
    const e = env.cacheManager.entryById(env.cacheManager.idFor(t.plan))!;
    return e.partitions[0]!.blocks;
  };

  it('20 source batches of 100 rows, filtered, become blocks of about the batch size with per-block statistics', async () => {
    await setup(1000);
    const q = (e: TableEnvironment) => e.from('nums').filter(col('g').ne(0)).select('k', 's');
    const t = q(env).cache();
    await t.count();
    const blocks = blocksOf(t);
    // 1714 rows (k % 7 ≠ 0): ~86 rows per source batch, 11 of them fit 1000 rows.
    expect(blocks.map((b) => b.stats.rows)).toEqual([942, 772]);
    expect(blocks.map((b) => b.stats.column(0))).toEqual([
      { nullCount: 0, min: 1, max: 1098 },
      { nullCount: 0, min: 1100, max: 1999 },
    ]);
    await expectSameRows(t, q(plain), { ordered: true });
    // Pruning still works per block.
    const before = env.cacheManager.stats();
    await expectSameRows(t.filter(col('k').ge(1500)), q(plain).filter(col('k').ge(1500)));
    const after = env.cacheManager.stats();
    expect([after.blocksRead - before.blocksRead, after.blocksSkipped - before.blocksSkipped]).toEqual([1, 1]);
  });

  it('an empty result commits and reads back as no rows with its columns', async () => {
    await setup(1000);
    const q = (e: TableEnvironment) => e.from('nums').filter(lit(false).or(col('k').lt(0))).select('k', 's');
    const t = q(env).cache();
    expect(await t.count()).toBe(0);
    expect(blocksOf(t).reduce((n, b) => n + b.stats.rows, 0)).toBe(0); // the filter emits no batch: no block (an empty batch would be one empty block)
    const rows = await t.collect();
    expect(rows.numRows).toBe(0);
    expect(rows.schema.names).toEqual(['k', 's']);
    expect(env.cacheManager.stats().hits).toBeGreaterThan(0);
  });

  it('a cached Arrow table of small batches reads back identical (values, order, NULLs)', async () => {
    await setup(512);
    const t = env.from('nums').cache();
    await t.count();
    expect(blocksOf(t).map((b) => b.stats.rows)).toEqual([500, 500, 500, 500]);
    const got = await t.collect();
    const want = await plain.from('nums').collect();
    expect(new ArrowTable(got.batches).toArray().map((r) => r.toJSON())).toEqual(want.toArray().map((r) => r.toJSON()));
  });
});
