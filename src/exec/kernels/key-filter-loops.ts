/**
 * The loops of KeyFilter.select over INTEGER probe columns (key-filter.ts): 32-row bit masks for
 * bitmaps and Bloom filters, a branching loop for clustered outcomes, and a merge with the bitmap
 * for sorted columns. Pure functions of typed arrays; the filter chooses among them.
 */

/*
 * The INTEGER loops below test 32 rows into a bit mask, then write the kept rows of the mask
 * (lowest bit first). A row kept or dropped at random (Q3's orders by customer: 20% kept) then costs
 * no mispredicted branch, and unlike a branch-free `sel[m] = i; m += bit` loop no row's store waits
 * for the previous row's bitmap read, so a big bitmap's cache misses still overlap (TPC-H Q10: 57K
 * order keys over 6M). The range checks stay branches: they almost always pass (the build keys span
 * the probe's range) and guard the bitmap read.
 */

/** Writes rows base + b for the set bits b of mask `w` to sel from m on (ascending); returns the new m. */
function emitMask(w: number, base: number, sel: Int32Array, m: number): number {
  while (w !== 0) {
    const t = w & -w;
    sel[m++] = base + 31 - Math.clz32(t);
    w ^= t;
  }
  return m;
}

/** emitMask through a selection: bit b stands for row from[base + b]. */
function emitMaskFrom(w: number, from: Int32Array, base: number, sel: Int32Array, m: number): number {
  while (w !== 0) {
    const t = w & -w;
    sel[m++] = from[base + 31 - Math.clz32(t)]!;
    w ^= t;
  }
  return m;
}

/**
 * The bitmap test with a branch per row: faster than the mask loops when the outcome runs in long
 * stretches (Q3's lineitem, sorted by order key, 4 rows per key and 10% of keys kept: 2.3 vs
 * 2.6 ns a row; 1% kept at random: 3.1 vs 3.7), slower when it flips at random (20%: 4.6 vs 3.1).
 */
export function bitmapBranch(v: Int32Array, from: Int32Array | null, n: number, min: number, span: number, bits: Int32Array, sel: Int32Array): number {
  let m = 0;
  if (from === null) {
    for (let i = 0; i < n; i++) {
      const o = v[i]! - min;
      if (o >= 0 && o <= span && ((bits[o >>> 5]! >>> o) & 1) !== 0) sel[m++] = i;
    }
  } else {
    for (let k = 0; k < n; k++) {
      const i = from[k]!;
      const o = v[i]! - min;
      if (o >= 0 && o <= span && ((bits[o >>> 5]! >>> o) & 1) !== 0) sel[m++] = i;
    }
  }
  return m;
}

/**
 * The bitmap test of a sorted column (kernels/sorted-column.ts: TPC-H lineitem's and orders' order
 * keys) as a merge of the rows' keys with the bitmap's set bits: the loop visits each build key
 * (set bit) in the batch's key range once, gallops the row cursor to it and writes its run of rows,
 * and jumps the bitmap cursor to the next row's key. The row cursor moves 32, then 8, then 1 rows
 * a step (loops whose branches predict; galloping with a bisection mispredicted half its branches
 * and was slower on Q3's gaps of ~40 rows). Against the block-skipping row test it replaced (a
 * 32-row block with a build key tested each row), 6M sorted rows of 4 per key, CPU ns a row
 * alternating in one process: 10% of the keys built (Q3's lineitem) 2.21 → 1.00, 50% 4.35 → 2.65,
 * 2% 0.89 → 0.45 (load ~3).
 */
export function bitmapSorted(v: Int32Array, n: number, min: number, span: number, bits: Int32Array, sel: Int32Array): number {
  if (n === 0) return 0;
  const top = Math.min(v[n - 1]! - min, span);
  if (top < 0) return 0;
  let i = 0;
  let m = 0;
  // The bitmap cursor: word w holds offsets ≥ 32w; `word` its bits not visited yet.
  let o = v[0]! - min;
  if (o < 0) o = 0;
  let w = o >>> 5;
  let word = bits[w]! & (-1 << (o & 31));
  const wTop = top >>> 5;
  for (;;) {
    while (word === 0) {
      if (++w > wTop) return m;
      word = bits[w]!;
    }
    const t = word & -word;
    word ^= t;
    const b = (w << 5) + 31 - Math.clz32(t);
    if (b > top) return m;
    const key = b + min;
    // Row cursor to the first row with v ≥ key: 32 rows a step while the 32nd row on is below it,
    // then 8, then 1 (the rows ascend; predicted loops — a bisection's branches mispredict).
    while (i + 32 < n && v[i + 32]! < key) i += 32;
    while (i + 8 < n && v[i + 8]! < key) i += 8;
    while (i < n && v[i]! < key) i++;
    if (i >= n) return m;
    while (i < n && v[i] === key) sel[m++] = i++;
    if (i >= n) return m;
    // Build keys below the next row's key have no rows: jump the bitmap cursor to it.
    const no = v[i]! - min;
    if (no > b) {
      if (no > top) return m;
      const nw = no >>> 5;
      if (nw !== w) { w = nw; word = bits[w]!; }
      word &= -1 << (no & 31);
    }
  }
}

/** Runs of consecutive rows in the ascending selection sel[0..m). */
export function runsOf(sel: Int32Array, m: number): number {
  let runs = m > 0 ? 1 : 0;
  for (let k = 1; k < m; k++) if (sel[k] !== sel[k - 1]! + 1) runs++;
  return runs;
}

/** Bitmap test of rows 0..n−1 of v (span = max − min): writes kept rows to sel, returns their number. */
export function bitmapAll(v: Int32Array, n: number, min: number, span: number, bits: Int32Array, sel: Int32Array): number {
  let m = 0;
  for (let i0 = 0; i0 < n; i0 += 32) {
    const i1 = Math.min(n, i0 + 32);
    let w = 0;
    for (let i = i0; i < i1; i++) {
      const o = v[i]! - min;
      if (o < 0 || o > span) continue;
      w |= ((bits[o >>> 5]! >>> o) & 1) << (i - i0); // a shift count is taken mod 32: o & 31
    }
    if (w !== 0) m = emitMask(w, i0, sel, m);
  }
  return m;
}

/** bitmapAll over the rows from[0..n). */
export function bitmapFrom(v: Int32Array, from: Int32Array, n: number, min: number, span: number, bits: Int32Array, sel: Int32Array): number {
  let m = 0;
  for (let k0 = 0; k0 < n; k0 += 32) {
    const k1 = Math.min(n, k0 + 32);
    let w = 0;
    for (let k = k0; k < k1; k++) {
      const o = v[from[k]!]! - min;
      if (o < 0 || o > span) continue;
      w |= ((bits[o >>> 5]! >>> o) & 1) << (k - k0);
    }
    if (w !== 0) m = emitMaskFrom(w, from, k0, sel, m);
  }
  return m;
}

/** Bloom test (two bits) of rows 0..n−1 of v, or of rows from[0..n). */
export function bloomSelect(v: Int32Array, from: Int32Array | null, n: number, min: number, max: number, bits: Int32Array, mask: number, sel: Int32Array): number {
  let m = 0;
  for (let k0 = 0; k0 < n; k0 += 32) {
    const k1 = Math.min(n, k0 + 32);
    let w = 0;
    for (let k = k0; k < k1; k++) {
      const x = v[from === null ? k : from[k]!]!;
      if (x < min || x > max) continue;
      const h1 = hash1i(x) & mask;
      const h2 = hash2i(x) & mask;
      w |= ((bits[h1 >>> 5]! >>> h1) & (bits[h2 >>> 5]! >>> h2) & 1) << (k - k0);
    }
    if (w !== 0) m = from === null ? emitMask(w, k0, sel, m) : emitMaskFrom(w, from, k0, sel, m);
  }
  return m;
}

/** hash1 of an int32 (its high half is its sign): no division. */
function hash1i(x: number): number {
  let h = Math.imul(x ^ Math.imul(x >> 31, 0x27d4eb2d), 0x9e3779b1);
  h ^= h >>> 15;
  return Math.imul(h, 0x85ebca6b) >>> 0;
}

/** hash2 of an int32. */
function hash2i(x: number): number {
  let h = Math.imul(x ^ 0x5bd1e995, 0xcc9e2d51) ^ Math.imul(x >> 31, 0x1b873593);
  h ^= h >>> 13;
  return Math.imul(h, 0xc2b2ae35) >>> 0;
}
