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
 * Two kinds of take share one store: `takeArray` for hash tables and aggregate states (zeroed, or
 * undefined so that the caller allocates), and `takeScratch` for arrays of one operator run —
 * selection vectors, join pair indexes, concatenated build columns, runtime-filter bits — whose
 * contents are arbitrary (callers write before they read; a new array when none fits). One store
 * and one cap, not a pool per kind: two pools each with its own cap held up to 96 MB per thread.
 *
 * Decision: one bounded pool per thread (each worker isolate has its own module state), for arrays of
 * MIN_BYTES or more (SCRATCH_MIN_BYTES for scratch takes) (a smaller one costs little, and pooling it would cost more lookups than it
 * saves); an array is taken only for a need of at least half its size (no 30 MB array for a 1 MB
 * need); at most MAX_BYTES are kept, the oldest dropped first; all are dropped after IDLE_MS without
 * a take or give (checked when the timer fires: between IDLE_MS and twice that), so an idle process does not hold them (jemalloc returns unused dirty pages after
 * the same 10 s by default; 2 s emptied the pool between the runs of a benchmark on a loaded
 * machine). Only the owner of an array gives it back, after its last read and write, and never an
 * array another object can still see (a view under an emitted column).
 */

/** Zeroed takes below this many bytes are not served from the pool. */
const MIN_BYTES = 64 << 10;
/** Arrays smaller than this are not kept, and scratch takes below a quarter of it are not served. */
const SCRATCH_MIN_BYTES = 16 << 10;
/** A pooled array serves a zeroed take of at least half, a scratch take of at least a quarter of its size. */
const SLACK = 2;
const SCRATCH_SLACK = 4;
/** The most bytes kept at once. */
const MAX_BYTES = 64 << 20;
/** The most arrays kept at once (a take scans them all). */
const MAX_ARRAYS = 256;
/** The pool is emptied after this long without use. */
const IDLE_MS = 10_000;

/** The typed-array kinds the pool hands out. */
export type PooledArray = Float64Array | Int32Array | Uint8Array;
type Ctor<T extends PooledArray> = { new (buffer: ArrayBuffer, byteOffset?: number, length?: number): T; new (n: number): T; readonly BYTES_PER_ELEMENT: number };

const pool: PooledArray[] = [];
let pooled = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

/** A take or give since the idle timer last fired. */
let used = false;

/**
 * Marks the pool used: the per-call work is one store. Why not `timer.refresh()` per call (issue #10):
 * V8 inlined Node's timer-list code into giveArray and takeFitting, functions called a few times per
 * batch that reach TurboFan late, so each of their compiles took 10-20 ms on a helper thread in timed
 * TPC-H Q3 runs at parallelism 2. The timer now checks the mark when it fires (idleCheck), so the pool
 * is emptied after IDLE_MS to 2 × IDLE_MS without use.
 */
function touch(): void {
  used = true;
}

/** Starts the idle timer (once the pool holds an array; it stops when the pool is empty). */
function armIdleTimer(): void {
  timer = setTimeout(idleCheck, IDLE_MS);
  timer.unref?.();
}

function idleCheck(): void {
  if (pool.length > 0 && used) {
    used = false;
    armIdleTimer();
    return;
  }
  dropPooledArrays();
}

/** Removes and returns the smallest pooled array of at least `bytes` and at most `slack` times that, as kind `ctor`. */
function takeFitting<T extends PooledArray>(ctor: Ctor<T>, bytes: number, slack: number): T | undefined {
  // The smallest array that fits: a doubling table's next size must not take the array a bigger need comes for next.
  let i = -1;
  for (let j = 0; j < pool.length; j++) {
    const len = pool[j]!.byteLength;
    if (len >= bytes && len <= slack * bytes && (i < 0 || len < pool[i]!.byteLength)) i = j;
  }
  if (i < 0) return undefined;
  const a = pool[i]!;
  pool.splice(i, 1); // keeps the pool oldest first, for the cap's drops
  pooled -= a.byteLength;
  touch();
  return a instanceof ctor ? a : viewAs(ctor, a);
}

/** `a`'s whole buffer as kind `ctor` (cold: most takes want the kind they gave). */
function viewAs<T extends PooledArray>(ctor: Ctor<T>, a: PooledArray): T {
  // The remainder taken off first: the division is always exact, so V8's small-integer feedback for it
  // holds (Math.floor of an inexact quotient deoptimized takeFitting, "lost precision", in Q3 timed runs).
  const size = ctor.BYTES_PER_ELEMENT;
  return new ctor(a.buffer as ArrayBuffer, 0, (a.byteLength - (a.byteLength % size)) / size);
}

/**
 * A zeroed array of kind `ctor` with at least `n` entries (and at most about 2n) from the pool, or
 * undefined when none fits (the caller allocates). An array pooled as another kind comes back as a
 * view of this kind over its whole buffer.
 */
export function takeArray<T extends PooledArray>(ctor: Ctor<T>, n: number): T | undefined {
  const bytes = n * ctor.BYTES_PER_ELEMENT;
  if (bytes < MIN_BYTES) return undefined;
  const out = takeFitting(ctor, bytes, SLACK);
  out?.fill(0);
  return out;
}

/**
 * An array of kind `ctor` with at least `n` entries (at most 4n when pooled) from the pool when one
 * fits, else new. Its contents are arbitrary: the caller writes every entry it later reads.
 */
export function takeScratch<T extends PooledArray>(ctor: Ctor<T>, n: number): T {
  const bytes = n * ctor.BYTES_PER_ELEMENT;
  return (bytes >= SCRATCH_MIN_BYTES / SCRATCH_SLACK ? takeFitting(ctor, bytes, SCRATCH_SLACK) : undefined) ?? new ctor(n);
}

/**
 * Gives `a` back for reuse: its owner must neither read nor write it afterwards, and nothing else may
 * hold it or a view over it. Arrays that are views into a bigger buffer are not kept; an array
 * given twice is kept once (two takers would share it).
 */
export function giveArray(a: PooledArray): void {
  if (a.byteLength < SCRATCH_MIN_BYTES || a.byteLength > MAX_BYTES || a.byteOffset !== 0 || a.buffer.byteLength !== a.byteLength) return;
  if (a.buffer instanceof SharedArrayBuffer) return;
  for (const x of pool) if (x.buffer === a.buffer) return;
  // Over a cap: drop the oldest first.
  while (pool.length > 0 && (pooled + a.byteLength > MAX_BYTES || pool.length >= MAX_ARRAYS)) pooled -= pool.shift()!.byteLength;
  pool.push(a);
  pooled += a.byteLength;
  touch();
  if (timer === undefined) armIdleTimer();
}

/** Empties the pool (tests that need a known start; the idle timer does the same after IDLE_MS). */
export function dropPooledArrays(): void {
  pool.length = 0;
  pooled = 0;
  used = false;
  if (timer !== undefined) { clearTimeout(timer); timer = undefined; }
}

/** Bytes the pool holds now (tests). */
export function pooledArrayBytes(): number {
  return pooled;
}
