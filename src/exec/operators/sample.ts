/**
 * USING SAMPLE: a random part of its input's rows, per epoch, run with parallelism 1 (its input is
 * gathered in a deterministic order, so a seeded sample is the same at every parallelism).
 *
 * Decision: every row gets a key from a hash of (seed, its ordinal in the epoch's input), never from a
 * stateful generator, so the sample depends only on the seed and the input's order:
 *   - bernoulli keeps a row when its key < fraction (streaming);
 *   - system keeps or drops whole blocks of SYSTEM_BLOCK rows (the key of the block's first ordinal),
 *     as DuckDB keeps or drops whole vectors (streaming);
 *   - reservoir keeps the rows with the `count` smallest keys — a uniform sample without replacement of
 *     exactly min(count, rows) rows — emitted in input order when the epoch ends. For a row count it
 *     holds at most about 2 × count rows (candidates above the running threshold are dropped on
 *     arrival); for a percentage the count is known only at the end, so it holds every row (reserved
 *     from the query's memory limit, as ORDER BY's buffer is).
 */
import type { RecordBatch } from 'apache-arrow';
import { takeBatch, sliceBatch } from '../batch.js';
import { concatBatches } from '../batch-concat.js';
import { batchBytes } from '../memory.js';
import { emitBounded, type Operator, type OperatorContext } from '../operator.js';
import { EpochStates } from './epoch-states.js';
import { kthSmallest } from './sort-threshold.js';
import { mix32 } from '../random.js';

/** Rows per block of `system` sampling (DuckDB's vector size). */
export const SYSTEM_BLOCK = 2048;

/** What to sample (plain data). */
export type SampleSpec =
  | { readonly method: 'bernoulli' | 'system'; readonly fraction: number; readonly seed: number }
  | { readonly method: 'reservoir'; readonly rows: number; readonly seed: number }
  | { readonly method: 'reservoir'; readonly fraction: number; readonly seed: number };

/** The seed's mix: the part of a row's hash that does not depend on the row. */
const seedMix = (seed: number): number => mix32((seed >>> 0) ^ 0x9e3779b9);

/** A uniform 32-bit hash of row `ordinal` (< 2^53) under a seed's mix. */
function rowHash(s: number, ordinal: number): number {
  const hi = ordinal > 0xffffffff ? Math.floor(ordinal / 4294967296) : 0;
  return mix32((ordinal >>> 0) ^ (hi === 0 ? s : mix32(hi ^ s)));
}

/** A uniform key in [0, 2^53) (an integer: 53 random bits, so keys practically never tie) for row `ordinal` under `seed`. */
export function sampleKey(seed: number, ordinal: number): number {
  return keyOf(rowHash(seedMix(seed), ordinal));
}

/** A row's 53-bit key from its 32-bit hash: the hash as the high bits, 21 more from a second mix. */
function keyOf(a: number): number {
  return a * 2097152 + (mix32(a ^ 0x27d4eb2f) >>> 11);
}

// Row loops as module functions (not closures made per query), so their optimized code outlives a query.

/** Rows [0, n) of a batch starting at `seen` whose 32-bit hash is below `bound`, into `sel`; returns the count. */
function selectRows(s: number, seen: number, n: number, bound: number, sel: Int32Array): number {
  let m = 0;
  for (let i = 0; i < n; i++) if (rowHash(s, seen + i) < bound) sel[m++] = i;
  return m;
}

/** Rows of the blocks (of `block` rows, by ordinal) whose first row's hash is below `bound`. */
function selectBlocks(s: number, seen: number, n: number, block: number, bound: number, sel: Int32Array): number {
  let m = 0;
  let i = 0;
  while (i < n) {
    const o = seen + i;
    const end = Math.min(n, i + (block - (o % block)));
    if (rowHash(s, o - (o % block)) < bound) for (; i < end; i++) sel[m++] = i;
    else i = end;
  }
  return m;
}

/** Rows whose 53-bit key is below `threshold`: their positions into `sel`, their keys into `keys` from `at`. */
function selectKeys(s: number, seen: number, n: number, threshold: number, sel: Int32Array, keys: Float64Array, at: number): number {
  let m = 0;
  for (let i = 0; i < n; i++) {
    const k = keyOf(rowHash(s, seen + i));
    if (k < threshold) { sel[m] = i; keys[at + m] = k; m++; }
  }
  return m;
}

interface EpochState {
  /** Rows of this epoch seen so far (the next row's ordinal). */
  seen: number;
  /** reservoir: candidate batches and their rows' keys (in arrival order; `count` of them). */
  batches: RecordBatch[];
  keys: Float64Array;
  count: number;
  /** reservoir by count: rows with a key ≥ this can no longer be among the `count` smallest. */
  threshold: number;
  bytes: number;
}

/** Creates a sample operator (parallelism 1). */
export function sampleOperator(spec: SampleSpec): Operator {
  let ctx!: OperatorContext;
  const states = new EpochStates<EpochState>(() => ({ seen: 0, batches: [], keys: new Float64Array(0), count: 0, threshold: Infinity, bytes: 0 }));
  const s = seedMix(spec.seed);

  const streaming = (batch: RecordBatch, st: EpochState, epoch: number, fraction: number, block: number): void => {
    const n = batch.numRows;
    const sel = new Int32Array(n);
    const m = block === 1 ? selectRows(s, st.seen, n, fraction * 4294967296, sel) : selectBlocks(s, st.seen, n, block, fraction * 4294967296, sel);
    st.seen += n;
    if (m === n) ctx.emit(batch, epoch);
    else if (m > 0) ctx.emit(takeBatch(batch, sel, m), epoch);
  };

  /** Keeps the `limit` smallest-key candidates (in arrival order) and sets the threshold. */
  const compact = (st: EpochState, limit: number): void => {
    const total = st.count;
    if (total <= limit) return;
    const all = concatBatches(st.batches)!;
    st.threshold = limit === 0 ? -Infinity : kthSmallest(st.keys.slice(0, total), limit - 1);
    // Keys are distinct in practice (53 random bits); ties at the threshold are cut to `limit` in arrival order.
    const sel = new Int32Array(limit);
    let m = 0;
    for (let i = 0; i < total && m < limit; i++) if (st.keys[i]! <= st.threshold) { st.keys[m] = st.keys[i]!; sel[m++] = i; }
    st.count = m;
    const kept = takeBatch(all, sel, m);
    st.batches = [kept];
    const bytes = batchBytes(kept);
    ctx.releaseMemory(st.bytes);
    ctx.reserveMemory(bytes);
    st.bytes = bytes;
  };

  const collect = (batch: RecordBatch, st: EpochState, limit: number): void => {
    const n = batch.numRows;
    if (st.keys.length < st.count + n) {
      const grown = new Float64Array(Math.max(2 * st.keys.length, st.count + n, 1024));
      grown.set(st.keys.subarray(0, st.count));
      st.keys = grown;
    }
    const sel = new Int32Array(n);
    const m = selectKeys(s, st.seen, n, st.threshold, sel, st.keys, st.count);
    st.seen += n;
    st.count += m;
    if (m === 0) return;
    const kept = m === n ? batch : takeBatch(batch, sel, m);
    const bytes = batchBytes(kept);
    ctx.reserveMemory(bytes);
    st.bytes += bytes;
    st.batches.push(kept);
    if (st.count > Math.max(2 * limit, limit + ctx.batchSize)) compact(st, limit);
  };

  const emitEpoch = (st: EpochState, epoch: number): void => {
    if (spec.method !== 'reservoir') return;
    const count = 'rows' in spec ? spec.rows : Math.round(spec.fraction * st.seen);
    compact(st, count);
    const all = concatBatches(st.batches);
    st.batches = [];
    const bytes = st.bytes;
    st.bytes = 0;
    if (all === null || all.numRows === 0) { ctx.releaseMemory(bytes); return; }
    const size = Math.max(1, ctx.batchSize);
    let at = 0;
    emitBounded(ctx, () => {
      const e = Math.min(all.numRows, at + size);
      ctx.emit(at === 0 && e === all.numRows ? all : sliceBatch(all, at, e), epoch);
      at = e;
      if (at < all.numRows) return true;
      ctx.releaseMemory(bytes);
      return false;
    });
  };

  return {
    open(c) { ctx = c; },
    processBatch(_input: number, batch: RecordBatch, epoch: number) {
      if (batch.numRows === 0) return;
      const st = states.get(epoch);
      if (spec.method === 'bernoulli') streaming(batch, st, epoch, spec.fraction, 1);
      else if (spec.method === 'system') streaming(batch, st, epoch, spec.fraction, SYSTEM_BLOCK);
      else collect(batch, st, 'rows' in spec ? spec.rows : Infinity);
    },
    onEpochWatermarkIncremented(epoch: number) {
      states.drainUpTo(epoch, (st, e) => emitEpoch(st, e));
    },
    finish() {
      states.drainUpTo(Infinity, (st, e) => emitEpoch(st, e));
    },
    close() { states.clear(); },
  };
}
