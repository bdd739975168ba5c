/**
 * Kernels built from FusedBuilder loops: numeric values, comparison bits, and
 * predicate steps that test several comparisons per row with short-circuit
 * (`c0[i] >= k0 && c0[i] < k1 && ...`, TPC-H Q6's shape) in one pass.
 */
import type * as arrow from 'apache-arrow';
import type { Call, RexNode } from '../../relnode/rex.js';
import type { SqlType } from '../../relnode/types.js';
import { byteLength, maskNulls } from './bitmap.js';
import { makeColumn, newValues, type NumArray } from './column.js';
import type { CompileContext, Kernel } from './context.js';
import { FusedBuilder, generate, prologue, type FailFn } from './fused.js';
import { pairs } from './int64.js';
import { intRanges } from './fused-ranges.js';
import { KeepHint } from './keep-hint.js';
import type { RefineStep } from './selection.js';

type LoopFn = (C: NumArray[], K: number[], n: number, out: Int32Array | Float64Array | Uint8Array, nul: Uint8Array | null, fail: FailFn) => void;
type RefineFn = (C: NumArray[], K: number[], n: number, sel: Int32Array | null, out: Int32Array, V: Uint8Array | null, fail: FailFn) => number;

function rowBody(stmts: readonly string[], nullOps: boolean): string {
  return `${nullOps ? 'let isnull = 0;' : 'const isnull = 0;'}\n${stmts.join('\n')}\n`;
}

/**
 * A kernel computing a numeric (INTEGER, DOUBLE, DATE, TIMESTAMP) expression in one loop. With
 * `reuse`, each call writes its values into the previous call's buffer when it is large enough
 * (the loop writes every row): for a caller that is done with a result before its next call
 * (compile.ts compileTransientExpr), so no batch allocates and zeroes a fresh array.
 */
export function compileFusedValue(e: RexNode, ctx: CompileContext, reuse = false): Kernel {
  const b = new FusedBuilder(ctx);
  const stmts: string[] = [];
  const res = b.emit(e, stmts);
  const ts = e.type === 'TIMESTAMP';
  // TIMESTAMP results are written as (lo, hi) Int32 pairs of the BigInt64Array.
  const store = ts
    ? `{ const v = ${res}; const h = Math.floor(v / 4294967296); out[2 * i] = v - h * 4294967296; out[2 * i + 1] = h; }`
    : `out[i] = ${res};`;
  const body = `${prologue(b)}for (let i = 0; i < n; i++) {\n${rowBody(stmts, b.nullOps)}${store}\n${b.nullOps ? 'if (isnull !== 0) nul[i] = 1;\n' : ''}}`;
  const k = new FusedLoopKernel(b, generate<LoopFn>('C,K,n,out,nul,fail', body), e.type, reuse);
  return (batch) => fusedValue(k, batch);
}

/**
 * One fused value or comparison kernel: the same shape for every expression, so the module functions
 * below (fusedValue, fusedCompare) are compiled once per isolate and keep their optimized code across
 * queries; the closure a query holds only forwards to them (kernel-cache.ts says why).
 */
class FusedLoopKernel {
  readonly state = { valid: null as Uint8Array | null };
  readonly fail: FailFn;
  readonly K: number[];
  /** With `reuse`: the previous call's values, written over by the next call when large enough. */
  buffer: Int32Array | Float64Array | BigInt64Array | null = null;

  constructor(readonly b: FusedBuilder, readonly loop: LoopFn, readonly type: SqlType, readonly reuse: boolean) {
    this.fail = b.failer(this.state);
    this.K = b.lits;
  }
}

function fusedValue(k: FusedLoopKernel, batch: arrow.RecordBatch): arrow.Data {
  const n = batch.numRows;
  const b = k.b;
  const { arrays, valid } = b.prepare(batch);
  k.state.valid = valid;
  let values: Int32Array | Float64Array | BigInt64Array;
  if (!k.reuse) values = newValues(k.type, n);
  else {
    let buffer = k.buffer;
    if (buffer === null || buffer.length < n) buffer = k.buffer = newValues(k.type, n);
    values = buffer.length === n ? buffer : buffer.subarray(0, n);
  }
  const nul = b.nullOps ? new Uint8Array(n) : null;
  k.loop(arrays, k.K, n, values instanceof BigInt64Array ? pairs(values, n) : values, nul, k.fail);
  return makeColumn(k.type, values, nul === null ? valid : maskNulls(valid, nul, n), n);
}

function fusedCompare(k: FusedLoopKernel, batch: arrow.RecordBatch): arrow.Data {
  const n = batch.numRows;
  const b = k.b;
  const { arrays, valid } = b.prepare(batch);
  k.state.valid = valid;
  const bits = new Uint8Array(byteLength(n));
  const nul = b.nullOps ? new Uint8Array(n) : null;
  k.loop(arrays, k.K, n, bits, nul, k.fail);
  return makeColumn('BOOLEAN', bits, nul === null ? valid : maskNulls(valid, nul, n), n);
}

/** A kernel computing a numeric comparison as Bool bits in one loop. */
export function compileFusedCompare(e: Call, ctx: CompileContext): Kernel {
  const b = new FusedBuilder(ctx);
  const stmts: string[] = [];
  const cond = b.emitCompare(e, stmts);
  const body = `${prologue(b)}for (let i = 0, w = 0; i < n; w++) {
let byte = 0;
const lim = i + 8 < n ? i + 8 : n;
for (let j = 0; i < lim; i++, j++) {
${rowBody(stmts, b.nullOps)}if (${cond}) byte |= 1 << j;
${b.nullOps ? 'if (isnull !== 0) nul[i] = 1;\n' : ''}}
out[w] = byte;
}`;
  const k = new FusedLoopKernel(b, generate<LoopFn>('C,K,n,out,nul,fail', body), 'BOOLEAN', false);
  return (batch) => fusedCompare(k, batch);
}

/**
 * One predicate step for a conjunction of numeric comparisons: a row survives when
 * every leaf is non-NULL and every comparison is TRUE, tested per row with short-circuit:
 * ranges first (fused-ranges.ts), then the other comparisons left to right.
 */
export function compileFusedRefine(conds: readonly Call[], ctx: CompileContext): RefineStep {
  const b = new FusedBuilder(ctx);
  const parts: FlatParts = { conds: [], pure: true };
  const blocks = fusedConjunctBlocks(b, conds, parts);
  const k = new FusedRefine(b, blocks, parts.pure && !b.nullOps ? parts.conds.map((c) => `+(${c})`).join(' & ') : undefined);
  return (batch, sel, scratch) => fusedRefine(k, batch, sel, scratch);
}

/** A conjunction's conditions as expressions, and whether each needed no statements before it (then all can run on every row). */
interface FlatParts { readonly conds: string[]; pure: boolean }

/**
 * The per-row statements of a conjunction in a fused loop: `continue` past a row that fails a comparison (or
 * whose operands made a NULL). Columns bounded from both sides by literals are tested first, each as one
 * comparison (fused-ranges.ts); the other comparisons follow left to right.
 */
export function fusedConjunctBlocks(b: FusedBuilder, conds: readonly Call[], flat?: FlatParts): string {
  let blocks = '';
  const { ranges, rest } = intRanges(conds);
  for (const r of ranges) {
    const stmts: string[] = [];
    const cond = b.emitRange(r.ref, r.lo, r.hi, stmts);
    blocks += `${stmts.join('\n')}\nif (!(${cond})) continue;\n`;
    if (flat !== undefined) { flat.conds.push(cond); if (stmts.length > 0) flat.pure = false; }
  }
  for (const c of rest) {
    const stmts: string[] = [];
    const cond = b.emitCompare(c, stmts);
    blocks += `${stmts.join('\n')}\nif (${b.nullOps ? 'isnull !== 0 || ' : ''}!(${cond})) continue;\n`;
    if (flat !== undefined) { flat.conds.push(cond); if (stmts.length > 0) flat.pure = false; }
  }
  return blocks;
}

/**
 * One fused predicate step (one shape for every conjunction; see FusedLoopKernel). A conjunction of
 * comparisons that need no statements and cannot be NULL also gets a branch-free loop (every
 * comparison of every row evaluated, `k += +(c0) & +(c1)`), taken when the previous batch kept a share
 * of rows a branch mispredicts on (keep-hint.ts).
 */
class FusedRefine {
  readonly state = { valid: null as Uint8Array | null };
  readonly fail: FailFn;
  readonly K: number[];
  /** The loop per (selection?, validity?, branch-free?), generated on first use. */
  readonly fns: (RefineFn | undefined)[] = [undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined];
  readonly hint = new KeepHint();

  /** @param flat the row's outcome as one 0/1 expression, when the branch-free loop applies */
  constructor(readonly b: FusedBuilder, readonly blocks: string, readonly flat: string | undefined) {
    this.fail = b.failer(this.state);
    this.K = b.lits;
  }

  variant(withSel: boolean, withValid: boolean, flat: boolean): RefineFn {
    const b = this.b;
    const head = withSel ? 'const m = sel.length;\nfor (let j = 0; j < m; j++) {\nconst i = sel[j];\n' : 'for (let i = 0; i < n; i++) {\n';
    const validTest = withValid ? 'if (((V[i >> 3] >> (i & 7)) & 1) === 0) continue;\n' : '';
    // Writing out[k] before the test is safe in place (out === sel): k ≤ j, so no unread entry is overwritten.
    const rest = flat ? `out[k] = i;\nk += ${this.flat!};\n` : `${b.nullOps ? 'let isnull = 0;' : 'const isnull = 0;'}\n${this.blocks}out[k++] = i;\n`;
    const body = `${prologue(b)}let k = 0;\n${head}${validTest}${rest}}\nreturn k;`;
    return generate<RefineFn>('C,K,n,sel,out,V,fail', body);
  }
}

function fusedRefine(k: FusedRefine, batch: arrow.RecordBatch, sel: Int32Array | null, scratch: Int32Array | undefined): Int32Array {
  const n = batch.numRows;
  const { arrays, valid } = k.b.prepare(batch);
  k.state.valid = valid;
  const flat = k.hint.flat && k.flat !== undefined;
  const which = (sel === null ? 0 : 1) + (valid === null ? 0 : 2) + (flat ? 4 : 0);
  const fn = k.fns[which] ?? (k.fns[which] = k.variant(sel !== null, valid !== null, flat));
  const out = sel ?? (scratch !== undefined && scratch.length >= n ? scratch : new Int32Array(n));
  const tested = sel === null ? n : sel.length;
  const m = fn(arrays, k.K, n, sel, out, valid, k.fail);
  k.hint.note(m, tested);
  return out.subarray(0, m);
}
