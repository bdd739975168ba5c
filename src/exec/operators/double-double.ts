/**
 * Double-double arithmetic (about 106 bits): exact TwoSum and Dekker's
 * TwoProduct, and the additions, products and quotients built on them. The
 * exact second-moment aggregates (agg-stddev.ts, agg-covar.ts) accumulate in
 * it so that their answers do not depend on row order or parallelism.
 * Results go to the register R (no allocation per call).
 */
/** The result register of every operation here (no allocation per call). */
export const R = { h: 0, l: 0 };

const SPLIT = 134217729; // 2^27 + 1 (Veltkamp)

/** R.h + R.l = a + b exactly. */
export function twoSum(a: number, b: number): void {
  const s = a + b;
  const bb = s - a;
  R.l = (a - (s - bb)) + (b - bb);
  R.h = s;
}

/** R.h + R.l = a · b exactly (barring overflow). */
export function twoProd(a: number, b: number): void {
  const p = a * b;
  let t = SPLIT * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLIT * b;
  const bh = t - (t - b);
  const bl = b - bh;
  R.l = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  R.h = p;
}

/** R.h + R.l ≈ (ah + al) + (bh + bl), accurate to ~2^-106 relative. */
export function ddAdd(ah: number, al: number, bh: number, bl: number): void {
  twoSum(ah, bh);
  const sh = R.h;
  let sl = R.l;
  twoSum(al, bl);
  const th = R.h;
  const tl = R.l;
  sl += th;
  let h = sh + sl;
  sl = sl - (h - sh);
  sl += tl;
  R.h = h + sl;
  R.l = sl - (R.h - h);
}

/** R.h + R.l ≈ (ah + al) · (bh + bl). */
export function ddMul(ah: number, al: number, bh: number, bl: number): void {
  twoProd(ah, bh);
  const ph = R.h;
  const pl = R.l + (ah * bl + al * bh);
  R.h = ph + pl;
  R.l = pl - (R.h - ph);
}

/** R.h + R.l ≈ (ah + al) / b. */
export function ddDiv(ah: number, al: number, b: number): void {
  const q1 = ah / b;
  twoProd(q1, b);
  const r = ((ah - R.h) - R.l + al) / b;
  R.h = q1 + r;
  R.l = r - (R.h - q1);
}

