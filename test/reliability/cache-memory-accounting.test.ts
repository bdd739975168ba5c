/**
 * The cache's memory budget measures what it really holds (issue 11: 20
 * cached `LIMIT 5` slices were counted as 2,000 bytes but kept 19.3 MB of
 * parent buffers alive). Small views of big buffers are compacted on write;
 * whole batches stay zero-copy; compacted data reads back the same.
 */
import { RecordBatch } from 'apache-arrow';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { col } from '../../src/api/expr.js';
import { compactForCache, retainedBytes } from '../../src/cache/compact.js';
import { batchBytes } from '../../src/cache/instance.js';
import { expectSameRows } from '../cache/helpers.js';

let env: TableEnvironment | undefined;
afterEach(async () => { await env?.close(); env = undefined; });

const ROWS = 65536;

/** Every batch stored for the committed entries. */
function storedBatches(e: TableEnvironment): RecordBatch[] {
  const m = e.cacheManager;
  const out: RecordBatch[] = [];
  for (const info of m.list()) {
    const entry = m.entryById(info.id);
    if (entry === undefined) continue;
    for (const p of entry.partitions) for (const b of p.blocks) out.push(m.instances[p.instance]!.get(b.key, entry.store)!);
  }
  return out;
}

function bigEnv(): TableEnvironment {
  const e = TableEnvironment.create();
  e.registerTable('big', e.fromRecords(Array.from({ length: ROWS }, (_, k) => ({ k, b: BigInt(k) * 3n, s: `value-${k}`, f: k % 3 === 0, n: k % 5 === 0 ? null : k })),
    { k: 'INTEGER', b: 'BIGINT', s: 'VARCHAR', f: 'BOOLEAN', n: 'INTEGER' }));
  return e;
}

describe('memory accounting of cached slices', () => {
  it('20 cached LIMIT 5 slices hold about what they are charged, not their parent batch', async () => {
    env = bigEnv();
    const parent = (await env.from('big').collect()).batches;
    expect(retainedBytes(parent)).toBeGreaterThan(1_000_000);
    for (let i = 0; i < 20; i++) expect(await env.from('big').limit(5, i * 3001 + 1).cache().count()).toBe(5);
    const stored = storedBatches(env);
    expect(stored).toHaveLength(20);
    const charged = env.cacheManager.stats().memoryBytes;
    const held = retainedBytes(stored);
    expect(held).toBeLessThan(100_000); // before: the whole parent (> 1 MB)
    expect(held).toBeLessThanOrEqual(charged + 20 * 64); // what is charged is what is held
    // The compacted slices give the same rows as the uncached query.
    const plain = TableEnvironment.create();
    try {
      plain.registerTable('big', await env.from('big').collect());
      for (let i = 0; i < 20; i += 7) await expectSameRows(env.from('big').limit(5, i * 3001 + 1), plain.from('big').limit(5, i * 3001 + 1), { ordered: true });
    } finally {
      await plain.close();
    }
  });

  it('a whole batch is stored without a copy', async () => {
    env = bigEnv();
    const t = env.from('big').filter(col('k').ge(0)).cache();
    expect(await t.count()).toBe(ROWS);
    const [stored] = storedBatches(env);
    const again = (await t.collect()).batches[0]!;
    expect(again.data.children[0]!.values.buffer).toBe(stored!.data.children[0]!.values.buffer);
    expect(retainedBytes(stored!)).toBeLessThanOrEqual(2 * batchBytes(stored!));
  });

  it('compaction copies bits at odd offsets, strings, BIGINTs and NULLs exactly', async () => {
    env = bigEnv();
    const [batch] = (await env.from('big').collect()).batches;
    for (const [start, len] of [[1, 5], [3, 13], [8, 8], [65000, 536], [7, 1]] as const) {
      const slice = batch!.slice(start, start + len);
      const c = compactForCache(slice);
      expect(c).not.toBe(slice);
      expect(retainedBytes(c)).toBeLessThan(2 * batchBytes(c) + 64);
      const { Table } = await import('apache-arrow');
      expect(new Table([c]).toArray().map((r) => r.toJSON())).toEqual(new Table([slice]).toArray().map((r) => r.toJSON()));
      expect(c.data.children.map((d) => d.nullCount)).toEqual(slice.data.children.map((d) => d.nullCount));
    }
    expect(compactForCache(batch!)).toBe(batch); // nothing to gain
  });
});
