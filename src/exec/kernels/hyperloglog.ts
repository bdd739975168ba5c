/**
 * A HyperLogLog distinct-count sketch (Flajolet et al. 2007, with the small-range linear-counting
 * correction) over 32-bit hashes, and the hash functions the statistics pass feeds it. 2^11
 * registers: ~2.3% standard error in 2 KiB per column, enough for join-order estimates; the
 * sketch is mergeable so per-batch or per-partition sketches could be combined later. The table
 * statistics (io/stats.ts) and the approx_count_distinct aggregate (agg-approx-distinct.ts) share it.
 */

/** Register-index bits: 2^11 registers, ~2.3% standard error (1.04 / sqrt(2048)). */
export const HLL_P = 11;
/** Registers per sketch (one byte each). */
export const HLL_M = 1 << HLL_P;
const ALPHA = 0.7213 / (1 + 1.079 / HLL_M);
const TWO_32 = 4294967296;

/** Folds one 32-bit hash into a register array of HLL_M bytes. */
export function hllAdd(registers: Uint8Array, hash: number): void {
  const h = hash >>> 0;
  const idx = h >>> (32 - HLL_P);
  const rest = (h << HLL_P) >>> 0;
  const rank = rest === 0 ? 32 - HLL_P + 1 : Math.clz32(rest) + 1;
  if (rank > registers[idx]!) registers[idx] = rank;
}

/** The distinct-count estimate of a register array (linear counting for small counts, the 32-bit large-range correction for huge ones). */
export function hllEstimate(registers: Uint8Array): number {
  let sum = 0;
  let zeros = 0;
  for (let i = 0; i < HLL_M; i++) {
    const r = registers[i]!;
    sum += 2 ** -r;
    if (r === 0) zeros++;
  }
  const raw = (ALPHA * HLL_M * HLL_M) / sum;
  if (raw <= 2.5 * HLL_M && zeros > 0) return HLL_M * Math.log(HLL_M / zeros);
  if (raw > TWO_32 / 30) return -TWO_32 * Math.log(1 - raw / TWO_32);
  return raw;
}

/** A HyperLogLog sketch; `add` takes a 32-bit hash (see hash32 / hashBytes / hashNumber). */
export class HyperLogLog {
  private readonly registers = new Uint8Array(HLL_M);

  /** Adds one (already hashed) value. */
  add(hash: number): void {
    hllAdd(this.registers, hash);
  }

  /** Folds another sketch into this one (the union of both value sets). */
  merge(other: HyperLogLog): void {
    for (let i = 0; i < HLL_M; i++) if (other.registers[i]! > this.registers[i]!) this.registers[i] = other.registers[i]!;
  }

  /** The estimated number of distinct values added. */
  estimate(): number {
    return hllEstimate(this.registers);
  }
}

/** murmur3's 32-bit finalizer: spreads the bits of a 32-bit integer. */
export function hash32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** Hash of a JS number by its float64 bits (-0 and 0 hash alike). */
export function hashNumber(x: number): number {
  f64[0] = x === 0 ? 0 : x;
  return hash32(u32[0]! ^ hash32(u32[1]!));
}

/** FNV-1a over bytes[start, end), finalized with hash32. */
export function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return hash32(h);
}
