/**
 * Cache-backed list state: rows and batches in order, memory first, spilling
 * the oldest batches through the cache's spill area past the budget, files
 * removed on clear.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { SpillArea } from '../../src/cache/spill.js';
import { CachedListState } from '../../src/iteration/list-state.js';
import { S, ints, valuesOf } from './helpers/nodes.js';

const areas: SpillArea[] = [];
afterEach(async () => { for (const a of areas.splice(0)) await a.close(); });

describe('CachedListState', () => {
  it('keeps rows and batches in order, batching single rows', () => {
    const s = new CachedListState(S, { batchSize: 2 });
    s.add({ v: 1 });
    s.addBatch(ints([2, 3]));
    s.add({ v: 4 }); s.add({ v: 5 }); s.add({ v: 6 });
    expect(s.size).toBe(6);
    expect([...s.rows()].map((r) => r['v'])).toEqual([1, 2, 3, 4, 5, 6]);
    expect([...s.batches()].map(valuesOf)).toEqual([[1], [2, 3], [4, 5], [6]]);
    s.clear();
    expect(s.size).toBe(0);
    expect([...s.rows()]).toEqual([]);
  });

  it('spills the oldest batches past its memory budget and reads them back', () => {
    const spill = new SpillArea(undefined, 1 << 30);
    areas.push(spill);
    const s = new CachedListState(S, { memoryBudgetBytes: 4000 * 3, spill });
    for (let i = 0; i < 10; i++) s.addBatch(ints(Array.from({ length: 1000 }, (_, j) => i * 1000 + j)));
    expect(s.spilledBatches).toBeGreaterThanOrEqual(7);
    expect(s.residentBytes).toBeLessThanOrEqual(4000 * 3);
    const all = [...s.batches()].flatMap(valuesOf);
    expect(all).toEqual(Array.from({ length: 10000 }, (_, i) => i));
    const dir = spill.directory!;
    expect(existsSync(dir)).toBe(true);
    s.clear();
    expect(spill.usedBytes).toBe(0);
  });

  it('snapshots its rows and restores them', () => {
    const s = new CachedListState(S);
    s.addBatch(ints([7, 8]));
    const snap = structuredClone(s.snapshotState());
    const t = new CachedListState(S);
    t.restoreState(snap);
    expect([...t.rows()].map((r) => r['v'])).toEqual([7, 8]);
  });
});
