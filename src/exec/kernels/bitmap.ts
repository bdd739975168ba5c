/**
 * Bit-packed bitmaps (Arrow validity and Bool values) for kernels.
 *
 * Kernels work on bitmaps *aligned to row 0* of the batch: bit i is row i.
 * Arrow JS keeps validity bitmaps and Bool value bits unsliced, addressed at
 * bit `data.offset + i`, while fixed-width value buffers, Utf8 offsets and
 * dictionary codes are pre-sliced by `Data.slice` (row i is `values[i]`).
 * `alignBits` re-bases a bitmap when the offset is not a multiple of 8.
 */
import type * as arrow from 'apache-arrow';

/** Bytes needed for n bits. */
export function byteLength(n: number): number {
  return (n + 7) >> 3;
}

/** A new all-zero bitmap of n bits. */
export function newBits(n: number): Uint8Array {
  return new Uint8Array(byteLength(n));
}

/** A new bitmap of n bits, all set. */
export function allOnes(n: number): Uint8Array {
  const b = new Uint8Array(byteLength(n)).fill(0xff);
  clearTail(b, n);
  return b;
}

/** Clears the padding bits past n in the last byte. */
export function clearTail(b: Uint8Array, n: number): void {
  if ((n & 7) !== 0) b[n >> 3]! &= (1 << (n & 7)) - 1;
}

/** Bit i of b (0 or 1). */
export function bitAt(b: Uint8Array, i: number): number {
  return (b[i >> 3]! >> (i & 7)) & 1;
}

/** The n bits of `buf` starting at bit `bitOffset`, re-based to bit 0 (a view when byte-aligned, else a copy). */
export function alignBits(buf: Uint8Array, bitOffset: number, n: number): Uint8Array {
  const byteStart = bitOffset >> 3;
  const shift = bitOffset & 7;
  const nb = byteLength(n);
  if (shift === 0) return buf.subarray(byteStart, byteStart + nb);
  const out = new Uint8Array(nb);
  const back = 8 - shift;
  const last = buf.length - 1;
  for (let k = 0; k < nb; k++) {
    const j = byteStart + k;
    const lo = buf[j]! >> shift;
    const hi = j < last ? (buf[j + 1]! << back) & 0xff : 0;
    out[k] = lo | hi;
  }
  return out;
}

/** Number of set bits among the first n bits. */
export function popcount(b: Uint8Array, n: number): number {
  let c = 0;
  const full = n >> 3;
  for (let k = 0; k < full; k++) {
    let x = b[k]!;
    x = x - ((x >> 1) & 0x55);
    x = (x & 0x33) + ((x >> 2) & 0x33);
    c += (x + (x >> 4)) & 0x0f;
  }
  for (let i = full << 3; i < n; i++) c += (b[i >> 3]! >> (i & 7)) & 1;
  return c;
}

/**
 * The validity of a Data as a row-0-aligned bitmap, or null when it has no nulls.
 * A Null-typed Data (no bitmap, every row null) yields an all-zero bitmap.
 */
export function validityOf(d: arrow.Data): Uint8Array | null {
  if (d.nullCount === 0) return null;
  const bm = d.nullBitmap;
  if (bm === undefined || bm.length === 0) return newBits(d.length);
  return alignBits(bm, d.offset, d.length);
}

/** The value bits of a Bool Data, row-0-aligned. */
export function boolBitsOf(d: arrow.Data): Uint8Array {
  const v = d.values as Uint8Array | undefined;
  if (v === undefined || v.length === 0) return newBits(d.length);
  return alignBits(v, d.offset, d.length);
}

/** AND of two optional validities (null = all valid). Allocates only when both are present. */
export function andValidity(a: Uint8Array | null, b: Uint8Array | null, n: number): Uint8Array | null {
  if (a === null) return b;
  if (b === null) return a;
  const nb = byteLength(n);
  const out = new Uint8Array(nb);
  for (let k = 0; k < nb; k++) out[k] = a[k]! & b[k]!;
  return out;
}

/** Clears, in a fresh copy of `valid` (null = all valid), the bits set in the byte-per-row mask `nul`. */
export function maskNulls(valid: Uint8Array | null, nul: Uint8Array, n: number): Uint8Array {
  const out = valid === null ? allOnes(n) : valid.slice(0, byteLength(n));
  for (let i = 0; i < n; i++) if (nul[i] !== 0) out[i >> 3]! &= ~(1 << (i & 7));
  return out;
}

/**
 * Indexes of the rows whose bit is set in `bits` and in `valid` (null = all valid), restricted to `sel` when
 * given (refined in place). Without `sel`, written into `scratch` when it has room for n rows (a predicate's
 * per-operator array, kernels/predicate.ts), else into a fresh array; the result is a prefix view.
 */
export function selectBits(bits: Uint8Array, valid: Uint8Array | null, sel: Int32Array | null, n: number, scratch?: Int32Array): Int32Array {
  if (sel !== null) {
    let k = 0;
    if (valid === null) {
      for (let j = 0; j < sel.length; j++) { const i = sel[j]!; if ((bits[i >> 3]! >> (i & 7)) & 1) sel[k++] = i; }
    } else {
      for (let j = 0; j < sel.length; j++) { const i = sel[j]!; if ((bits[i >> 3]! & valid[i >> 3]! & (1 << (i & 7))) !== 0) sel[k++] = i; }
    }
    return sel.subarray(0, k);
  }
  const out = scratch !== undefined && scratch.length >= n ? scratch : new Int32Array(n);
  let k = 0;
  const nb = byteLength(n);
  for (let b = 0; b < nb; b++) {
    // Byte-at-a-time: skip all-false bytes (the common case for selective predicates).
    let x = valid === null ? bits[b]! : bits[b]! & valid[b]!;
    if (x === 0) continue;
    const base = b << 3;
    while (x !== 0) {
      const t = x & -x;
      const i = base + (31 - Math.clz32(t));
      if (i < n) out[k++] = i;
      x ^= t;
    }
  }
  return out.subarray(0, k);
}
