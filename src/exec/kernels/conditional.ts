/**
 * CASE, coalesce and nullif. The first WHEN that is TRUE (not NULL) wins. Each
 * condition and branch is evaluated on the whole batch (retried on just the
 * rows it decides when that throws, see selection.ts), then rows are merged by
 * a per-row branch index.
 */
import { caseWhen, call, cast, literal, rexInputs, type Call, type Case, type RexNode } from '../../relnode/rex.js';
import type { SqlType } from '../../relnode/types.js';
import { boolBitsOf, validityOf } from './bitmap.js';
import { isNullType, makeColumn, newValues, nullColumn } from './column.js';
import type { CompileContext, Kernel } from './context.js';
import { gather } from './gather.js';
import { allRows, evalGuarded, evalOnRows } from './selection.js';
import { ExecutionError } from '../../relnode/errors.js';
import type * as arrow from 'apache-arrow';

interface Part { readonly kernel: Kernel; readonly cols: ReadonlySet<number> }

function part(e: RexNode, ctx: CompileContext): Part {
  return { kernel: ctx.compile(e), cols: rexInputs(e) };
}

/** Rows i (in order) with pick[i] === b. */
function rowsOf(pick: Uint8Array | Uint16Array, b: number, n: number): Int32Array {
  const out = new Int32Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) if (pick[i] === b) out[k++] = i;
  return out.subarray(0, k);
}

/** Evaluates each branch on the rows that picked it and merges them. */
function merge(type: SqlType, branches: readonly Part[], pick: Uint8Array | Uint16Array, batch: arrow.RecordBatch, ctx: CompileContext): arrow.Data {
  const n = batch.numRows;
  const sources: arrow.Data[] = [];
  let used = -1, usedCount = 0;
  for (let b = 0; b < branches.length; b++) {
    const rows = rowsOf(pick, b, n);
    if (rows.length === 0) { sources.push(nullColumn(n)); continue; }
    used = b; usedCount++;
    sources.push(evalGuarded(branches[b]!.kernel, type, batch, rows, ctx.schema, branches[b]!.cols));
  }
  if (usedCount === 1) return gather(type, [sources[used]!], null, null, n);
  return gather(type, sources, pick, null, n);
}

/** Compiles CASE WHEN ... THEN ... ELSE ... END. */
export function compileCase(e: Case, ctx: CompileContext): Kernel {
  const conds = e.whens.map((w) => part(w.when, ctx));
  const branches = [...e.whens.map((w) => part(w.then, ctx)), part(e.otherwise, ctx)];
  const W = conds.length;
  if (W === 1 && (e.type === 'INTEGER' || e.type === 'DATE' || e.type === 'DOUBLE')) return numericIfElse(e.type, conds[0]!, branches[0]!, branches[1]!, ctx);
  return (batch) => {
    const n = batch.numRows;
    const pick = W < 255 ? new Uint8Array(n).fill(W) : new Uint16Array(n).fill(W);
    let undecided = allRows(n);
    for (let w = 0; w < W && undecided.length > 0; w++) {
      const d = evalGuarded(conds[w]!.kernel, 'BOOLEAN', batch, undecided, ctx.schema, conds[w]!.cols);
      const bits = boolBitsOf(d);
      const valid = validityOf(d);
      let k = 0;
      for (let j = 0; j < undecided.length; j++) {
        const i = undecided[j]!;
        const isTrue = ((bits[i >> 3]! >> (i & 7)) & 1) !== 0 && (valid === null || ((valid[i >> 3]! >> (i & 7)) & 1) !== 0);
        if (isTrue) pick[i] = w;
        else undecided[k++] = i;
      }
      undecided = undecided.subarray(0, k);
    }
    return merge(e.type, branches, pick, batch, ctx);
  };
}

/** Compiles coalesce(a, b, ...): the first non-NULL argument, later ones evaluated for the rows still NULL. */
export function compileCoalesce(e: Call, ctx: CompileContext): Kernel {
  const args = e.args.map((a) => part(a, ctx));
  return (batch) => {
    const n = batch.numRows;
    const last = args.length - 1;
    const pick = args.length < 255 ? new Uint8Array(n).fill(last) : new Uint16Array(n).fill(last);
    const sources: arrow.Data[] = [];
    let pending = allRows(n);
    for (let a = 0; a < args.length; a++) {
      if (pending.length === 0) { sources.push(nullColumn(n)); continue; }
      const d = evalGuarded(args[a]!.kernel, e.type, batch, pending, ctx.schema, args[a]!.cols);
      sources.push(d);
      const valid = validityOf(d);
      let k = 0;
      for (let j = 0; j < pending.length; j++) {
        const i = pending[j]!;
        if (valid === null || ((valid[i >> 3]! >> (i & 7)) & 1) !== 0) pick[i] = a;
        else pending[k++] = i;
      }
      pending = pending.subarray(0, k);
    }
    return gather(e.type, sources, pick, null, n);
  };
}

/**
 * Compiles nullif(a, b) as CASE WHEN a = b THEN NULL ELSE a END, comparing in
 * b's type (the binder cast b to the common type and left a in its own, which
 * is the result's).
 */
export function compileNullif(e: Call, ctx: CompileContext): Kernel {
  const [a, b] = e.args as [RexNode, RexNode];
  if (b.type === 'NULL') return ctx.compile(a);
  return ctx.compile(caseWhen([{ when: call('eq', [cast(a, b.type), b], 'BOOLEAN'), then: literal(null, e.type) }], a, e.type));
}

/** Evaluates a branch on the whole batch; only when that raises, on the rows that take it (`take(i)`). */
function branchData(p: Part, type: SqlType, batch: arrow.RecordBatch, take: (i: number) => boolean, ctx: CompileContext): arrow.Data {
  try {
    return p.kernel(batch);
  } catch (err) {
    if (!(err instanceof ExecutionError)) throw err;
    const n = batch.numRows;
    const rows = new Int32Array(n);
    let k = 0;
    for (let i = 0; i < n; i++) if (take(i)) rows[k++] = i;
    return k === 0 ? nullColumn(n) : evalOnRows(p.kernel, type, batch, rows.subarray(0, k), ctx.schema, p.cols);
  }
}

/**
 * `CASE WHEN c THEN a ELSE b END` with a 32-bit or double result (TPC-H Q14's
 * `CASE WHEN p_type LIKE 'PROMO%' THEN price ELSE 0 END`, Q12's and Q8's sums): one
 * loop picks a[i] or b[i] by c's bits, instead of branch indexes, per-branch row
 * lists and a general gather. Same semantics as the general path: the condition
 * and both branches run on the whole batch, a branch that raises is retried on
 * the rows that take it.
 */
function numericIfElse(type: SqlType, cond: Part, then: Part, otherwise: Part, ctx: CompileContext): Kernel {
  return (batch) => {
    const n = batch.numRows;
    const c = cond.kernel(batch);
    const bits = boolBitsOf(c);
    const cValid = validityOf(c);
    const isTrue = (i: number): boolean => ((bits[i >> 3]! >> (i & 7)) & 1) !== 0 && (cValid === null || ((cValid[i >> 3]! >> (i & 7)) & 1) !== 0);
    const a = branchData(then, type, batch, isTrue, ctx);
    const b = branchData(otherwise, type, batch, (i) => !isTrue(i), ctx);
    const out = newValues(type, n) as Int32Array | Float64Array;
    const av = isNullType(a) ? null : (a.values as Int32Array | Float64Array);
    const bv = isNullType(b) ? null : (b.values as Int32Array | Float64Array);
    const aValid = av === null ? null : validityOf(a);
    const bValid = bv === null ? null : validityOf(b);
    let valid: Uint8Array | null = null;
    if (av !== null && bv !== null && aValid === null && bValid === null && cValid === null) {
      // No NULL anywhere: the row's bit picks the value.
      for (let i = 0; i < n; i++) out[i] = ((bits[i >> 3]! >> (i & 7)) & 1) !== 0 ? av[i]! : bv[i]!;
    } else {
      valid = new Uint8Array((n + 7) >> 3);
      for (let i = 0; i < n; i++) {
        const t = isTrue(i);
        const v = t ? av : bv;
        const vd = t ? aValid : bValid;
        if (v === null || (vd !== null && ((vd[i >> 3]! >> (i & 7)) & 1) === 0)) continue;
        out[i] = v[i]!;
        valid[i >> 3]! |= 1 << (i & 7);
      }
    }
    return makeColumn(type, out, valid, n);
  };
}
