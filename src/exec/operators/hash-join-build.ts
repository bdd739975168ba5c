/**
 * A hash join's build phase as bounded steps (operator.ts "Bounded steps"):
 * hashing a build side of millions of rows and laying it out by group is
 * hundreds of milliseconds of work, too long for one scheduler step (issue
 * 11: no event-loop pause over 100 ms). The phase is a generator that yields
 * after every ~BUILD_STEP_ROWS rows of work; the join drives it from a
 * deferred step, so probe input waits (the runtime holds input back while a
 * step is pending) and cancellation stays prompt.
 *
 * The build side is concatenated in pieces of CONCAT_STEP_ROWS rows (a memory copy,
 * batch-concat.ts's stepped generator: the same code as every other concatenation),
 * only the columns read after the build (output or residual): keys are hashed from
 * the buffered batches themselves (TPC-H Q3's o_orderkey was copied only to be hashed).
 *
 * Decision: the key table is filled by `KeyTable.buildSteps` (the same work
 * as `build`, with its dense-key direct-mapped path, cut into row ranges),
 * and the group layout (CSR, a counting sort) is split by rows the same way.
 */
import { Type, type Data, type RecordBatch } from 'apache-arrow';
import { concatBatchesSteps } from '../batch-concat.js';
import { giveArray } from '../kernels/buffer-pool.js';
import type { KeyTable } from '../kernels/hash.js';
import { STEP_ROWS } from '../runtime/step-budget.js';

/** Rows of work per build step: a millisecond or two of hashing or copying (runtime/step-budget.ts). */
export const BUILD_STEP_ROWS = STEP_ROWS;

/** What the build phase produces. */
export interface BuiltTable {
  /** Per build row, its group (-1 for a NULL key). */
  gids: Int32Array;
  /** Rows of group g are rows[start[g] .. start[g + 1]); empty when every row is its own group. */
  start: Int32Array;
  rows: Int32Array;
  /** Every group has one build row. */
  unique: boolean;
  /** Unique keys and no NULL key: group id = build row. */
  identity: boolean;
}

/**
 * Inserts `n` build rows' keys into `table` and lays the rows out by group,
 * yielding between bounded pieces of work; the result is in `out` once the
 * generator is done. `keyParts`: the key columns of each build batch, in order.
 */
export function* buildSteps(table: KeyTable, keyParts: readonly (readonly Data[])[], n: number, out: BuiltTable): Generator<void, void, void> {
  const step = BUILD_STEP_ROWS;
  const gids = yield* table.buildSteps(keyParts, n, step);
  out.gids = gids;
  const groups = table.size;
  if (groups === n) {
    // Every row has its own key (and none is NULL): group g is build row g.
    out.unique = true;
    out.identity = true;
    return;
  }
  // Counting sort of build rows by group, `step` rows per piece.
  const start = new Int32Array(groups + 1);
  for (let r0 = 0; r0 < n; r0 += step) {
    const r1 = Math.min(n, r0 + step);
    for (let r = r0; r < r1; r++) { const g = gids[r]!; if (g >= 0) start[g + 1]++; }
    if (r1 < n) yield;
  }
  let unique = true;
  for (let g = 0; g < groups; g++) { if (start[g + 1]! > 1) unique = false; start[g + 1] += start[g]!; }
  yield;
  const rows = new Int32Array(start[groups]!);
  const fill = start.slice(0, groups);
  for (let r0 = 0; r0 < n; r0 += step) {
    const r1 = Math.min(n, r0 + step);
    for (let r = r0; r < r1; r++) { const g = gids[r]!; if (g >= 0) rows[fill[g]!++] = r; }
    if (r1 < n) yield;
  }
  out.start = start;
  out.rows = rows;
  out.unique = unique;
  out.identity = unique && groups === n;
}

/**
 * `parted`: a build side whose later-read columns are all fixed-width or VARCHAR stays in its buffered
 * batches and the output gathers from them (batch-parts.ts) instead of concatenating it first
 * (mutable for tests and benchmarks: false concatenates every build side).
 */
export const buildTuning = { parted: true };

/** Rows copied per piece when concatenating the build side (a memory copy: a few milliseconds). */
export const CONCAT_STEP_ROWS = 1 << 18;

/**
 * Concatenates the build side's batches into one, yielding after about every CONCAT_STEP_ROWS rows copied
 * (null for no batches): only the columns `reads` marks (all when undefined), all-NULL placeholders for the others.
 */
export function concatInSteps(batches: readonly RecordBatch[], reads?: readonly boolean[]): Generator<void, RecordBatch | null, void> {
  return concatBatchesSteps(batches, CONCAT_STEP_ROWS, reads);
}

/*
 * Loops over the build batches as functions of the module, not closures made per build: a closure made
 * per query is optimized again in every query once it is hot (its optimized code dies with it), which
 * bench/deopt-runs.ts counted in every timed run of TPC-H Q3.
 */

/** Per batch, its columns `cols`. */
export function columnsOf(batches: readonly RecordBatch[], cols: readonly number[]): Data[][] {
  const out: Data[][] = [];
  for (let b = 0; b < batches.length; b++) {
    const children = batches[b]!.data.children;
    const part: Data[] = [];
    for (let j = 0; j < cols.length; j++) part.push(children[cols[j]!]!);
    out.push(part);
  }
  return out;
}

/** Some group id is negative (a NULL key). */
export function hasNegative(gids: Int32Array): boolean {
  for (let i = 0; i < gids.length; i++) if (gids[i]! < 0) return true;
  return false;
}

/** NOT IN over a non-empty build side (hash-join.ts `nullAware`): a NULL on either side counts as a match. */
export function matchNullAware(key: Data, matched: Uint8Array, buildHasNull: boolean): void {
  if (buildHasNull) { matched.fill(1); return; }
  if (key.typeId === Type.Null) { matched.fill(1); return; }
  if (key.nullCount === 0) return;
  const bm = key.nullBitmap!;
  for (let i = 0; i < matched.length; i++) { const b = key.offset + i; if (((bm[b >> 3]! >> (b & 7)) & 1) === 0) matched[i] = 1; }
}

/** Gives the pooled buffers of a build side this join concatenated back (its run is over). */
export function releaseConcatenated(batch: RecordBatch): void {
  for (const c of batch.data.children) {
    const v = c.values as unknown;
    // Only whole buffers of the concatenation's fixed-width columns (a view over a pooled array is given whole).
    if (c.typeId === Type.Dictionary || c.typeId === Type.Utf8 || c.typeId === Type.Bool || c.typeId === Type.Null) continue;
    // As bytes: a pooled buffer may have been another kind's, of a length that is no multiple of 8.
    if ((v instanceof Int32Array || v instanceof Float64Array) && v.byteOffset === 0) giveArray(new Uint8Array(v.buffer as ArrayBuffer));
  }
}
