/**
 * Typed arrays handed from one query's operator instance to the next on the same thread: selection
 * vectors (a Filter's or a runtime-filtered scan's), a hash join's pair indexes, and the build columns
 * a hash join concatenated — arrays whose whole life is one run of one operator instance.
 *
 * Why: V8 counts every ArrayBuffer's bytes allocated since the last mark-compact against the old
 * generation's limit, so a run that allocates ~10 MB of short-lived buffers starts a mark-compact
 * every run or two even when the JS heap hardly grows (issue #10; bench/gc-per-run.ts): at
 * parallelism 2 the marking runs on helper threads that take a core from the two busy threads.
 * Operator instances are created per run, so a per-instance scratch array was fresh bytes every query;
 * taken from this pool it is fresh only on a thread's first query.
 *
 * Decision: the agg-buffers.ts pattern (a small bounded pool per thread; each worker isolate has its
 * own): arrays of MIN_BYTES or more, at most MAX_BYTES kept, all dropped after IDLE_MS without a take
 * or give. A take returns an array of at least the asked length and at most SLACK times it, with
 * arbitrary contents (callers write before they read). Only the owner gives an array back, once,
 * after its last read and when nothing it emitted can still read it; an array not given back is
 * simply collected. Taking is always safe, so a concatenation takes from the pool whoever owns its
 * output; only owners who know their arrays' lifetime give them back.
 */

/** The element types pooled. */
export type PooledArray = Int32Array | Float64Array;
type Ctor<T extends PooledArray> = { new (n: number): T; readonly BYTES_PER_ELEMENT: number };

/** Arrays smaller than this are not pooled (the allocator's small pieces are cheap, and count little). */
const MIN_BYTES = 16 << 10;
/** The most bytes kept at once. */
const MAX_BYTES = 32 << 20;
/** A pooled array serves a take of at least 1 / SLACK of its length. */
const SLACK = 4;
/** The pool is emptied after this long without use. */
const IDLE_MS = 10_000;

const pools = new Map<Ctor<PooledArray>, PooledArray[]>();
let pooled = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

function touch(): void {
  if (timer === undefined) {
    timer = setTimeout(dropScratch, IDLE_MS);
    timer.unref?.();
  } else timer.refresh();
}

/**
 * An array of `ctor` with at least `n` entries (at most SLACK·n when pooled), from the pool when one
 * fits, else new. Its contents are arbitrary: the caller writes every entry it later reads.
 */
export function takeScratch<T extends PooledArray>(ctor: Ctor<T>, n: number): T {
  if (n * ctor.BYTES_PER_ELEMENT >= MIN_BYTES / SLACK) {
    const pool = pools.get(ctor as Ctor<PooledArray>);
    if (pool !== undefined) {
      // The smallest array that fits.
      let best = -1;
      for (let i = 0; i < pool.length; i++) {
        const len = pool[i]!.length;
        if (len >= n && len <= SLACK * n && (best < 0 || len < pool[best]!.length)) best = i;
      }
      if (best >= 0) {
        const a = pool[best]!;
        pool[best] = pool[pool.length - 1]!;
        pool.pop();
        pooled -= a.byteLength;
        touch();
        return a as T;
      }
    }
  }
  return new ctor(n);
}

/**
 * Gives `a` back for reuse. The caller must own it (a take's result, or an array it allocated whole),
 * and neither it nor anything it emitted may read or write the array afterwards. Views of part of a
 * buffer are not taken.
 */
export function giveScratch(a: PooledArray): void {
  if (a.byteLength < MIN_BYTES || a.byteLength > MAX_BYTES || a.byteOffset !== 0 || a.buffer.byteLength !== a.byteLength) return;
  if (a.buffer instanceof SharedArrayBuffer) return;
  const ctor = a.constructor as Ctor<PooledArray>;
  if (ctor !== Int32Array && ctor !== Float64Array) return;
  let pool = pools.get(ctor);
  if (pool === undefined) { pool = []; pools.set(ctor, pool); }
  for (const x of pool) if (x.buffer === a.buffer) return; // given twice: keep one entry
  // Over the cap: drop the oldest arrays (of any type) first.
  while (pooled + a.byteLength > MAX_BYTES) {
    let dropped = false;
    for (const p of pools.values()) { const x = p.shift(); if (x !== undefined) { pooled -= x.byteLength; dropped = true; break; } }
    if (!dropped) break;
  }
  pool.push(a);
  pooled += a.byteLength;
  touch();
}

/** Empties the pool (tests that need a known start; the idle timer does the same after IDLE_MS). */
export function dropScratch(): void {
  pools.clear();
  pooled = 0;
  if (timer !== undefined) { clearTimeout(timer); timer = undefined; }
}

/** Bytes the pool holds now (tests). */
export function scratchBytes(): number {
  return pooled;
}
