/**
 * Spill files are checksummed (issue 11): a spill file changed on disk —
 * one flipped byte anywhere, a truncation, bytes appended — is a lost
 * partition (C14: fallback to the original plan, a "cache lost" event, the
 * entry re-created), never a wrong answer. Before checksums, one flipped int64
 * turned a cached sum of 999,000 into 1,997,002 without any event.
 *
 * A lost entry's files are deleted asynchronously (CacheManager.lost does not wait for the unlinks),
 * so right after the query that re-created the entry the spill folder may still list some of the
 * lost store's files, more often on a loaded machine. A victim picked among those flips a byte no
 * run reads (no lost event), so the tests pick a victim once the folder holds only the live entry's
 * files (`spillFiles`).
 */
import { appendFileSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { col } from '../../src/api/expr.js';
import { crc32, crc32Portable } from '../../src/cache/checksum.js';
import { filesUnder } from '../cache/helpers.js';

let env: TableEnvironment | undefined;
afterEach(async () => { await env?.close(); env = undefined; });

const N = 2000;

/** `nums(k BIGINT)` 0..N-1 in 20 batches of 100; sum(k) = 1,999,000 and sum over k < 1000 = 499,500. */
function setup(): TableEnvironment {
  const e = TableEnvironment.create({ batchSize: 100, cache: { instances: 1, memoryBudgetBytes: 1024 } });
  e.registerTable('nums', e.fromRecords(Array.from({ length: N }, (_, k) => ({ k: BigInt(k) })), { k: 'BIGINT' }));
  return e;
}

/**
 * The `.arrow` spill files of `e`, sorted, once their number is `count` (the live entry's files: a
 * lost store's are being deleted); after 10 s the files as they are (the assertions then say what
 * is wrong).
 */
async function spillFiles(e: TableEnvironment, count?: number): Promise<string[]> {
  const list = (): string[] => filesUnder(e.cacheManager.spillDirectory).filter((f) => f.endsWith('.arrow')).sort();
  const until = performance.now() + 10_000;
  let files = list();
  while (count !== undefined && files.length !== count && performance.now() < until) {
    await new Promise((r) => setTimeout(r, 5));
    files = list();
  }
  return files;
}

function lostDetails(e: TableEnvironment): string[] {
  return e.cacheManager.events().filter((x) => x.kind === 'lost').map((x) => x.detail);
}

describe('checksummed spill files', () => {
  it('the CRC-32 fallback agrees with zlib', () => {
    const bytes = new Uint8Array(1000).map((_, i) => (i * 37 + 11) & 0xff);
    expect(crc32Portable(bytes)).toBe(crc32(bytes));
    expect(crc32Portable(new TextEncoder().encode('123456789'))).toBe(0xcbf43926); // the standard check value
    // Continued over pieces (a spill segment is checksummed chunk by chunk): the same as over the whole.
    for (const cut of [0, 1, 333, 999, 1000]) {
      const a = bytes.subarray(0, cut);
      const b = bytes.subarray(cut);
      expect(crc32(b, crc32(a))).toBe(crc32(bytes));
      expect(crc32Portable(b, crc32Portable(a))).toBe(crc32(bytes));
    }
  });

  it('a flipped byte at any of many positions of a spill file: the right sum, a lost event, the entry re-created', { timeout: 180_000 }, async () => {
    env = setup();
    const t = env.from('nums').filter(col('k').ge(0)).cache();
    expect(await t.sum('k')).toBe(1_999_000n);
    const id = env.cacheManager.idFor(t.plan);
    const first = await spillFiles(env);
    const size = readFileSync(first[0]!).byteLength;
    const positions = Array.from({ length: 24 }, (_, i) => Math.floor((i * (size - 1)) / 23));
    let losses = 0;
    for (const pos of positions) {
      const files = await spillFiles(env, first.length);
      expect(files.length).toBeGreaterThan(5);
      const victim = files[pos % files.length]!;
      const bytes = readFileSync(victim);
      bytes[pos % bytes.length] ^= 0x5a;
      writeFileSync(victim, bytes);
      expect(await t.sum('k'), `flipped byte ${pos} of ${victim}`).toBe(1_999_000n);
      losses++;
      expect(lostDetails(env).length, `no lost event for byte ${pos}`).toBe(losses);
      expect(lostDetails(env).at(-1)).toMatch(/is unreadable: spill file .* is corrupt: checksum/);
      expect(env.cacheManager.list().find((x) => x.id === id)?.state).toBe('materialized'); // re-created
    }
  });

  it('a flipped int64 value in the body (the reported repro) is caught', async () => {
    env = setup();
    const t = env.from('nums').filter(col('k').lt(1000)).cache();
    expect(await t.sum('k')).toBe(499_500n);
    const files = filesUnder(env.cacheManager.spillDirectory).filter((f) => f.endsWith('.arrow'));
    // Find the little-endian int64 value 5 (the 6th row of the first batch) and make it 999,005.
    let hit = false;
    for (const f of files) {
      const b = readFileSync(f);
      const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
      for (let i = 0; i + 8 <= b.byteLength && !hit; i += 8) {
        if (view.getBigInt64(i, true) === 5n && view.getBigInt64(i - 8, true) === 4n) { view.setBigInt64(i, 999_005n, true); writeFileSync(f, b); hit = true; }
      }
      if (hit) break;
    }
    expect(hit).toBe(true);
    expect(await t.sum('k')).toBe(499_500n);
    expect(lostDetails(env)).toHaveLength(1);
  });

  it('a truncated or extended spill file is lost, not misread', async () => {
    env = setup();
    const t = env.from('nums').filter(col('k').ge(0)).cache();
    expect(await t.count()).toBe(N);
    const first = await spillFiles(env);
    appendFileSync(first[0]!, Buffer.alloc(16));
    expect(await t.sum('k')).toBe(1_999_000n);
    expect(lostDetails(env).at(-1)).toMatch(/bytes, \d+ were written/);
    const [b] = await spillFiles(env, first.length);
    truncateSync(b!, 100);
    expect(await t.sum('k')).toBe(1_999_000n);
    expect(lostDetails(env)).toHaveLength(2);
  });
});
