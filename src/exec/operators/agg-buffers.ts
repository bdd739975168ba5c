/**
 * Big per-group state arrays handed from one aggregate to the next on the same thread: a state
 * whose result has been emitted gives its array back (`recycleF64`), and the next state that grows
 * to about that size takes it (`takeF64`, zeroed) instead of allocating.
 *
 * Why: a fresh array of many megabytes is fresh pages — the allocator maps them from the OS for
 * each query and every first touch faults. TPC-H Q18's 1.5M sum(DOUBLE) groups are a 35 MB state:
 * on the 2-core benchmark machine its page faults cost more CPU than the sums added into it
 * (bench/q18-having.ts; docs/bench.md "q18having"), and the new external memory also drove V8's
 * mark-compacts. Zeroing a reused array costs a memset of warm pages instead.
 *
 * Decision: a small bounded pool per thread (each worker isolate has its own), of arrays of
 * MIN_BYTES or more only (smaller ones come from the allocator's heap, whose pages stay mapped);
 * at most MAX_BYTES are kept, and all are dropped after IDLE_MS without a take or give, so an idle
 * process does not hold them (jemalloc returns unused dirty pages after the same 10 s by default;
 * 2 s emptied the pool between the runs of a benchmark on a loaded machine). Only the owner of an
 * array gives it back, after its last read.
 *
 * Measured limit: arrays under glibc's 32 MB mmap ceiling are often recycled by malloc itself (its
 * mmap threshold rises to the size of a freed chunk), so the pool mostly helps states above it:
 * Q18's 35 MB state at parallelism 1, not the 18 MB states of its two worker shares.
 */

/** Arrays smaller than this are not pooled. */
const MIN_BYTES = 4 << 20;
/** The most bytes kept at once. */
const MAX_BYTES = 64 << 20;
/** The pool is emptied after this long without use. */
const IDLE_MS = 10_000;

const pool: Float64Array[] = [];
let pooled = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

function touch(): void {
  if (timer === undefined) {
    timer = setTimeout(() => { pool.length = 0; pooled = 0; timer = undefined; }, IDLE_MS);
    timer.unref?.();
  } else timer.refresh();
}

/** A zeroed pooled array of at least `n` entries (and at most 2n), or undefined when none fits. */
export function takeF64(n: number): Float64Array<ArrayBuffer> | undefined {
  if (n * 8 < MIN_BYTES) return undefined;
  for (let i = 0; i < pool.length; i++) {
    const a = pool[i]!;
    if (a.length < n || a.length > 2 * n) continue;
    pool.splice(i, 1);
    pooled -= a.byteLength;
    touch();
    a.fill(0);
    return a as Float64Array<ArrayBuffer>;
  }
  return undefined;
}

/** Gives `a` back for reuse: its owner must not read or write it afterwards. */
export function recycleF64(a: Float64Array): void {
  if (a.byteLength < MIN_BYTES || a.byteLength > MAX_BYTES || a.byteOffset !== 0 || a.buffer.byteLength !== a.byteLength) return;
  while (pooled + a.byteLength > MAX_BYTES) pooled -= pool.shift()!.byteLength;
  pool.push(a);
  pooled += a.byteLength;
  touch();
}

/** Empties the pool (tests that need a known start; the idle timer does the same after IDLE_MS). */
export function dropPooled(): void {
  pool.length = 0;
  pooled = 0;
}

/** Bytes the pool holds now (tests). */
export function pooledBytes(): number {
  return pooled;
}
