/**
 * Scale-dependent sizes and the closed-form rules of the TPC-H specification:
 * table cardinalities, sparse order keys, the retail price formula, the
 * part→supplier mapping, and the calendar constants (as days since epoch).
 */
import { ValidationError } from '../../relnode/errors.js';

/** Days since 1970-01-01 of a calendar date. */
export function epochDay(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) / 86_400_000;
}

/** STARTDATE: the first order date, 1992-01-01. */
export const START_DATE = epochDay(1992, 1, 1);
/** ENDDATE: 1998-12-31. */
export const END_DATE = epochDay(1998, 12, 31);
/** The last order date: ENDDATE − 151 days. */
export const LAST_ORDER_DATE = END_DATE - 151;
/** CURRENTDATE: 1995-06-17, which splits shipped/returned lines from open ones. */
export const CURRENT_DATE = epochDay(1995, 6, 17);

/** The row counts of one scale factor. */
export interface TpchScale {
  readonly scaleFactor: number;
  readonly suppliers: number;
  readonly customers: number;
  readonly parts: number;
  readonly orders: number;
  /** Number of distinct clerks o_clerk draws from. */
  readonly clerks: number;
}

const scaled = (base: number, sf: number): number => Math.max(1, Math.round(base * sf));

/** Cardinalities for `scaleFactor` (each rounded, at least 1); throws for a bad scale factor. */
export function tpchScale(scaleFactor: number): TpchScale {
  if (!Number.isFinite(scaleFactor) || scaleFactor <= 0) {
    throw new ValidationError(`TPC-H scale factor must be a positive number, got ${scaleFactor}; try 0.01, 0.1 or 1`);
  }
  const orders = scaled(1_500_000, scaleFactor);
  if (sparseOrderKey(orders) > 0x7fffffff) {
    throw new ValidationError(
      `TPC-H scale factor ${scaleFactor} is too large: order keys must fit in Int32; use a scale factor ≤ 100`,
    );
  }
  return {
    scaleFactor,
    suppliers: scaled(10_000, scaleFactor),
    customers: scaled(150_000, scaleFactor),
    parts: scaled(200_000, scaleFactor),
    orders,
    clerks: scaled(1_000, scaleFactor),
  };
}

/** The order key of the `ordinal`-th order (1-based): 8 used keys out of every 32, as dbgen does. */
export function sparseOrderKey(ordinal: number): number {
  return Math.floor(ordinal / 8) * 32 + (ordinal % 8);
}

/** p_retailprice in cents: (90000 + ((P/10) mod 20001) + 100·(P mod 1000)) for partkey P. */
export function retailPriceCents(partkey: number): number {
  return 90_000 + (Math.floor(partkey / 10) % 20_001) + 100 * (partkey % 1000);
}

/**
 * The `i`-th (0..3) supplier of part `partkey` among `suppliers` suppliers: the
 * spec's PS_SUPPKEY formula (partkey + i·(S/4 + (partkey−1)/S)) mod S + 1.
 * Below ~230 suppliers that formula can repeat a supplier for a part; there
 * the step falls back to S/4, which keeps the four distinct whenever S ≥ 4.
 */
export function partSupplier(partkey: number, i: number, suppliers: number): number {
  const quarter = Math.floor(suppliers / 4);
  let step = quarter + Math.floor((partkey - 1) / suppliers);
  if (step % suppliers === 0 || (2 * step) % suppliers === 0 || (3 * step) % suppliers === 0) {
    step = Math.max(1, quarter);
  }
  return ((partkey + i * step) % suppliers) + 1;
}

/**
 * o_custkey from a uniform draw `k` in [1, customers]: a key divisible by 3
 * moves to its neighbour (as dbgen does), so one customer in three never
 * orders and the others receive either one or two shares of the orders.
 */
export function orderingCustomer(k: number, customers: number): number {
  return k % 3 !== 0 ? k : k < customers ? k + 1 : k - 1;
}
