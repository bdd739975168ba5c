/**
 * CASE, coalesce and nullif. The first WHEN that is TRUE (not NULL) wins. Each
 * condition and branch is evaluated on the whole batch (retried on just the
 * rows it decides when that throws, see selection.ts), then rows are merged by
 * a per-row branch index.
 */
import { caseWhen, call, cast, literal, rexInputs, type Call, type Case, type RexNode } from '../../relnode/rex.js';
import type { SqlType } from '../../relnode/types.js';
import { boolBitsOf, validityOf } from './bitmap.js';
import { nullColumn } from './column.js';
import type { CompileContext, Kernel } from './context.js';
import { gather } from './gather.js';
import { allRows, evalGuarded } from './selection.js';
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
