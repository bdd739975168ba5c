/**
 * Where a loader allocates a table's final column buffers: ordinary ArrayBuffers, or
 * SharedArrayBuffers when the environment runs worker threads (parallelism > 1).
 *
 * Why: worker threads read a table's columns in place only from SharedArrayBuffers. A table
 * built in ordinary buffers is copied into shared memory by the first query that ships it
 * (planner/ship-tables.ts), and on this machine that copy cost the first shipped TPC-H Q1
 * 3.2-3.5 s of CPU at SF 1 (fresh pages touched for a second copy of lineitem), against ~0.1 s
 * at parallelism 1. A loader that builds the columns in shared memory from the start pays
 * nothing more than the ordinary build: the share step finds them shared and copies nothing.
 *
 * Only buffers a table keeps go here; scratch buffers stay ordinary. At parallelism 1 nothing
 * changes (`HEAP_MEMORY`): V8 does not count SharedArrayBuffers toward its GC heuristics, so
 * there is no reason to use them where no worker reads them. Shared buffers come from
 * exec/workers/shared-data.ts `newSharedBuffer`, which reports them to V8.
 */
import type * as arrow from 'apache-arrow';
import { newSharedBuffer, sharedDictionary } from '../exec/workers/shared-data.js';

/** An allocator of final column buffers (see the header). */
export interface ColumnMemory {
  /** True when the buffers are SharedArrayBuffers. */
  readonly shared: boolean;
  int32(length: number): Int32Array;
  float64(length: number): Float64Array;
  bytes(length: number): Uint8Array;
  /** The dictionary a column of this memory refers to: `v` itself, or its shared copy (one per original). */
  dictionary<T extends arrow.DataType>(v: arrow.Vector<T>): arrow.Vector<T>;
}

/** Ordinary ArrayBuffers (parallelism 1). */
export const HEAP_MEMORY: ColumnMemory = {
  shared: false,
  int32: (n) => new Int32Array(n),
  float64: (n) => new Float64Array(n),
  bytes: (n) => new Uint8Array(n),
  dictionary: (v) => v,
};

/** SharedArrayBuffers (parallelism > 1). */
export const SHARED_MEMORY: ColumnMemory = {
  shared: true,
  int32: (n) => new Int32Array(newSharedBuffer(4 * n)),
  float64: (n) => new Float64Array(newSharedBuffer(8 * n)),
  bytes: (n) => new Uint8Array(newSharedBuffer(n)),
  dictionary: (v) => sharedDictionary(v),
};

/** The memory for an environment of this parallelism. */
export function columnMemory(parallelism: number): ColumnMemory {
  return parallelism > 1 ? SHARED_MEMORY : HEAP_MEMORY;
}
