/**
 * Reading a spilled entry reads only the columns a query needs
 * (src/cache/spill-format.ts), and a scan of an entry larger than the budget
 * keeps its resident part resident instead of thrashing (instance.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { col } from '../../src/api/expr.js';
import { expectSameRows, numsTable, registerProbed } from './helpers.js';

let env: TableEnvironment;
let plain: TableEnvironment;
afterEach(async () => { await env.close(); await plain.close(); });

async function setup(budget: number): Promise<void> {
  env = TableEnvironment.create({ parallelism: 1, batchSize: 100, cache: { instances: 1, memoryBudgetBytes: budget } });
  registerProbed(env, 'nums', await numsTable(env, 20, 100), { scans: 0, batches: 0 });
  plain = TableEnvironment.create({ parallelism: 1 });
  plain.registerTable('nums', await numsTable(plain, 20, 100));
}

const lost = (): number => env.cacheManager.events().filter((e) => e.kind === 'lost').length;

describe('spilled entries', () => {
  it('a query reads only its columns from disk: a corrupted column nobody reads is harmless, reading it is a lost block', async () => {
    await setup(1024);
    const t = env.from('nums').cache();
    await t.count();
    const entry = env.cacheManager.entryById(env.cacheManager.idFor(t.plan))!;
    const inst = env.cacheManager.instances[0]!;
    const spilled = entry.partitions[0]!.blocks.filter((b) => inst.tierOf(b.key) === 'disk');
    expect(spilled.length).toBeGreaterThan(15);
    // Overwrite the first bytes of every file's last segment (column n) with garbage of the same length.
    const s = env.cacheManager.spillDirectory!;
    const { filesUnder } = await import('./helpers.js');
    for (const f of filesUnder(s)) {
      const bytes = readFileSync(f);
      const at = bytes.length - 64;
      for (let i = 0; i < 8; i++) bytes[at + i] ^= 0xa5;
      writeFileSync(f, bytes);
    }
    await expectSameRows(env.from('nums').select('k', 's').filter(col('k').ge(0)), plain.from('nums').select('k', 's'));
    expect(lost()).toBe(0);
    await expectSameRows(env.from('nums').filter(col('k').ge(0)).select('n'), plain.from('nums').select('n'));
    expect(lost()).toBe(1);
    expect(env.cacheManager.events().find((e) => e.kind === 'lost')!.detail).toMatch(/corrupt: checksum [0-9a-f]+ of column 4/);
  });

  it('scanning an entry larger than the budget again reads the resident blocks from memory, not every block from disk', async () => {
    await setup(16 * 1024);
    const t = env.from('nums').cache();
    await t.count();
    const inst = env.cacheManager.instances[0]!;
    const before = inst.diskReads;
    const resident = inst.memoryBytes();
    expect(resident).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) await expectSameRows(t.select('k', 'v'), plain.from('nums').select('k', 'v'));
    const blocks = env.cacheManager.entryById(env.cacheManager.idFor(t.plan))!.partitions[0]!.blocks;
    const inMemory = blocks.filter((b) => inst.tierOf(b.key) === 'memory').length;
    expect(inMemory).toBeGreaterThan(0);
    expect(inst.diskReads - before).toBe(3 * (blocks.length - inMemory)); // plain LRU: every block, every scan
    expect(inst.memoryBytes()).toBe(resident);
  });
});
