/**
 * The seeded random numbers behind the TPC-H generator: a mulberry32 stream
 * that is re-seeded per row (or per order line) from (seed, stream, index), so
 * any row can be regenerated on its own and the output never depends on how
 * the rows are cut into batches.
 */
import { mix32 } from '../../exec/random.js';

/** Salts of the independent random streams (one per table, or per table part). */
export const Stream = {
  Region: 1,
  Nation: 2,
  Supplier: 3,
  SupplierBbb: 4,
  Customer: 5,
  Part: 6,
  PartSupp: 7,
  Order: 8,
  OrderLine: 9,
  TextPool: 10,
} as const;

/** One of the `Stream` salts. */
export type Stream = (typeof Stream)[keyof typeof Stream];

/** The base state of one stream of one generation (`seed` is the user's seed). */
export function streamSeed(seed: number, stream: Stream): number {
  const lo = seed >>> 0;
  const hi = Math.floor(seed / 4294967296) >>> 0;
  return mix32(mix32(lo ^ Math.imul(stream, 0x9e3779b9)) ^ mix32(hi + 0x7f4a7c15));
}

const TWO_POW_32 = 4294967296;

/**
 * A mulberry32 generator. One instance is reused for many rows: `reset` puts
 * it at the start of row `index` of a stream, then `int`/`next` draw values.
 */
export class Rng {
  private s = 0;

  /** Positions the generator at the start of row `index` (≥ 0, < 2^53) of the stream `base`. */
  reset(base: number, index: number): void {
    const lo = index >>> 0;
    const hi = (index / TWO_POW_32) >>> 0;
    this.s = mix32(base ^ mix32(lo + Math.imul(hi, 0x632be5ab))) | 0;
  }

  /** A uniform unsigned 32-bit integer. */
  next(): number {
    const s = (this.s = (this.s + 0x6d2b79f5) | 0);
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  }

  /**
   * A uniform integer in [lo, hi] (inclusive). Exact for ranges below 2^21;
   * wider ranges (keys at large scale factors) stay in range and uniform to ~2^-30.
   */
  int(lo: number, hi: number): number {
    return lo + Math.floor((this.next() * (hi - lo + 1)) / TWO_POW_32);
  }
}
