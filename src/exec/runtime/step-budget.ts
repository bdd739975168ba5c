/**
 * How much work one scheduler step may do (issue 11: no event-loop pause over
 * 100 ms in any operator at SF 1).
 *
 * Decision: two bounds, one per kind of work.
 * - Input: delivery is push-based, so handing a consumer one batch runs its
 *   whole synchronous chain downstream (filter → probe → aggregate ...). The
 *   run measures each channel's cost per row (the consumer's call including
 *   everything it fed synchronously) and delivers at most the rows that fit
 *   `DELIVERY_BUDGET_MS`; the rest of the batch (a zero-copy slice) stays
 *   at the head of the channel's queue for the next pass. A cheap chain gets
 *   whole batches (no overhead); an expensive one (LIKE over long strings, a
 *   residual per pair) gets slices of a few thousand rows. Measured in CPU
 *   time of the process (`process.cpuUsage`), not wall time: on a loaded
 *   machine wall time per row rises with the load, slices would shrink to the
 *   minimum and per-batch overhead would add to the load. Batches of
 *   ≤ MIN_SLICE_ROWS rows are neither cut nor measured (a clock read costs a
 *   few µs; small queries pay nothing); every delivery from a bigger batch is
 *   measured, also a minimum-sized slice (so an estimate can recover). The
 *   first delivery on a channel, before anything was measured, is at most
 *   `FIRST_SLICE_ROWS`. Not every delivery is measured: the first
 *   `MEASURED_FIRST` on a channel are, then one in `MEASURE_EVERY`. A
 *   `process.cpuUsage()` call costs 5–7 µs (a getrusage system call, measured
 *   here), and a cached `count()` over 275 batches spent 8 of its 22 ms CPU
 *   reading the clock (~1,200 calls); the estimate needs samples, not all.
 *   The cost of the deliveries in between follows from the estimate.
 * - Output and internal steps: an operator's deferred steps (join probe
 *   chunks, emitting groups or sorted rows, building a hash table) handle at
 *   most `STEP_ROWS` rows (`stepRows(ctx)`), whatever the batch size.
 */
import type { Channel } from './channel.js';

/** The run loop yields to the event loop after this much work (loop.ts). */
export const YIELD_MS = 10;

/** Rows an operator's own deferred step handles at most (output chunk, build piece). */
export const STEP_ROWS = 16384;

/** Target CPU time of one delivery (a consumer's call with its synchronous downstream chain). */
export const DELIVERY_BUDGET_MS = 4;

/** Rows of the first delivery on a channel, before its cost is known. */
export const FIRST_SLICE_ROWS = 4096;

/** Never cut batches smaller than this (per-batch overhead would dominate). */
export const MIN_SLICE_ROWS = 1024;

/** Deliveries measured first on every channel (the estimate settles). */
export const MEASURED_FIRST = 4;

/** After those, one delivery in this many is measured (a power of two). */
export const MEASURE_EVERY = 8;

/** Whether to measure this delivery on `ch` (counts it). */
export function measureDelivery(ch: Channel): boolean {
  const k = ch.deliveries++;
  return k < MEASURED_FIRST || (k & (MEASURE_EVERY - 1)) === 0;
}

/** CPU time of this process in ms (user + system). */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** The rows an operator step may produce or handle: the batch size, capped at STEP_ROWS. */
export function stepRows(ctx: { readonly batchSize: number }): number {
  return Math.max(1, Math.min(ctx.batchSize, STEP_ROWS));
}

/** How many of `n` rows to deliver now on `ch` (the rest waits at the head of its queue). */
export function deliveryRows(ch: Channel, n: number): number {
  if (n <= MIN_SLICE_ROWS) return n;
  const cost = ch.msPerRow;
  let take = cost > 0 ? Math.floor(DELIVERY_BUDGET_MS / cost) : cost === 0 ? n : FIRST_SLICE_ROWS;
  if (take < MIN_SLICE_ROWS) take = MIN_SLICE_ROWS;
  // No small leftover slice: take the whole batch when the rest would be under a quarter of a slice.
  return take * 1.25 >= n ? n : take;
}

/**
 * Records that delivering `rows` rows on `ch` took `ms`. Noise in a measured
 * call only adds time (a garbage collection, the consumer's first call
 * compiling its code, a CPU-clock tick), so a sample below the estimate
 * replaces it, and one above it moves a moving average by at most 4× the
 * estimate: a slow first delivery does not keep a cheap consumer sliced (it
 * did, now and then, when that first call was also the JIT's), and a GC
 * inside one call does not shrink the next slices to the minimum. A consumer
 * that really got dearer still reaches its cost within a few samples.
 */
export function observeDelivery(ch: Channel, rows: number, ms: number): void {
  if (rows <= 0) return;
  const rate = ms / rows;
  const old = ch.msPerRow;
  // An estimate of 0 (a call under the clock's resolution) is no base for a bounded rise: 4 × 0 kept it 0 for good.
  ch.msPerRow = old <= 0 || rate <= old ? rate : 0.6 * old + 0.4 * Math.min(rate, 4 * old);
}
