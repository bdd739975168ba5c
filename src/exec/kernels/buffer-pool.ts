/**
 * A per-thread pool of big typed arrays handed from one query's hash tables and aggregate states to
 * the next on the same thread: an owner whose array is dead gives it back (`giveArray`), and the next
 * table or state that needs about that size takes it (`takeArray`, zeroed) instead of allocating.
 *
 * Why (issue #10): every fresh ArrayBuffer is external memory to V8, and V8 counts the external bytes
 * allocated since the last mark-compact against the old generation's limit: a TPC-H Q18 run made
 * ~15 MB of fresh typed arrays in each isolate at parallelism 2 (19.5 MB at 1), which was enough to
 * start a mark-compact in most runs, and its concurrent marking took the second core from the busy
 * thread (bench/gc-runs.ts). A big fresh array is also fresh pages: every first touch faults
 * (docs/bench.md "q18having": Q18's 35 MB sum state faulted for more CPU than its sums took).
 * Zeroing a reused array is a memset of warm pages, and it is no new external memory.
 *
 * Decision: one bounded pool per thread (each worker isolate has its own module state), for arrays of
 * MIN_BYTES or more (a smaller one costs little, and pooling it would cost more lookups than it
 * saves); an array is taken only for a need of at least half its size (no 30 MB array for a 1 MB
 * need); at most MAX_BYTES are kept, the oldest dropped first; all are dropped after IDLE_MS without
 * a take or give, so an idle process does not hold them (jemalloc returns unused dirty pages after
 * the same 10 s by default; 2 s emptied the pool between the runs of a benchmark on a loaded
 * machine). Only the owner of an array gives it back, after its last read and write, and never an
 * array another object can still see (a view under an emitted column).
 */

/** Arrays smaller than this are not pooled. */
const MIN_BYTES = 64 << 10;
/** The most bytes kept at once. */
const MAX_BYTES = 64 << 20;
/** The pool is emptied after this long without use. */
const IDLE_MS = 10_000;

/** The typed-array kinds the pool hands out. */
type PooledArray = Float64Array | Int32Array | Uint8Array;
type Ctor<T extends PooledArray> = { new (buffer: ArrayBuffer, byteOffset?: number, length?: number): T; readonly BYTES_PER_ELEMENT: number };

const pool: PooledArray[] = [];
let pooled = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

function touch(): void {
  if (timer === undefined) {
    timer = setTimeout(() => { pool.length = 0; pooled = 0; timer = undefined; }, IDLE_MS);
    timer.unref?.();
  } else timer.refresh();
}

/**
 * A zeroed array of kind `ctor` with at least `n` entries (and at most about 2n) from the pool, or
 * undefined when none fits (the caller allocates). An array pooled as another kind comes back as a
 * view of this kind over its whole buffer.
 */
export function takeArray<T extends PooledArray>(ctor: Ctor<T>, n: number): T | undefined {
  const bytes = n * ctor.BYTES_PER_ELEMENT;
  if (bytes < MIN_BYTES) return undefined;
  // The smallest array that fits: a doubling table's next size must not take the array a bigger need comes for next.
  let i = -1;
  for (let j = 0; j < pool.length; j++) {
    const len = pool[j]!.byteLength;
    if (len >= bytes && len <= 2 * bytes && (i < 0 || len < pool[i]!.byteLength)) i = j;
  }
  if (i >= 0) {
    const a = pool[i]!;
    pool.splice(i, 1);
    pooled -= a.byteLength;
    touch();
    const out = a instanceof ctor ? a : new ctor(a.buffer as ArrayBuffer, 0, Math.floor(a.byteLength / ctor.BYTES_PER_ELEMENT));
    out.fill(0);
    return out;
  }
  return undefined;
}

/**
 * Gives `a` back for reuse: its owner must neither read nor write it afterwards, and nothing else may
 * hold it or a view over it. Arrays that are views into a bigger buffer are not kept.
 */
export function giveArray(a: PooledArray): void {
  if (a.byteLength < MIN_BYTES || a.byteLength > MAX_BYTES || a.byteOffset !== 0 || a.buffer.byteLength !== a.byteLength) return;
  if (a.buffer instanceof SharedArrayBuffer || pool.includes(a)) return; // given twice, two takers would share it
  while (pooled + a.byteLength > MAX_BYTES) pooled -= pool.shift()!.byteLength;
  pool.push(a);
  pooled += a.byteLength;
  touch();
}

/** Empties the pool (tests that need a known start; the idle timer does the same after IDLE_MS). */
export function dropPooledArrays(): void {
  pool.length = 0;
  pooled = 0;
}

/** Bytes the pool holds now (tests). */
export function pooledArrayBytes(): number {
  return pooled;
}
