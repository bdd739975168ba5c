/**
 * Fused aggregates: the DOUBLE sums and averages and the counts of one hash
 * aggregate updated in ONE loop per batch over its selection and group ids,
 * into ONE interleaved per-group array, instead of one loop (and one array)
 * per aggregate. TPC-H Q1's eight aggregates read `sel[j]` and `gids[j]` once
 * per row instead of eight times, their compensated-sum dependency chains
 * interleave, and the row count is shared (bench/agg-kernels.ts: 8
 * aggregates over 5.9M rows 467 → 240 ms CPU; TPC-H Q1 SF 1 1079 → 817 ms).
 *
 * Decision: results are bit-identical to the per-aggregate states
 * (agg-states.ts SumDoubleState / CountState): every group's (sum,
 * compensation) pair sees the same values in the same order through the same
 * Neumaier step, and `value` / `merge` are the same formulas. Only the layout
 * and the loop shape change.
 *
 * Layout per group g, stride S = 1 + 3K for K members: st[S g] = rows added
 * (count(*)), then per member k: sum, compensation, and the number of its
 * rows that were NULL (skipped) — so a member's count is rows − skipped and
 * the no-NULL loop (the hot one) writes no per-member count at all.
 *
 * The no-NULL loop is generated per member shape (fused.ts `generate`, cached
 * by source text; the text contains only numbers, never user input). A batch
 * where some argument has NULLs takes a plain per-member loop.
 */
import { Type, makeData, type Data } from 'apache-arrow';
import type { AggCall } from '../../relnode/rel.js';
import { toArrowType, type SqlType } from '../../relnode/types.js';
import { generate } from '../kernels/fused.js';
import { growF64, identityRows, int64FromDoubles, isNullAt, validityOf } from './agg-arrays.js';
import { R, ddDiv } from './double-double.js';

/** What one fused member computes. */
type MemberKind = 'sum' | 'avg' | 'count_star' | 'count';

interface Member {
  readonly kind: MemberKind;
  /** Input ordinal of the argument (-1 for count_star). */
  readonly arg: number;
}

/** Whether `call` (with its argument types) can be a member of a FusedAggregates. */
export function isFusible(call: AggCall, argTypes: readonly SqlType[]): boolean {
  if (call.distinct || call.order !== undefined) return false;
  switch (call.fn) {
    case 'count_star': return true;
    case 'count': return call.args.length === 1;
    // The DOUBLE-accumulating states of agg-states.ts over a DOUBLE argument (ints sum exactly elsewhere).
    case 'sum': return call.type === 'DOUBLE' && argTypes[0] === 'DOUBLE';
    case 'avg': return argTypes[0] === 'DOUBLE';
    default: return false;
  }
}

type SumLoop = (V: Float64Array[], st: Float64Array, sel: Int32Array, gids: Int32Array, m: number) => void;

/** The generated no-NULL loop over `offs.length` summed columns (member slots at `offs`) with stride S. */
function sumLoop(S: number, offs: readonly number[]): SumLoop {
  let pro = `/* fused sums S=${S} */\n`;
  for (let k = 0; k < offs.length; k++) pro += `const v${k} = V[${k}];\n`;
  let body = 'for (let j = 0; j < m; j++) {\nconst r = sel[j];\n';
  body += `const b = ${S} * gids[j];\nst[b]++;\n`;
  for (let k = 0; k < offs.length; k++) {
    const o = offs[k]!;
    body += `{ const x = v${k}[r]; const s = st[b + ${o}]; const t = s + x; `
      + `st[b + ${o + 1}] += Math.abs(s) >= Math.abs(x) ? (s - t) + x : (x - t) + s; st[b + ${o}] = t; }\n`;
  }
  body += '}\n';
  return generate<SumLoop>('V,st,sel,gids,m', pro + body);
}

/** The members' shared per-group state and their one-loop update. */
export class FusedAggregates {
  private readonly members: readonly Member[];
  private readonly S: number;
  private st: Float64Array;
  /** Members that add values (sum/avg), their slot offsets and the generated loop. */
  private readonly summed: readonly number[];
  private readonly loop: SumLoop;

  /** @param calls the member calls (each `isFusible`), in the order `value(k, ...)` indexes them */
  constructor(calls: readonly AggCall[]) {
    this.members = calls.map((c) => ({ kind: c.fn as MemberKind, arg: c.fn === 'count_star' ? -1 : c.args[0]! }));
    this.S = 1 + 3 * calls.length;
    this.st = new Float64Array(16 * this.S);
    this.summed = this.members.flatMap((m, k) => (m.kind === 'sum' || m.kind === 'avg' ? [k] : []));
    this.loop = sumLoop(this.S, this.summed.map((k) => 1 + 3 * k));
  }

  resize(groups: number): void { this.st = growF64(this.st, this.S * groups); }

  /**
   * Adds rows `sel[j]` (j < m; null: rows [0, m)) of the input columns `cols`
   * (indexed by input ordinal) to groups `gids[j]`.
   */
  add(cols: readonly Data[], gids: Int32Array, sel: Int32Array | null, m: number): void {
    const rows = sel ?? identityRows(m);
    let plain = true;
    const V: Float64Array[] = [];
    for (const k of this.summed) {
      const d = cols[this.members[k]!.arg]!;
      if (d.nullCount !== 0 || !(d.values instanceof Float64Array)) { plain = false; break; }
      V.push(d.values);
    }
    if (plain) for (const mb of this.members) if (mb.kind === 'count' && cols[mb.arg]!.nullCount !== 0) plain = false;
    if (plain) { this.loop(V, this.st, rows, gids, m); return; }
    this.addMasked(cols, gids, rows, m);
  }

  /** The general loop: one pass per member, NULLs counted as skipped. */
  private addMasked(cols: readonly Data[], gids: Int32Array, rows: Int32Array, m: number): void {
    const st = this.st;
    const S = this.S;
    for (let j = 0; j < m; j++) st[S * gids[j]!]++;
    for (let k = 0; k < this.members.length; k++) {
      const mb = this.members[k]!;
      if (mb.kind === 'count_star') continue;
      const o = 1 + 3 * k;
      const d = cols[mb.arg]!;
      if (d.typeId === Type.Null) { for (let j = 0; j < m; j++) st[S * gids[j]! + o + 2]++; continue; }
      const masked = d.nullCount !== 0;
      if (mb.kind === 'count') {
        if (masked) for (let j = 0; j < m; j++) if (isNullAt(d, rows[j]!)) st[S * gids[j]! + o + 2]++;
        continue;
      }
      const v = d.values as Float64Array;
      for (let j = 0; j < m; j++) {
        const r = rows[j]!;
        const b = S * gids[j]! + o;
        if (masked && isNullAt(d, r)) { st[b + 2]++; continue; }
        const x = v[r]!;
        const s = st[b]!;
        const t = s + x;
        st[b + 1] += Math.abs(s) >= Math.abs(x) ? (s - t) + x : (x - t) + s;
        st[b] = t;
      }
    }
  }

  /** Folds group j of `other` (the same members) into group `map[j]`. */
  merge(other: FusedAggregates, map: Int32Array): void {
    const o = other.st;
    const st = this.st;
    const S = this.S;
    for (let j = 0; j < map.length; j++) {
      const b = S * map[j]!;
      const a = S * j;
      st[b] += o[a]!;
      for (let k = 0; k < this.members.length; k++) {
        const p = b + 1 + 3 * k;
        const q = a + 1 + 3 * k;
        const s = st[p]!;
        const x = o[q]!;
        const t = s + x;
        st[p + 1] += (Math.abs(s) >= Math.abs(x) ? (s - t) + x : (x - t) + s) + o[q + 1]!;
        st[p] = t;
        st[p + 2] += o[q + 2]!;
      }
    }
  }

  /** Member k's result column for groups [start, end). */
  value(k: number, start: number, end: number): Data {
    const mb = this.members[k]!;
    const st = this.st;
    const S = this.S;
    const o = 1 + 3 * k;
    const n = end - start;
    if (mb.kind === 'count_star' || mb.kind === 'count') {
      const counts = new Float64Array(n);
      for (let i = 0; i < n; i++) { const b = S * (start + i); counts[i] = st[b]! - st[b + o + 2]!; }
      return makeData({ type: toArrowType('BIGINT') as never, length: n, nullCount: 0, data: int64FromDoubles(counts, 0, n) as never });
    }
    const out = new Float64Array(n);
    const seen = new Uint8Array(n);
    const avg = mb.kind === 'avg';
    for (let i = 0; i < n; i++) {
      const b = S * (start + i);
      const c = st[b]! - st[b + o + 2]!;
      if (c <= 0) continue;
      seen[i] = 1;
      const s = st[b + o]!;
      // As SumDoubleState.value: a non-finite sum keeps the plain sum; avg divides the double-double once.
      if (!Number.isFinite(s)) out[i] = avg ? s / c : s;
      else if (avg) { ddDiv(s, st[b + o + 1]!, c); out[i] = R.h; }
      else out[i] = s + st[b + o + 1]!;
    }
    const { bitmap, nulls } = validityOf(seen, 0, n);
    return makeData({ type: toArrowType('DOUBLE') as never, length: n, nullCount: nulls, nullBitmap: bitmap, data: out });
  }
}
