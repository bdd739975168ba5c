/**
 * The options of a TableEnvironment and their checking: defaults filled in
 * once, every value validated with a message that names the option.
 */
import { ValidationError } from '../relnode/errors.js';
import { resolveCacheOptions, type CacheServiceOptions, type ResolvedCacheOptions } from '../cache/storage.js';
import { DEFAULT_MAX_ITERATION_ROUNDS } from '../planner/lower-iterate.js';
import { availableParallelism, totalmem } from 'node:os';
import { parseByteSize } from '../exec/memory.js';

/** The default memory limit: 80% of the machine's memory (DuckDB's default). */
export const DEFAULT_MEMORY_FRACTION = 0.8;

/** A memoryLimit option (bytes or `'4GB'`) as bytes, or the default. */
export function resolveMemoryLimit(v: number | string | undefined): number {
  if (v === undefined) return Math.floor(totalmem() * DEFAULT_MEMORY_FRACTION);
  const n = typeof v === 'number' ? v : parseByteSize(v);
  if (n === undefined || !Number.isFinite(n) || n <= 0) throw new ValidationError(`memoryLimit must be a positive number of bytes or a size like '4GB', got ${String(v)}`);
  return n;
}

/**
 * The most cores the default parallelism uses. Every worker thread is a V8 isolate of its own
 * (tens of MB, and its own JIT warm-up), and a stage's fixed costs grow with the workers while
 * its per-worker share shrinks: past a few cores a query of TPC-H SF 1's size gains little.
 * A larger `parallelism` (up to 64) is still allowed explicitly.
 */
export const MAX_DEFAULT_PARALLELISM = 8;

/**
 * The parallelism of an environment created without one: the environment variable
 * `EDDY_PARALLELISM` (an integer from 1 to 64) if set, else the machine's cores
 * (`os.availableParallelism()`, which respects CPU affinity) up to MAX_DEFAULT_PARALLELISM.
 * `cores` stands in for the machine's (tests).
 */
export function defaultParallelism(env: Readonly<Record<string, string | undefined>> = process.env, cores: number = availableParallelism()): number {
  const v = env['EDDY_PARALLELISM'];
  if (v !== undefined && v.trim() !== '') {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > 64) throw new ValidationError(`EDDY_PARALLELISM must be an integer from 1 to 64, got '${v}'`);
    return n;
  }
  return Math.max(1, Math.min(MAX_DEFAULT_PARALLELISM, Math.floor(cores)));
}

/** Options of `TableEnvironment.create`. */
export interface EnvironmentOptions {
  /**
   * Subtasks per parallel operator (scans, filters, hash exchanges), and worker threads for the
   * stages that run on them (docs/multi-core.md). Default: the machine's cores, at most 8, or the
   * environment variable `EDDY_PARALLELISM` (defaultParallelism). Results are the same for any
   * value (up to the last bits of floating-point sums: docs/multi-core.md).
   */
  readonly parallelism?: number;
  /** Preferred rows per record batch. Default 65536. */
  readonly batchSize?: number;
  /** Run the optimizer (default true). Turning it off is for debugging. */
  readonly optimize?: boolean;
  /** The cache service (FLIP-36): instances, memory budget, spill directory, default storage level (docs/caching.md). */
  readonly cache?: CacheServiceOptions;
  /**
   * Bytes of operator state (join build sides, sort buffers, groups) one query
   * may hold before it fails with a clear error — DuckDB's `memory_limit`: a
   * number of bytes or a size like `'4GB'`. Default 80% of the machine's
   * memory. `SET memory_limit = '...'` changes it for the session.
   */
  readonly memoryLimit?: number | string;
  /** Rounds after which an iteration without a round limit fails unless at its fixpoint. Default 10,000 (docs/table-iteration.md). */
  readonly maxIterationRounds?: number;
  /**
   * Worker threads for parallelism > 1 (docs/multi-core.md): `'auto'` (default) runs aggregates
   * over in-memory scans or Parquet files of at least 200,000 rows on `parallelism` worker threads when the
   * planner estimates that this pays (a stage that would not stays on the calling thread;
   * EXPLAIN says why); `'large'` ships every such aggregate without weighing it; `'always'` does
   * so whatever the size, and always exchanges a keyed stage's rows between the workers (tests);
   * `'off'` runs every subtask on the calling thread.
   */
  readonly workers?: 'auto' | 'large' | 'always' | 'off';
  /**
   * Whether the calling thread runs one share of every worker stage itself, with `parallelism − 1`
   * worker threads for the others (default true: it would otherwise wait idle through the stage;
   * docs/multi-core.md). The answers are the same bits either way. `false` starts `parallelism`
   * worker threads (tests of per-worker mechanics; the environment variable `EDDY_CALLING_SHARE=0`
   * changes the default).
   */
  readonly callingThreadShare?: boolean;
  /**
   * Whether tables eddy stores in memory (CREATE TABLE AS, INSERT, UPDATE, DELETE, COPY FROM,
   * `insertInto`) dictionary-encode their low-cardinality VARCHAR columns, as tables read from
   * Parquet and Arrow files are (default true; docs/files.md "Stored tables"). `false` stores plain
   * strings (benchmarks compare the two).
   */
  readonly dictionaryStore?: boolean;
  /**
   * @internal Tests of the parallel graph: at parallelism > 1, a query that runs no worker stage
   * runs the graph at `parallelism` on the calling thread (subtasks taking turns, as a cache write
   * does) instead of the parallelism-1 graph. Default false.
   */
  readonly parallelGraph?: boolean;
}

/** The options after `resolveEnvironmentOptions`: every default filled in, the cache options and memory limit resolved. */
export type ResolvedEnvironmentOptions = Required<EnvironmentOptions> & { readonly cache: ResolvedCacheOptions; readonly memoryLimit: number };

/** The options with their defaults, checked (a ValidationError names the bad one). */
export function resolveEnvironmentOptions(options: EnvironmentOptions): ResolvedEnvironmentOptions {
  const parallelism = options.parallelism ?? defaultParallelism();
  const batchSize = options.batchSize ?? 65536;
  if (!Number.isInteger(parallelism) || parallelism < 1 || parallelism > 64) throw new ValidationError(`parallelism must be an integer from 1 to 64, got ${parallelism}`);
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new ValidationError(`batchSize must be a positive integer, got ${batchSize}`);
  const cache = resolveCacheOptions(options.cache, parallelism);
  const memoryLimit = resolveMemoryLimit(options.memoryLimit);
  const maxIterationRounds = options.maxIterationRounds ?? DEFAULT_MAX_ITERATION_ROUNDS;
  if (!Number.isInteger(maxIterationRounds) || maxIterationRounds < 1) throw new ValidationError(`maxIterationRounds must be a positive integer, got ${maxIterationRounds}`);
  const workers = options.workers ?? 'auto';
  if (workers !== 'auto' && workers !== 'large' && workers !== 'always' && workers !== 'off') throw new ValidationError(`workers must be 'auto', 'large', 'always' or 'off', got ${String(workers)}`);
  const callingThreadShare = options.callingThreadShare ?? process.env['EDDY_CALLING_SHARE'] !== '0';
  if (typeof callingThreadShare !== 'boolean') throw new ValidationError(`callingThreadShare must be true or false, got ${String(callingThreadShare)}`);
  const parallelGraph = options.parallelGraph ?? false;
  const dictionaryStore = options.dictionaryStore ?? true;
  if (typeof dictionaryStore !== 'boolean') throw new ValidationError(`dictionaryStore must be true or false, got ${String(dictionaryStore)}`);
  return { parallelism, batchSize, optimize: options.optimize ?? true, cache, memoryLimit, maxIterationRounds, workers, callingThreadShare, parallelGraph, dictionaryStore };
}
