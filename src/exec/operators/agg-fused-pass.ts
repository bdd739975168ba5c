/**
 * The one-pass aggregate loop: `Aggregate ← [Project ←] Filter` as ONE
 * generated loop over the scanned columns — per row the filter's tests, the
 * group read in place (KeyTable.keyRows), the projected arguments computed in
 * registers, and the compensated sums — so nothing is written per row: no
 * selection vector, no projected column written and read back. TPC-H Q1 at
 * parallelism 1 spent ~18% of its time in the projection kernels and ~5% in
 * the filter, and moved ~2.5× the memory per row of the hand-written loop
 * (bench/suite/hand-q1.ts); see docs/architecture.md "Late materialization".
 *
 * Decision: the pass is an exact replay of the stage path (fused-stage.ts
 * then FusedAggregates.addCoded), not a new semantics. The arguments are the
 * same FusedBuilder expressions the projection kernels compute (same IEEE
 * operations, so the same doubles), rows are added in ascending order and
 * groups resolved in first-seen order, through a compensation step that
 * computes the same exact rounding error (agg-fused-loops.ts): the sums are
 * bit-identical, so p1 and p2 (whose workers run the stage path or
 * this one per batch) keep giving the same bits.
 *
 * When it applies (else the stage path runs, batch by batch):
 * - compile time (lowering): one or two group keys that are plain VARCHAR
 *   column references, or one INTEGER/DATE column reference, or no group key at all (a
 *   global aggregate, TPC-H Q6: every kept row adds to group 0, so the stage
 *   path's gather of the kept rows — ~20% of a Q6 worker — is not needed);
 *   every call a FusedAggregates member (agg-fused.ts isFusible);
 *   every filter conjunct a numeric comparison that cannot raise
 *   (predicate.ts isFusedConjunct); every summed argument a fused DOUBLE
 *   expression without NULL-making operators (no divisions: a zero divisor
 *   gives NULL); every projected column read by the aggregate;
 * - per batch: the keys read in place (KeyTable.keyRows: one NULL-free
 *   dictionary key, two whose code pairs fit a table, one or two one-byte
 *   VARCHAR keys, or one INTEGER/DATE key whose values span a small range,
 *   hash-int-keys.ts) and no NULL in any
 *   column the loop reads. With no NULLs, NULL semantics are trivially kept;
 *   an integer overflow inside an argument raises only for a row the filter
 *   kept, as the stage path's guarded evaluation does.
 */
import type * as arrow from 'apache-arrow';
import type { AggCall } from '../../relnode/rel.js';
import { conjuncts, inputRef, rexVisit, type RexNode } from '../../relnode/rex.js';
import type { Schema } from '../../relnode/types.js';
import { InternalError } from '../../relnode/errors.js';
import { newContext } from '../kernels/compile.js';
import { FusedBuilder, prologue } from '../kernels/fused.js';
import { fusedConjunctBlocks } from '../kernels/fused-kernels.js';
import type { KeyRows } from '../kernels/hash-byte-keys.js';
import { isFusedConjunct, isPureFused } from '../kernels/predicate.js';
import { passLoop, type PassLoop, type PassShape } from './agg-fused-loops.js';
import { fusedLayout, isFusible, type FusedAggregates } from './agg-fused.js';

/** A compiled one-pass loop for one aggregate over one Filter → [Project]. */
export interface FusedPass {
  /** The input columns holding the group keys, in key order. */
  readonly keyColumns: readonly number[];
  /**
   * Adds every row of `batch` that passes the filter to `fused` (the aggregate's FusedAggregates over
   * all its calls), the group of row r read through `keys` (null: no group keys, every row in group
   * 0); a key not resolved yet is resolved by `resolve(r)`. Returns false, adding nothing, when some
   * column the loop reads has NULLs.
   */
  add(batch: arrow.RecordBatch, fused: FusedAggregates, keys: KeyRows | null, resolve: (r: number) => number): boolean;
}

/** The loop's key arguments of a global aggregate (shape 'none' reads none of them). */
const NO_KEYS = { a: new Int32Array(0), ao: 0, b: null, bo: 0, map: new Int32Array(1) } as const;

/** Operators that make a NULL of non-NULL operands (a zero divisor). */
const NULL_OPS: ReadonlySet<string> = new Set(['divide', 'int_divide', 'mod']);

function makesNulls(e: RexNode): boolean {
  let found = false;
  rexVisit(e, (x) => { if (x.kind === 'Call' && NULL_OPS.has(x.op)) found = true; });
  return found;
}

/**
 * The one-pass loop for `Aggregate(groupKeys, calls)` over `Project(exprs)` (undefined: no
 * projection) over `Filter(condition)` (undefined: no filter) over batches of `inputSchema`, or
 * undefined when the shapes do not qualify (see the header).
 */
export function compileFusedPass(condition: RexNode | undefined, exprs: readonly RexNode[] | undefined, inputSchema: Schema, groupKeys: readonly number[], calls: readonly AggCall[]): FusedPass | undefined {
  if (groupKeys.length > 2 || calls.length === 0) return undefined;
  const out = (k: number): RexNode => exprs?.[k] ?? inputRef(k, inputSchema.fields[k]!.type);
  if (!calls.every((c) => isFusible(c, c.args.map((k) => out(k).type)))) return undefined;
  if (exprs !== undefined) {
    const read = new Set([...groupKeys, ...calls.flatMap((c) => c.args)]);
    if (exprs.some((_, k) => !read.has(k))) return undefined;
  }
  const keyColumns: number[] = [];
  for (const k of groupKeys) {
    const e = out(k);
    // KeyTable.keyRows reads VARCHAR keys (dictionary codes or one-byte strings) and one INTEGER/DATE key of a small domain in place.
    if (e.kind !== 'InputRef' || !(e.type === 'VARCHAR' || (groupKeys.length === 1 && (e.type === 'INTEGER' || e.type === 'DATE')))) return undefined;
    keyColumns.push(e.index);
  }
  const conds = condition === undefined ? [] : conjuncts(condition);
  if (!conds.every(isFusedConjunct)) return undefined;

  const b = new FusedBuilder(newContext(inputSchema));
  let filter = fusedConjunctBlocks(b, conds);
  // Only the filter may make NULLs (a zero divisor drops the row); the arguments may not, so
  // `isnull` is 0 past the filter, and an overflow check in an argument raises.
  filter = `${b.nullOps ? 'let isnull = 0;' : 'const isnull = 0;'}\n${filter}`;
  const layout = fusedLayout(calls);
  const args: string[] = [];
  const xs: string[] = [];
  const offs: number[] = [];
  /** Columns counted (count(x)) but not computed: they must be NULL-free. */
  const counted: number[] = [];
  for (const u of layout.slots) {
    const e = out(u.arg);
    if (makesNulls(e)) return undefined;
    if (u.summed) {
      if (e.type !== 'DOUBLE' || !isPureFused(e)) return undefined;
      xs.push(b.emit(e, args));
      offs.push(u.off);
    } else if (e.kind === 'InputRef') counted.push(e.index);
    else if (isPureFused(e)) b.emit(e, args); // computed for its overflow checks; its leaves must be NULL-free
    else return undefined;
  }
  const head = prologue(b);
  const argText = args.length === 0 ? '' : `${args.join('\n')}\n`;
  const K = b.lits;
  const fail = b.failer({ valid: null });
  const leafColumns = b.leaves.map((l) => {
    if (l.kernel !== null) throw new InternalError('compileFusedPass: a pure fused expression has a sub-kernel');
    return l.index;
  });
  const loops = new Map<PassShape, PassLoop>();
  return {
    keyColumns,
    add(batch, fused, keys, resolve) {
      if (fused.stride !== layout.S) throw new InternalError('compileFusedPass: the aggregate state has another layout');
      const cols = batch.data.children;
      for (const c of leafColumns) if (cols[c]!.nullCount !== 0) return false;
      for (const c of counted) if (cols[c]!.nullCount !== 0) return false;
      const { arrays } = b.prepare(batch);
      if ((keys === null) !== (keyColumns.length === 0)) throw new InternalError('compileFusedPass: key rows do not match the group keys');
      const shape: PassShape = keys === null ? 'none' : keys.shape;
      let loop = loops.get(shape);
      if (loop === undefined) { loop = passLoop(head, filter, argText, xs, layout.S, offs, shape); loops.set(shape, loop); }
      const run = loop;
      const n = batch.numRows;
      const { a, ao, b: kb, bo, map } = keys ?? NO_KEYS;
      fused.addRows((st, i0) => run(arrays, K, st, a, ao, kb, bo, map, i0, n, fail), n, resolve);
      return true;
    },
  };
}
