/**
 * The aggregate-state interface and the growable per-group arrays and
 * validity helpers the aggregate states (agg-states.ts, agg-min-max.ts) share.
 */
import type { Data } from 'apache-arrow';
import { takeArray } from '../kernels/buffer-pool.js';

/** One aggregate's per-group state. */
export interface AggState {
  /** Makes room for `groups` groups; new groups start empty. */
  resize(groups: number): void;
  /**
   * Optional: makes room for about `groups` groups up front (a planner estimate, hash-aggregate.ts:
   * one allocation instead of doublings). Only typed-array states have it; it changes no value.
   */
  reserve?(groups: number): void;
  /** Accumulates rows [0, n) of the argument columns into groups `gids[i]`. */
  add(args: readonly Data[], gids: Int32Array, n: number): void;
  /**
   * Optional late-materialization path: accumulates rows `sel[j]` (j < m) of the argument columns
   * into groups `gids[j]`, reading the columns in place. Without it the caller gathers the rows first.
   */
  addSelected?(args: readonly Data[], gids: Int32Array, sel: Int32Array, m: number): void;
  /** Optional fast path of a global aggregate: accumulates rows [0, n) into group 0 (no group ids). */
  addGlobal?(args: readonly Data[], n: number): void;
  /** Folds group j of `other` (same function and types) into group `map[j]` of this state. */
  merge(other: AggState, map: Int32Array): void;
  /**
   * The result column for groups [start, end); with `scratch` it may be built in the scratch's
   * buffers (a transient column, valid until the scratch's next use: a HAVING's predicate inputs).
   */
  value(start: number, end: number, scratch?: ColumnScratch): Data;
  /**
   * Optional: the result column for groups `gids[0..n)` (a HAVING's kept groups, agg-having.ts);
   * without it the caller builds it from `value` over runs of groups.
   */
  valueAt?(gids: Int32Array, n: number): Data;
  /**
   * Optional: the state's result has been emitted; it gives its big arrays back for the next
   * aggregate (kernels/buffer-pool.ts) and is not used again.
   */
  release?(): void;
}

let identity = new Int32Array(0);
/** Rows 0, 1, ..., n - 1 as a selection (the `add` path of states with one `addSelected` loop); shared, read-only. */
export function identityRows(n: number): Int32Array {
  if (identity.length < n) {
    identity = new Int32Array(Math.max(n, 2 * identity.length, 1024));
    for (let i = 0; i < identity.length; i++) identity[i] = i;
  }
  return identity;
}

/**
 * Reusable buffers for transient result columns (agg-having.ts: the predicate inputs of each run of
 * groups; a fresh 128 KB Float64Array per run was 11 MB of off-heap allocations per TPC-H Q18).
 * Each getter returns a view of its buffer, grown on demand; a column built in them is valid until
 * the scratch's next use.
 */
export class ColumnScratch {
  private f64 = new Float64Array(0);
  private u8 = new Uint8Array(0);
  private i32 = new Int32Array(0);

  /** n doubles (contents undefined). */
  doubles(n: number): Float64Array {
    if (this.f64.length < n) this.f64 = new Float64Array(n);
    return this.f64.subarray(0, n);
  }

  /** n bytes, zeroed. */
  zeroedBytes(n: number): Uint8Array {
    if (this.u8.length < n) this.u8 = new Uint8Array(n);
    const b = this.u8.subarray(0, n);
    b.fill(0);
    return b;
  }

  /** n int32 words (contents undefined). */
  words(n: number): Int32Array {
    if (this.i32.length < n) this.i32 = new Int32Array(n);
    return this.i32.subarray(0, n);
  }
}

/** Grows a Float64Array to at least n entries (amortized doubling). */
export function growF64(a: Float64Array, n: number): Float64Array<ArrayBuffer> {
  if (n <= a.length) return a as never;
  const len = Math.max(n, a.length * 2, 16);
  // A big array may come from an aggregate that finished before (kernels/buffer-pool.ts): its pages are mapped.
  const b = takeArray(Float64Array, len) ?? new Float64Array(len);
  b.set(a);
  return b;
}

/** Grows an Int32Array to at least n entries. */
export function growI32(a: Int32Array, n: number): Int32Array<ArrayBuffer> {
  if (n <= a.length) return a as never;
  const b = new Int32Array(Math.max(n, a.length * 2, 16));
  b.set(a);
  return b;
}

/** Grows a Uint8Array to at least n entries. */
export function growU8(a: Uint8Array, n: number): Uint8Array<ArrayBuffer> {
  if (n <= a.length) return a as never;
  const b = new Uint8Array(Math.max(n, a.length * 2, 16));
  b.set(a);
  return b;
}

/** A validity bitmap from per-group seen flags over [start, end); undefined when all are set. */
export function validityOf(seen: Uint8Array, start: number, end: number): { bitmap: Uint8Array | undefined; nulls: number } {
  const n = end - start;
  const bm = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < n; i++) { if (seen[start + i]) bm[i >> 3]! |= 1 << (i & 7); else nulls++; }
  return { bitmap: nulls > 0 ? bm : undefined, nulls };
}

/** Is row i of `d` NULL? Only call when `d.nullCount > 0` (the masked loops). */
export function isNullAt(d: Data, i: number): boolean {
  const bm = d.nullBitmap!;
  const b = d.offset + i;
  return ((bm[b >> 3]! >> (b & 7)) & 1) === 0;
}

/**
 * Exact integers in doubles → a BigInt64Array, without BigInt arithmetic: entries [start, end), or
 * with `gids` entries `gids[0..end - start)`.
 */
export function int64FromDoubles(vals: Float64Array, start: number, end: number, gids: Int32Array | null = null, scratch?: ColumnScratch): BigInt64Array {
  const n = end - start;
  const w = scratch === undefined ? new Int32Array(2 * n) : scratch.words(2 * n);
  for (let i = 0; i < n; i++) {
    const x = vals[gids === null ? start + i : gids[i]!]!;
    const hi = Math.floor(x / 4294967296);
    w[2 * i] = (x - hi * 4294967296) | 0;
    w[2 * i + 1] = hi | 0;
  }
  return new BigInt64Array(w.buffer, w.byteOffset, n);
}

/** The numbers of a numeric column (BIGINT converted to doubles). */
export function numbersOf(d: Data, n: number): ArrayLike<number> {
  const v = d.values as unknown;
  if (v instanceof BigInt64Array) {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = Number(v[i]!);
    return out;
  }
  return v as ArrayLike<number>;
}
