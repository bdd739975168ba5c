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
 * compensation) pair sees the same values in the same order through a step
 * that computes the same exact rounding error (Neumaier's here and in the
 * states; branch-free TwoSum in the generated loops, agg-fused-loops.ts), and
 * `value` / `merge` are the same formulas. Only the layout
 * and the loop shape change.
 *
 * Layout per group g, stride S = 1 + 3U for U argument slots: st[S g] = rows
 * added (count(*)), then per slot u: sum, compensation, and the number of its
 * rows that were NULL (skipped) — so a member's count is rows − skipped and
 * the no-NULL loop (the hot one) writes no per-member count at all.
 *
 * Decision: members over the same argument share one slot. sum(x), avg(x)
 * and count(x) see the same values and skip the same NULL rows, so their
 * (sum, compensation, skipped) triples are identical; TPC-H Q1's avg(l_quantity)
 * and avg(l_extendedprice) reuse the slots of the two sums (7 summed loop
 * bodies → 5; bench/agg-kernels.ts "Q1 aggregates"). A partial stage's
 * `sum_lo(x)` (the exact rest of sum(x), agg-sum-parts.ts) shares its sum's
 * slot the same way, so sending the parts costs no work per row.
 *
 * The no-NULL loop is generated per member shape (fused.ts `generate`, cached
 * by source text; the text contains only numbers, never user input). A batch
 * where some argument has NULLs takes a plain per-member loop.
 */
import { Type, type Data } from 'apache-arrow';
import type { AggCall } from '../../relnode/rel.js';
import { InternalError } from '../../relnode/errors.js';
import { toArrowType, type SqlType } from '../../relnode/types.js';
import { codedLoop, perCodeLoop, sumLoop, type CodedLoop, type SumLoop } from './agg-fused-loops.js';
import { fixedData } from '../arrow-build.js';
import { giveArray } from '../kernels/buffer-pool.js';
import { growF64, identityRows, int64FromDoubles, isNullAt, validityOf, type ColumnScratch } from './agg-arrays.js';
import { meanOf, roundedSum, sumRest } from './agg-sum-parts.js';
import type { KeyRows } from '../kernels/hash-byte-keys.js';

/** What one fused member computes. */
type MemberKind = 'sum' | 'avg' | 'count_star' | 'count' | 'sum_lo';

export interface Member {
  readonly kind: MemberKind;
  /** Input ordinal of the argument (-1 for count_star). */
  readonly arg: number;
  /** Offset of its slot's (sum, compensation, skipped) triple in a group's stride (0, unused, for count_star). */
  readonly off: number;
}

/** One argument's shared slot: its input ordinal, its offset, and whether some member adds its values. */
export interface Slot { readonly arg: number; readonly off: number; summed: boolean }

/** Whether `call` (with its argument types) can be a member of a FusedAggregates. */
export function isFusible(call: AggCall, argTypes: readonly SqlType[]): boolean {
  if (call.distinct || call.order !== undefined) return false;
  switch (call.fn) {
    case 'count_star': return true;
    case 'count': return call.args.length === 1;
    // The DOUBLE-accumulating states of agg-states.ts over a DOUBLE argument (ints sum exactly elsewhere).
    case 'sum': case 'sum_lo': return call.type === 'DOUBLE' && argTypes[0] === 'DOUBLE';
    case 'avg': return argTypes[0] === 'DOUBLE';
    default: return false;
  }
}

/**
 * The input ordinals an aggregate reads only as arguments of sum/avg/count calls (`isFusible`),
 * never as group keys. Their states — fused or not (agg-states.ts SumDoubleState, CountState) —
 * fold each batch into their own arrays and keep no reference to its Data, so a fused stage below
 * may reuse those columns' buffers batch after batch (kernels/fused-stage.ts `transient`).
 */
export function transientArgs(groupKeys: readonly number[], calls: readonly AggCall[], input: { readonly fields: readonly { readonly type: SqlType }[] }): Set<number> {
  const out = new Set<number>();
  const bad = new Set<number>(groupKeys);
  for (const c of calls) {
    const ok = isFusible(c, c.args.map((k) => input.fields[k]!.type));
    for (const k of c.args) (ok ? out : bad).add(k);
  }
  for (const k of bad) out.delete(k);
  return out;
}

/** Where the members of a FusedAggregates keep their state (one function: the state and the one-pass loop agree). */
export interface FusedLayout {
  readonly members: readonly Member[];
  /** The argument slots, one per distinct argument ordinal, in first-use order. */
  readonly slots: readonly Slot[];
  /** A group's stride: count(*), then (sum, compensation, skipped) per slot. */
  readonly S: number;
}

/** The state layout of FusedAggregates over `calls` (each `isFusible`). */
export function fusedLayout(calls: readonly AggCall[]): FusedLayout {
  const byArg = new Map<number, Slot>();
  const slots: Slot[] = [];
  const members = calls.map((c): Member => {
    const kind = c.fn as MemberKind;
    if (kind === 'count_star') return { kind, arg: -1, off: 0 };
    const arg = c.args[0]!;
    let slot = byArg.get(arg);
    if (slot === undefined) { slot = { arg, off: 1 + 3 * slots.length, summed: false }; slots.push(slot); byArg.set(arg, slot); }
    if (kind === 'sum' || kind === 'avg' || kind === 'sum_lo') slot.summed = true;
    return { kind, arg, off: slot.off };
  });
  return { members, slots, S: 1 + 3 * slots.length };
}

/**
 * A loop over one batch's rows from row `i0` that adds them to the state `st` (FusedAggregates'
 * layout) and returns the first row whose group is not resolved yet (the batch's row count when none).
 */
export type RowsFrom = (st: Float64Array, i0: number) => number;

/** The members' shared per-group state and their one-loop update. */
export class FusedAggregates {
  private readonly members: readonly Member[];
  /** The argument slots, one per distinct argument ordinal, in first-use order. */
  private readonly slots: readonly Slot[];
  private readonly S: number;
  private st: Float64Array;
  /** Slots whose values are added (some sum/avg member), and the generated loop over them. */
  private readonly summed: readonly Slot[];
  private readonly summedOffs: readonly number[];
  /** The generated loops over rows sel[j] and over every row (made on first use). */
  private loopSel: SumLoop | null = null;
  private loopAll: SumLoop | null = null;
  /** The generated in-place-key loops, by key shape and selection (made on first use). */
  private readonly coded = new Map<string, CodedLoop>();
  /** addByCode's per-code states (grown on use). */
  private byCode = new Float64Array(0);

  /** @param calls the member calls (each `isFusible`), in the order `value(k, ...)` indexes them */
  constructor(calls: readonly AggCall[]) {
    const layout = fusedLayout(calls);
    this.members = layout.members;
    this.slots = layout.slots;
    this.S = layout.S;
    this.st = new Float64Array(16 * this.S);
    this.summed = this.slots.filter((u) => u.summed);
    this.summedOffs = this.summed.map((u) => u.off);
  }

  /** A group's stride in the state (fusedLayout's S). */
  get stride(): number { return this.S; }

  /** The number of argument slots per group (members over the same argument share one). */
  get slotCount(): number { return this.slots.length; }

  resize(groups: number): void { this.st = growF64(this.st, this.S * groups); }

  /** The result has been emitted: the state array goes back for the next aggregate (kernels/buffer-pool.ts). */
  release(): void { giveArray(this.st); this.st = new Float64Array(16 * this.S); }

  /** The summed columns' values when no member's argument has NULLs (the generated loops' case), else null. */
  private plainValues(cols: readonly Data[]): Float64Array[] | null {
    const V: Float64Array[] = [];
    for (const u of this.summed) {
      const d = cols[u.arg]!;
      if (d.nullCount !== 0 || !(d.values instanceof Float64Array)) return null;
      V.push(d.values);
    }
    for (const u of this.slots) if (!u.summed && cols[u.arg]!.nullCount !== 0) return null;
    return V;
  }

  /**
   * Adds rows `sel[j]` (j < m; null: rows [0, m)) of the input columns `cols`
   * (indexed by input ordinal) to groups `gids[j]`.
   */
  add(cols: readonly Data[], gids: Int32Array, sel: Int32Array | null, m: number): void {
    const V = this.plainValues(cols);
    if (V !== null) {
      const offs = this.summedOffs;
      if (sel !== null) (this.loopSel ??= sumLoop(this.S, offs, true))(V, this.st, sel, gids, m);
      else (this.loopAll ??= sumLoop(this.S, offs, false))(V, this.st, null, gids, m);
      return;
    }
    this.addMasked(cols, gids, sel ?? identityRows(m), m);
  }

  /**
   * `add` with the group of column row r read in place through `keys` (KeyTable.keyRows: one
   * dictionary key's codes or one or two one-byte keys; agg-fused-loops.ts codedLoop) instead of a
   * group-id array. A key mapped to a negative value is resolved by `resolve(r)` (its gid, recorded
   * in `keys.map`; the state grows to hold it) when the loop reaches it, so groups are numbered in
   * first-seen order as by KeyTable.groupIds. Returns false, adding nothing, when some argument has
   * NULLs (the caller takes the group-id path).
   */
  addCoded(cols: readonly Data[], keys: KeyRows, sel: Int32Array | null, m: number, resolve: (r: number) => number): boolean {
    const V = this.plainValues(cols);
    if (V === null) return false;
    if (keys.perm !== null && keys.perm.length <= m) { this.addByCode(V, keys.a as Int32Array, keys.perm, sel, m); return true; }
    const name = `${keys.shape}${sel !== null ? '+sel' : ''}`;
    let loop = this.coded.get(name);
    if (loop === undefined) { loop = codedLoop(this.S, this.summedOffs, sel !== null, keys.shape); this.coded.set(name, loop); }
    const run = loop;
    const { a, ao, b, bo, map } = keys;
    this.addRows((st, j) => run(V, st, sel, a, ao, b, bo, map, j, m), m, (j) => resolve(sel === null ? j : sel[j]!));
    return true;
  }

  /**
   * Runs `rows` over positions [0, m) with this state, resolving each position it stops at (an
   * unresolved key: `resolve(j)` gives its gid, and the state grows to hold it) and resuming there.
   * The one-pass loop of agg-fused-pass.ts and `addCoded` both run this way.
   */
  addRows(rows: RowsFrom, m: number, resolve: (j: number) => number): void {
    for (let j = 0, stuck = -1; j < m;) {
      j = rows(this.st, j);
      if (j === m) break;
      // The loop re-reads row j's key after `resolve`: stopping there twice means it was not recorded.
      if (j === stuck) throw new InternalError('FusedAggregates: a resolved key is not in the map');
      stuck = j;
      this.resize(resolve(j) + 1);
    }
  }

  /**
   * addCoded when every dictionary code has a group of its own (`perm`: code → gid): the groups'
   * states are copied to per-code slots, the loop adds there (agg-fused-loops.ts perCodeLoop: no
   * map read per row), and they are copied back. Each group sees the same additions in the same
   * order: the same bits. Taken for batches of at least as many rows as codes (the copies).
   */
  private addByCode(V: Float64Array[], codes: Int32Array, perm: Int32Array, sel: Int32Array | null, m: number): void {
    const S = this.S;
    const D = perm.length;
    let top = 0;
    for (let c = 0; c < D; c++) if (perm[c]! > top) top = perm[c]!;
    this.resize(top + 1);
    const st = this.st;
    if (this.byCode.length < S * D) this.byCode = new Float64Array(S * D);
    const pc = this.byCode;
    for (let c = 0; c < D; c++) for (let k = 0, g = S * perm[c]!, b = S * c; k < S; k++) pc[b + k] = st[g + k]!;
    const name = sel !== null ? 'percode+sel' : 'percode';
    let loop = this.coded.get(name);
    if (loop === undefined) { loop = perCodeLoop(S, this.summedOffs, sel !== null); this.coded.set(name, loop); }
    loop(V, pc, sel, codes, 0, null, 0, perm, 0, m);
    for (let c = 0; c < D; c++) for (let k = 0, g = S * perm[c]!, b = S * c; k < S; k++) st[g + k] = pc[b + k]!;
  }

  /** The general loop: one pass per slot, NULLs counted as skipped. */
  private addMasked(cols: readonly Data[], gids: Int32Array, rows: Int32Array, m: number): void {
    const st = this.st;
    const S = this.S;
    for (let j = 0; j < m; j++) st[S * gids[j]!]++;
    for (const u of this.slots) {
      const o = u.off;
      const d = cols[u.arg]!;
      if (d.typeId === Type.Null) { for (let j = 0; j < m; j++) st[S * gids[j]! + o + 2]++; continue; }
      const masked = d.nullCount !== 0;
      if (!u.summed) {
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
      for (const u of this.slots) {
        const p = b + u.off;
        const q = a + u.off;
        const s = st[p]!;
        const x = o[q]!;
        const t = s + x;
        st[p + 1] += (Math.abs(s) >= Math.abs(x) ? (s - t) + x : (x - t) + s) + o[q + 1]!;
        st[p] = t;
        st[p + 2] += o[q + 2]!;
      }
    }
  }

  /** Member k's result column for groups [start, end); with `scratch`, transient (AggState.value). */
  value(k: number, start: number, end: number, scratch?: ColumnScratch): Data { return this.values(k, start, end - start, null, scratch); }

  /** Member k's result column for groups `gids[0..n)` (a HAVING's kept groups, agg-having.ts). */
  valueAt(k: number, gids: Int32Array, n: number): Data { return this.values(k, 0, n, gids); }

  /** Member k's result column for groups start + i or, with `gids`, gids[i] (i < n). */
  private values(k: number, start: number, n: number, gids: Int32Array | null, scratch?: ColumnScratch): Data {
    const mb = this.members[k]!;
    const st = this.st;
    const S = this.S;
    const o = mb.off;
    if (mb.kind === 'count_star' || mb.kind === 'count') {
      const counts = scratch === undefined ? new Float64Array(n) : scratch.doubles(n);
      const star = mb.kind === 'count_star';
      for (let i = 0; i < n; i++) { const b = S * (gids === null ? start + i : gids[i]!); counts[i] = star ? st[b]! : st[b]! - st[b + o + 2]!; }
      return fixedData(toArrowType('BIGINT'), n, 0, null, int64FromDoubles(counts, 0, n, null, scratch));
    }
    const out = scratch === undefined ? new Float64Array(n) : scratch.doubles(n);
    const seen = scratch === undefined ? new Uint8Array(n) : scratch.zeroedBytes(n);
    const avg = mb.kind === 'avg';
    for (let i = 0; i < n; i++) {
      const b = S * (gids === null ? start + i : gids[i]!);
      const c = st[b]! - st[b + o + 2]!;
      if (c <= 0) continue;
      seen[i] = 1;
      const s = st[b + o]!;
      // As SumDoubleState.value (agg-sum-parts.ts): rounded once from the compensated pair.
      out[i] = avg ? meanOf(s, st[b + o + 1]!, c) : mb.kind === 'sum_lo' ? sumRest(s, st[b + o + 1]!) : roundedSum(s, st[b + o + 1]!);
    }
    const { bitmap, nulls } = validityOf(seen, 0, n);
    return fixedData(toArrowType('DOUBLE'), n, nulls, bitmap, out);
  }
}
