import { describe, expect, it } from 'vitest';
import { cacheNote } from '../../src/cli/session.js';
import type { CacheStats } from '../../src/cache/report.js';

const base: CacheStats = { entries: 0, marks: 0, writing: 0, memoryBytes: 0, diskBytes: 0, hits: 0, misses: 0, lost: 0, evictions: 0, blocksRead: 0, blocksSkipped: 0 } as CacheStats;

describe('timing line cache note', () => {
  it('says when a statement read, wrote or lost caches', () => {
    expect(cacheNote(base, base)).toBeUndefined();
    expect(cacheNote(base, { ...base, hits: 1 })).toBe('read 1 cache');
    expect(cacheNote(base, { ...base, misses: 2 })).toBe('wrote 2 caches');
    expect(cacheNote(base, { ...base, hits: 1, misses: 1, lost: 1 })).toBe('read 1 cache, wrote 1 cache, 1 cache lost');
  });
});
