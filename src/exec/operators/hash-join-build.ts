/**
 * A hash join's build phase as bounded steps (operator.ts "Bounded steps"):
 * hashing a build side of millions of rows and laying it out by group is
 * hundreds of milliseconds of work, too long for one scheduler step (issue
 * 11: no event-loop pause over 100 ms). The phase is a generator that yields
 * after every ~BUILD_STEP_ROWS rows of work; the join drives it from a
 * deferred step, so probe input waits (the runtime holds input back while a
 * step is pending) and cancellation stays prompt.
 *
 * The build side is concatenated in pieces of CONCAT_STEP_ROWS rows (a memory copy).
 *
 * Decision: the key table is filled by `KeyTable.buildSteps` (the same work
 * as `build`, with its dense-key direct-mapped path, cut into row ranges),
 * and the group layout (CSR, a counting sort) is split by rows the same way.
 */
import { Type, makeData, type Data, type RecordBatch, type Utf8 } from 'apache-arrow';
import { batchFromColumns, concatData } from '../batch.js';
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
 * generator is done.
 */
export function* buildSteps(table: KeyTable, keyCols: readonly Data[], n: number, out: BuiltTable): Generator<void, void, void> {
  const step = BUILD_STEP_ROWS;
  const gids = yield* table.buildSteps(keyCols, n, step);
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

/** Rows copied per piece when concatenating the build side (a memory copy: a few milliseconds). */
const CONCAT_STEP_ROWS = 1 << 18;

/** Concatenates batches into one, yielding after about every CONCAT_STEP_ROWS rows copied (null for no batches). */
export function* concatInSteps(batches: readonly RecordBatch[]): Generator<void, RecordBatch | null, void> {
  if (batches.length <= 1) return batches[0] ?? null;
  const first = batches[0]!;
  const cols: Data[] = [];
  for (let c = 0; c < first.data.children.length; c++) {
    cols.push(yield* concatColumnSteps(batches.map((b) => b.data.children[c]!)));
    yield;
  }
  let n = 0;
  for (const b of batches) n += b.numRows;
  return batchFromColumns(first.schema, cols, n);
}

/**
 * One column's parts as one Data, copied in pieces: Utf8 and fixed-width
 * columns (the big ones) part by part; others (dictionaries, booleans, mixed
 * parts) in one piece by `concatData`, which also defines the result.
 */
function* concatColumnSteps(parts: readonly Data[]): Generator<void, Data, void> {
  const first = parts[0]!;
  const t = first.typeId;
  const utf8 = t === Type.Utf8;
  const fixed = !utf8 && t !== Type.Bool && t !== Type.Dictionary && t !== Type.Null && first.children.length === 0 && ArrayBuffer.isView(first.values);
  if (parts.length === 1 || !(utf8 || fixed) || parts.some((p) => p.typeId !== t)) return concatData(parts);
  let n = 0;
  let nulls = 0;
  for (const p of parts) { n += p.length; nulls += p.nullCount; }
  const bitmap = nulls > 0 ? new Uint8Array((n + 7) >> 3) : undefined;
  let sinceYield = 0;
  if (utf8) {
    let total = 0;
    for (const p of parts) total += p.valueOffsets[p.length]! - p.valueOffsets[0]!;
    const offs = new Int32Array(n + 1);
    const bytes = new Uint8Array(total);
    let at = 0;
    let pos = 0;
    for (const p of parts) {
      const po = p.valueOffsets as Int32Array;
      const s = po[0]!;
      const e = po[p.length]!;
      bytes.set((p.values as Uint8Array).subarray(s, e), pos);
      for (let i = 1; i <= p.length; i++) offs[at + i] = po[i]! - s + pos;
      if (bitmap !== undefined) copyValidity(p, bitmap, at);
      at += p.length;
      pos += e - s;
      if ((sinceYield += p.length) >= CONCAT_STEP_ROWS) { sinceYield = 0; yield; }
    }
    return makeData({ type: first.type as Utf8, length: n, nullCount: nulls, nullBitmap: bitmap, valueOffsets: offs, data: bytes });
  }
  const stride = first.stride;
  const Ctor = (first.values as Int32Array).constructor as new (n: number) => Int32Array;
  const out = new Ctor(n * stride);
  let at = 0;
  for (const p of parts) {
    out.set((p.values as Int32Array).subarray(0, p.length * stride), at * stride);
    if (bitmap !== undefined) copyValidity(p, bitmap, at);
    at += p.length;
    if ((sinceYield += p.length) >= CONCAT_STEP_ROWS) { sinceYield = 0; yield; }
  }
  return makeData({ type: first.type as never, length: n, nullCount: nulls, nullBitmap: bitmap, data: out as never });
}

/** Sets the validity bits of part `p` at row `at` of `dst`. */
function copyValidity(p: Data, dst: Uint8Array, at: number): void {
  const bm = p.nullBitmap;
  const all = p.nullCount === 0 || bm === undefined || bm === null || bm.length === 0;
  for (let i = 0; i < p.length; i++) {
    const b = p.offset + i;
    if (all || ((bm[b >> 3]! >> (b & 7)) & 1) !== 0) { const o = at + i; dst[o >> 3]! |= 1 << (o & 7); }
  }
}
