/**
 * Kernels built from FusedBuilder loops: numeric values, comparison bits, and
 * predicate steps that test several comparisons per row with short-circuit
 * (`c0[i] >= k0 && c0[i] < k1 && ...`, TPC-H Q6's shape) in one pass.
 */
import type * as arrow from 'apache-arrow';
import type { Call, RexNode } from '../../relnode/rex.js';
import { byteLength, maskNulls } from './bitmap.js';
import { makeColumn, newValues, type NumArray } from './column.js';
import type { CompileContext, Kernel } from './context.js';
import { FusedBuilder, generate, prologue, type FailFn } from './fused.js';
import { pairs } from './int64.js';
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
  const loop = generate<LoopFn>('C,K,n,out,nul,fail', body);
  const state = { valid: null as Uint8Array | null };
  const fail = b.failer(state);
  const K = b.lits;
  let buffer: Int32Array | Float64Array | BigInt64Array | null = null;
  return (batch: arrow.RecordBatch): arrow.Data => {
    const n = batch.numRows;
    const { arrays, valid } = b.prepare(batch);
    state.valid = valid;
    let values: Int32Array | Float64Array | BigInt64Array;
    if (!reuse) values = newValues(e.type, n);
    else {
      if (buffer === null || buffer.length < n) buffer = newValues(e.type, n);
      values = buffer.length === n ? buffer : buffer.subarray(0, n);
    }
    const nul = b.nullOps ? new Uint8Array(n) : null;
    loop(arrays, K, n, values instanceof BigInt64Array ? pairs(values, n) : values, nul, fail);
    return makeColumn(e.type, values, nul === null ? valid : maskNulls(valid, nul, n), n);
  };
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
  const loop = generate<LoopFn>('C,K,n,out,nul,fail', body);
  const state = { valid: null as Uint8Array | null };
  const fail = b.failer(state);
  const K = b.lits;
  return (batch: arrow.RecordBatch): arrow.Data => {
    const n = batch.numRows;
    const { arrays, valid } = b.prepare(batch);
    state.valid = valid;
    const bits = new Uint8Array(byteLength(n));
    const nul = b.nullOps ? new Uint8Array(n) : null;
    loop(arrays, K, n, bits, nul, fail);
    return makeColumn('BOOLEAN', bits, nul === null ? valid : maskNulls(valid, nul, n), n);
  };
}

/**
 * One predicate step for a conjunction of numeric comparisons: a row survives when
 * every leaf is non-NULL and every comparison is TRUE, tested left to right per row.
 */
export function compileFusedRefine(conds: readonly Call[], ctx: CompileContext): RefineStep {
  const b = new FusedBuilder(ctx);
  let blocks = '';
  for (const c of conds) {
    const stmts: string[] = [];
    const cond = b.emitCompare(c, stmts);
    blocks += `${stmts.join('\n')}\nif (${b.nullOps ? 'isnull !== 0 || ' : ''}!(${cond})) continue;\n`;
  }
  const variant = (withSel: boolean, withValid: boolean): RefineFn => {
    const head = withSel ? 'const m = sel.length;\nfor (let j = 0; j < m; j++) {\nconst i = sel[j];\n' : 'for (let i = 0; i < n; i++) {\n';
    const validTest = withValid ? 'if (((V[i >> 3] >> (i & 7)) & 1) === 0) continue;\n' : '';
    const body = `${prologue(b)}let k = 0;\n${head}${validTest}${b.nullOps ? 'let isnull = 0;' : 'const isnull = 0;'}\n${blocks}out[k++] = i;\n}\nreturn k;`;
    return generate<RefineFn>('C,K,n,sel,out,V,fail', body);
  };
  const fns: (RefineFn | undefined)[] = [undefined, undefined, undefined, undefined];
  const state = { valid: null as Uint8Array | null };
  const fail = b.failer(state);
  const K = b.lits;
  return (batch, sel, scratch) => {
    const n = batch.numRows;
    const { arrays, valid } = b.prepare(batch);
    state.valid = valid;
    const which = (sel === null ? 0 : 1) + (valid === null ? 0 : 2);
    const fn = fns[which] ?? (fns[which] = variant(sel !== null, valid !== null));
    const out = sel ?? (scratch !== undefined && scratch.length >= n ? scratch : new Int32Array(n));
    const k = fn(arrays, K, n, sel, out, valid, fail);
    return out.subarray(0, k);
  };
}
