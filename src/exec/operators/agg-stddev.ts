/**
 * stddev (sample standard deviation) whose answer does not depend on row
 * order, batch size or parallelism.
 *
 * Welford's update (what DuckDB uses) is stable but its last bits depend on
 * the order rows arrive in, so `round(stddev(x), 2)` could flip between 0.02
 * and 0.03 with the batch size when the true value sits on a half (seen in
 * the random differential test: the exact value was 0.025 + 1e-18, DuckDB
 * said 0.024999999999999994). Here each group keeps, in double-double (about
 * 106 bits), the sums of d = x − K and d² where K is the group's first value
 * (a shift, so data far from zero does not cancel catastrophically); d and d²
 * are formed exactly (TwoSum, Dekker's TwoProduct), sums add with a
 * double-double addition, and states from other subtasks are re-shifted to
 * this state's K exactly before adding. The final variance and square root
 * are computed in double-double and rounded once, so the result is the
 * correctly rounded value in all but pathological cases, whatever the order.
 * A few dozen flops per row: stddev is rare, exactness is worth it.
 *
 * As in DuckDB, a non-finite result (an infinity or NaN among the inputs, or
 * an overflow) is an error, not a silent NaN.
 */
import { makeData, Type, type Data } from 'apache-arrow';
import { ExecutionError } from '../../relnode/errors.js';
import { toArrowType } from '../../relnode/types.js';
import { growF64, isNullAt, numbersOf, validityOf, type AggState } from './agg-arrays.js';
import { ddAdd, ddDiv, ddMul, R, twoProd, twoSum } from './double-double.js';

/** Which of the second-moment aggregates a StddevState answers. */
export type MomentKind = 'stddev_samp' | 'stddev_pop' | 'var_samp' | 'var_pop';

/**
 * Per group: count, shift K, Σd and Σd² as double-double (d = x − K).
 * Answers stddev (sample, the default), stddev_pop, var_samp or var_pop:
 * one state, so all four are exact in the same way.
 */
export class StddevState implements AggState {
  constructor(private readonly kind: MomentKind = 'stddev_samp') {}

  private n = new Float64Array(16);
  private k = new Float64Array(16);
  private s1h = new Float64Array(16);
  private s1l = new Float64Array(16);
  private s2h = new Float64Array(16);
  private s2l = new Float64Array(16);

  resize(groups: number): void {
    this.n = growF64(this.n, groups);
    this.k = growF64(this.k, groups);
    this.s1h = growF64(this.s1h, groups);
    this.s1l = growF64(this.s1l, groups);
    this.s2h = growF64(this.s2h, groups);
    this.s2l = growF64(this.s2l, groups);
  }

  private addOne(g: number, x: number): void {
    if (this.n[g]++ === 0) this.k[g] = x;
    twoSum(x, -this.k[g]!);
    const dh = R.h;
    const dl = R.l;
    ddAdd(this.s1h[g]!, this.s1l[g]!, dh, dl);
    this.s1h[g] = R.h;
    this.s1l[g] = R.l;
    twoProd(dh, dh);
    const ph = R.h;
    const pl = R.l + 2 * dh * dl + dl * dl;
    ddAdd(this.s2h[g]!, this.s2l[g]!, ph, pl);
    this.s2h[g] = R.h;
    this.s2l[g] = R.l;
  }

  add(args: readonly Data[], gids: Int32Array, n: number): void {
    const d = args[0]!;
    if (d.typeId === Type.Null) return;
    const v = numbersOf(d, n);
    const masked = d.nullCount > 0;
    for (let i = 0; i < n; i++) {
      if (masked && isNullAt(d, i)) continue;
      this.addOne(gids[i]!, v[i]!);
    }
  }

  merge(other: AggState, map: Int32Array): void {
    const o = other as StddevState;
    for (let j = 0; j < map.length; j++) {
      const nb = o.n[j]!;
      if (nb === 0) continue;
      const g = map[j]!;
      if (this.n[g] === 0) {
        this.n[g] = nb; this.k[g] = o.k[j]!;
        this.s1h[g] = o.s1h[j]!; this.s1l[g] = o.s1l[j]!; this.s2h[g] = o.s2h[j]!; this.s2l[g] = o.s2l[j]!;
        continue;
      }
      // Re-shift the other state to this K: with δ = K_o − K,
      // Σ(x−K) = S1_o + n_o·δ and Σ(x−K)² = S2_o + 2δ·S1_o + n_o·δ².
      twoSum(o.k[j]!, -this.k[g]!);
      const eh = R.h;
      const el = R.l;
      ddMul(eh, el, nb, 0);
      const nh = R.h;
      const nl = R.l;
      ddAdd(o.s1h[j]!, o.s1l[j]!, nh, nl);
      const a1h = R.h;
      const a1l = R.l;
      ddMul(eh, el, 2 * o.s1h[j]!, 2 * o.s1l[j]!);
      const ch = R.h;
      const cl = R.l;
      ddMul(nh, nl, eh, el);
      ddAdd(ch, cl, R.h, R.l);
      ddAdd(o.s2h[j]!, o.s2l[j]!, R.h, R.l);
      const a2h = R.h;
      const a2l = R.l;
      ddAdd(this.s1h[g]!, this.s1l[g]!, a1h, a1l);
      this.s1h[g] = R.h; this.s1l[g] = R.l;
      ddAdd(this.s2h[g]!, this.s2l[g]!, a2h, a2l);
      this.s2h[g] = R.h; this.s2l[g] = R.l;
      this.n[g] += nb;
    }
  }

  /** The standard deviation or variance of group g (n ≥ 2 for the sample forms, n ≥ 1 for the population forms). */
  private stddev(g: number): number {
    const n = this.n[g]!;
    const pop = this.kind === 'stddev_pop' || this.kind === 'var_pop';
    // var = (S2 − S1²/n) / (n − 1), or / n for the population forms
    ddMul(this.s1h[g]!, this.s1l[g]!, this.s1h[g]!, this.s1l[g]!);
    ddDiv(R.h, R.l, n);
    ddAdd(this.s2h[g]!, this.s2l[g]!, -R.h, -R.l);
    ddDiv(R.h, R.l, pop ? n : n - 1);
    const vh = R.h;
    const vl = R.l;
    const name = this.kind === 'stddev_samp' ? 'stddev' : this.kind;
    if (!Number.isFinite(vh) || !Number.isFinite(this.k[g]!)) throw new ExecutionError(`${name} is out of range (an infinite or NaN input, or an overflow)`);
    if (vh <= 0) return 0;
    if (this.kind === 'var_samp' || this.kind === 'var_pop') return vh + vl;
    // One Newton step on the double-double variance: √v ≈ s + (v − s²) / 2s.
    const s = Math.sqrt(vh);
    twoProd(s, s);
    return s + ((vh - R.h) - R.l + vl) / (2 * s);
  }

  value(start: number, end: number): Data {
    const len = end - start;
    const out = new Float64Array(len);
    const seen = new Uint8Array(len);
    for (let i = 0; i < len; i++) {
      if (this.n[start + i]! >= (this.kind === 'stddev_pop' || this.kind === 'var_pop' ? 1 : 2)) { seen[i] = 1; out[i] = this.stddev(start + i); }
    }
    const { bitmap, nulls } = validityOf(seen, 0, len);
    return makeData({ type: toArrowType('DOUBLE') as never, length: len, nullCount: nulls, nullBitmap: bitmap, data: out });
  }
}
