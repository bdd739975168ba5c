/** The cache layer (FLIP-36): manager, instances, storage levels, sink and source operators, statistics. */
export { CacheServiceManager, type CacheHooks } from './manager.js';
export { CacheServiceInstance, batchBytes, type EvictionEvent } from './instance.js';
export { CacheLostError } from './errors.js';
export type { CacheEntry, PendingEntry, BlockRef, PartitionRef } from './entry.js';
export type { CacheMark } from './marks.js';
export { looseDigest } from './marks.js';
export { cacheSinkOperator } from './sink.js';
export type { BlockReadInfo } from './source.js';
export { blockStats, canSkipBlock, provablyFalse, type BlockStats, type ColumnStats, type StatValue } from './stats.js';
export {
  STORAGE_LEVELS, resolveCacheOptions, checkStorageLevel, defaultMemoryBudget,
  type StorageLevel, type CacheOptions, type CacheServiceOptions, type ResolvedCacheOptions,
} from './storage.js';
export { formatBytes, type CacheEntryInfo, type CacheStats, type CacheEvent, type CacheTier } from './report.js';
