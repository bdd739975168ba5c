/**
 * covar_pop, covar_samp and corr, exact in the way stddev is
 * (agg-stddev.ts): per group the count, shifts K and M (the first pair) and,
 * in double-double, the sums of dx = x − K, dy = y − M, dx², dy² and dx·dy.
 * States from other subtasks are re-shifted exactly before adding, and the
 * result is computed in double-double and rounded once, so it does not
 * depend on row order or parallelism. Only pairs where both values are
 * non-NULL count. As DuckDB: covar_samp and corr of fewer than two pairs
 * are NULL, corr with a zero variance is NULL, and a non-finite result is
 * an error.
 */
import { makeData, Type, type Data } from 'apache-arrow';
import { ExecutionError } from '../../relnode/errors.js';
import { toArrowType } from '../../relnode/types.js';
import { growF64, isNullAt, numbersOf, validityOf, type AggState } from './agg-arrays.js';
import { ddAdd, ddDiv, ddMul, R, twoSum } from './double-double.js';

export type CovarKind = 'covar_pop' | 'covar_samp' | 'corr';

/** The five double-double sums, by name: [high, low] arrays. */
const SUMS = ['x', 'y', 'xx', 'yy', 'xy'] as const;
type SumName = (typeof SUMS)[number];

export class CovarState implements AggState {
  private n = new Float64Array(16);
  private kx = new Float64Array(16);
  private ky = new Float64Array(16);
  private readonly h: Record<SumName, Float64Array> = { x: new Float64Array(16), y: new Float64Array(16), xx: new Float64Array(16), yy: new Float64Array(16), xy: new Float64Array(16) };
  private readonly l: Record<SumName, Float64Array> = { x: new Float64Array(16), y: new Float64Array(16), xx: new Float64Array(16), yy: new Float64Array(16), xy: new Float64Array(16) };

  constructor(private readonly kind: CovarKind) {}

  resize(groups: number): void {
    this.n = growF64(this.n, groups);
    this.kx = growF64(this.kx, groups);
    this.ky = growF64(this.ky, groups);
    for (const s of SUMS) { this.h[s] = growF64(this.h[s], groups); this.l[s] = growF64(this.l[s], groups); }
  }

  /** Adds the double-double (ah, al) to sum s of group g. */
  private addTo(s: SumName, g: number, ah: number, al: number): void {
    ddAdd(this.h[s][g]!, this.l[s][g]!, ah, al);
    this.h[s][g] = R.h;
    this.l[s][g] = R.l;
  }

  private addOne(g: number, y: number, x: number): void {
    if (this.n[g]++ === 0) { this.kx[g] = x; this.ky[g] = y; }
    twoSum(x, -this.kx[g]!);
    const xh = R.h, xl = R.l;
    twoSum(y, -this.ky[g]!);
    const yh = R.h, yl = R.l;
    this.addTo('x', g, xh, xl);
    this.addTo('y', g, yh, yl);
    ddMul(xh, xl, xh, xl); this.addTo('xx', g, R.h, R.l);
    ddMul(yh, yl, yh, yl); this.addTo('yy', g, R.h, R.l);
    ddMul(xh, xl, yh, yl); this.addTo('xy', g, R.h, R.l);
  }

  add(args: readonly Data[], gids: Int32Array, n: number): void {
    const dy = args[0]!, dx = args[1]!;
    if (dy.typeId === Type.Null || dx.typeId === Type.Null) return;
    const vy = numbersOf(dy, n), vx = numbersOf(dx, n);
    const masked = dy.nullCount > 0 || dx.nullCount > 0;
    for (let i = 0; i < n; i++) {
      if (masked && ((dy.nullCount > 0 && isNullAt(dy, i)) || (dx.nullCount > 0 && isNullAt(dx, i)))) continue;
      this.addOne(gids[i]!, vy[i]!, vx[i]!);
    }
  }

  merge(other: AggState, map: Int32Array): void {
    const o = other as CovarState;
    for (let j = 0; j < map.length; j++) {
      const nb = o.n[j]!;
      if (nb === 0) continue;
      const g = map[j]!;
      if (this.n[g] === 0) {
        this.n[g] = nb; this.kx[g] = o.kx[j]!; this.ky[g] = o.ky[j]!;
        for (const s of SUMS) { this.h[s][g] = o.h[s][j]!; this.l[s][g] = o.l[s][j]!; }
        continue;
      }
      // Re-shift the other state to this state's K, M: with a = K_o − K, b = M_o − M,
      // Σdx' = Sx + n·a, Σdy' = Sy + n·b, Σdx'² = Sxx + 2a·Sx + n·a², Σdy'² = Syy + 2b·Sy + n·b², Σdx'dy' = Sxy + a·Sy + b·Sx + n·a·b.
      twoSum(o.kx[j]!, -this.kx[g]!); const ah = R.h, al = R.l;
      twoSum(o.ky[j]!, -this.ky[g]!); const bh = R.h, bl = R.l;
      const oh = (s: SumName): number => o.h[s][j]!, ol = (s: SumName): number => o.l[s][j]!;
      // n·a, n·b
      ddMul(ah, al, nb, 0); const nah = R.h, nal = R.l;
      ddMul(bh, bl, nb, 0); const nbh = R.h, nbl = R.l;
      ddAdd(oh('x'), ol('x'), nah, nal); this.addTo('x', g, R.h, R.l);
      ddAdd(oh('y'), ol('y'), nbh, nbl); this.addTo('y', g, R.h, R.l);
      const square = (s: SumName, s1: SumName, dh: number, dl: number, ndh: number, ndl: number): void => {
        ddMul(dh, dl, 2 * oh(s1), 2 * ol(s1)); const th = R.h, tl = R.l;
        ddMul(ndh, ndl, dh, dl); ddAdd(th, tl, R.h, R.l); ddAdd(oh(s), ol(s), R.h, R.l);
        this.addTo(s, g, R.h, R.l);
      };
      square('xx', 'x', ah, al, nah, nal);
      square('yy', 'y', bh, bl, nbh, nbl);
      ddMul(ah, al, oh('y'), ol('y')); const t1h = R.h, t1l = R.l;
      ddMul(bh, bl, oh('x'), ol('x')); ddAdd(t1h, t1l, R.h, R.l); const t2h = R.h, t2l = R.l;
      ddMul(nah, nal, bh, bl); ddAdd(t2h, t2l, R.h, R.l); ddAdd(oh('xy'), ol('xy'), R.h, R.l);
      this.addTo('xy', g, R.h, R.l);
      this.n[g] += nb;
    }
  }

  /** Σ(d_a − mean)(d_b − mean) = S_ab − S_a·S_b / n, in double-double (into R). */
  private centered(g: number, ab: SumName, a: SumName, b: SumName): void {
    ddMul(this.h[a][g]!, this.l[a][g]!, this.h[b][g]!, this.l[b][g]!);
    ddDiv(R.h, R.l, this.n[g]!);
    ddAdd(this.h[ab][g]!, this.l[ab][g]!, -R.h, -R.l);
  }

  /** The result of group g, or null. */
  private result(g: number): number | null {
    const n = this.n[g]!;
    if (n === 0 || (n < 2 && this.kind !== 'covar_pop')) return null;
    this.centered(g, 'xy', 'x', 'y');
    const ch = R.h, cl = R.l;
    let r: number;
    if (this.kind !== 'corr') {
      ddDiv(ch, cl, this.kind === 'covar_pop' ? n : n - 1);
      r = R.h + R.l;
    } else {
      this.centered(g, 'xx', 'x', 'x'); const vx = R.h + R.l;
      this.centered(g, 'yy', 'y', 'y'); const vy = R.h + R.l;
      if (!(vx > 0) || !(vy > 0)) return Number.isFinite(vx) && Number.isFinite(vy) ? null : NaN;
      r = (ch + cl) / Math.sqrt(vx * vy);
      if (!Number.isFinite(r)) r = (ch + cl) / Math.sqrt(vx) / Math.sqrt(vy);
    }
    if (!Number.isFinite(r) || !Number.isFinite(this.kx[g]!) || !Number.isFinite(this.ky[g]!)) throw new ExecutionError(`${this.kind} is out of range (an infinite or NaN input, or an overflow)`);
    return this.kind === 'corr' ? Math.max(-1, Math.min(1, r)) : r;
  }

  value(start: number, end: number): Data {
    const len = end - start;
    const out = new Float64Array(len);
    const seen = new Uint8Array(len);
    for (let i = 0; i < len; i++) {
      const r = this.result(start + i);
      if (r !== null) {
        if (Number.isNaN(r)) throw new ExecutionError(`${this.kind} is out of range (an infinite or NaN input, or an overflow)`);
        seen[i] = 1; out[i] = r;
      }
    }
    const { bitmap, nulls } = validityOf(seen, 0, len);
    return makeData({ type: toArrowType('DOUBLE') as never, length: len, nullCount: nulls, nullBitmap: bitmap, data: out });
  }
}
