/**
 * Storage configuration of the cache service: storage levels and the options
 * of an environment's cache (instances, memory and disk budgets, spill
 * directory), with their defaults.
 *
 * The default disk budget is a quarter of the spill volume's free space when
 * the environment first spills, at most 4 GiB: a cache that outgrows memory
 * should not be able to fill a disk (one cross join once wrote 6.1 GB).
 */
import { getHeapStatistics } from 'node:v8';
import { ValidationError } from '../relnode/errors.js';

/**
 * Where a cached partition may live. MEMORY_AND_DISK (the default): in memory
 * while it fits the instance's budget, spilled to an Arrow IPC file when it is
 * evicted. MEMORY_ONLY: evicted data is dropped, and the entry it belonged to
 * is lost (re-computed by the next query that needs it).
 */
export type StorageLevel = 'MEMORY_AND_DISK' | 'MEMORY_ONLY';

/** The storage levels, default first. */
export const STORAGE_LEVELS: readonly StorageLevel[] = ['MEMORY_AND_DISK', 'MEMORY_ONLY'];

/** Options of `table.cache(options)`. */
export interface CacheOptions {
  /** Default: the environment's `cache.storageLevel` (MEMORY_AND_DISK). */
  readonly storageLevel?: StorageLevel;
}

/** The `cache` options of `TableEnvironment.create`. */
export interface CacheServiceOptions {
  /** Number of cache service instances (partition i of a result lives on instance i mod N). Default: the parallelism. */
  readonly instances?: number;
  /** Memory budget of all instances together, in bytes, split evenly. Default: 25% of the V8 heap limit, at most 1 GiB. */
  readonly memoryBudgetBytes?: number;
  /**
   * Most bytes of spill files at once, over all instances. A block that would go past it is not
   * written but dropped, as under MEMORY_ONLY (its entry is re-computed when next needed), with a
   * 'dropped' cache event. Default: 25% of the spill volume's free space at the first spill, at
   * most 4 GiB. 0 disables spilling.
   */
  readonly diskBudgetBytes?: number;
  /** Parent directory of spill files; the environment makes its own subdirectory in it. Default: the OS temp directory. */
  readonly spillDir?: string;
  /** Storage level of entries whose `cache()` call did not choose one. Default MEMORY_AND_DISK. */
  readonly storageLevel?: StorageLevel;
  /**
   * Test switch: treat every deterministic subtree of every query as marked
   * with `cache()` (differential tests run whole suites this way). Default false.
   */
  readonly cacheAllSubtrees?: boolean;
}

/** Cache options with every default applied. */
export interface ResolvedCacheOptions {
  readonly instances: number;
  readonly memoryBudgetBytes: number;
  /** Undefined: the default, computed from the free space at the first spill. */
  readonly diskBudgetBytes: number | undefined;
  readonly spillDir: string | undefined;
  readonly storageLevel: StorageLevel;
  readonly cacheAllSubtrees: boolean;
}

const GIB = 1024 ** 3;

/** The default total memory budget: a quarter of the V8 heap limit, capped at 1 GiB. */
export function defaultMemoryBudget(): number {
  return Math.min(GIB, Math.floor(getHeapStatistics().heap_size_limit / 4));
}

/** Share of the spill volume's free space the default disk budget takes. */
export const DEFAULT_DISK_FRACTION = 0.25;
/** Cap of the default disk budget. */
export const DEFAULT_DISK_CAP = 4 * GIB;

/** The default disk budget given the spill volume's free bytes (unknown free space: the cap). */
export function defaultDiskBudget(freeBytes: number | undefined): number {
  if (freeBytes === undefined || !Number.isFinite(freeBytes)) return DEFAULT_DISK_CAP;
  return Math.min(DEFAULT_DISK_CAP, Math.floor(Math.max(0, freeBytes) * DEFAULT_DISK_FRACTION));
}

/** Validates the options and applies the defaults (`parallelism` is the environment's). */
export function resolveCacheOptions(o: CacheServiceOptions | undefined, parallelism: number): ResolvedCacheOptions {
  const instances = o?.instances ?? parallelism;
  if (!Number.isInteger(instances) || instances < 1 || instances > 256) throw new ValidationError(`cache.instances must be an integer from 1 to 256, got ${instances}`);
  const budget = o?.memoryBudgetBytes ?? defaultMemoryBudget();
  if (!Number.isFinite(budget) || budget < 0) throw new ValidationError(`cache.memoryBudgetBytes must be a number of bytes ≥ 0, got ${budget}`);
  const disk = o?.diskBudgetBytes;
  if (disk !== undefined && (!Number.isFinite(disk) || disk < 0)) throw new ValidationError(`cache.diskBudgetBytes must be a number of bytes ≥ 0, got ${disk}`);
  const level = o?.storageLevel ?? 'MEMORY_AND_DISK';
  checkStorageLevel(level);
  return { instances, memoryBudgetBytes: Math.floor(budget), diskBudgetBytes: disk === undefined ? undefined : Math.floor(disk), spillDir: o?.spillDir, storageLevel: level, cacheAllSubtrees: o?.cacheAllSubtrees ?? false };
}

/** Throws a ValidationError naming the valid levels unless `level` is one. */
export function checkStorageLevel(level: string): asserts level is StorageLevel {
  if (!(STORAGE_LEVELS as readonly string[]).includes(level)) throw new ValidationError(`unknown storage level "${level}"; use one of ${STORAGE_LEVELS.join(', ')}`);
}
