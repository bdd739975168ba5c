/**
 * Fused loops for numeric expression trees (INTEGER, DOUBLE, DATE, TIMESTAMP as
 * doubles): `l_extendedprice * (1 - l_discount)` or `d >= k0 && d < k1` become one
 * generated `for` loop over the typed arrays instead of one pass per operator.
 *
 * Code generation safety: the generated source is assembled only from fixed
 * operator templates in this file and numeric indexes (`c0[i]` for the first leaf
 * column, `k0` for the first literal). Literal values, column names and any other
 * user text are passed as arguments (the C and K arrays), never spliced in.
 *
 * NULLs: every op here is NULL-propagating, so a row is NULL when any leaf is
 * NULL (the AND of leaf validities, computed once per batch) or when a divisor
 * is 0 (`isnull`, recorded per row). Integer results are range-checked; an
 * out-of-range value calls `fail`, which throws unless the row is NULL.
 */
import type * as arrow from 'apache-arrow';
import { canonicalRex } from '../../relnode/digest.js';
import { ExecutionError } from '../../relnode/errors.js';
import { spanOf, type Call, type Cast, type RexNode } from '../../relnode/rex.js';
import type { SqlType } from '../../relnode/types.js';
import { andValidity, bitAt, validityOf } from './bitmap.js';
import { dateToTimestampError, MAX_TIMESTAMP_DAYS } from './cast.js';
import { numbersOf, type NumArray } from './column.js';
import { column, display, inExpr, type CompileContext, type Kernel } from './context.js';
import { doubleCompareSource, type CompareOp } from './float-order.js';
import { GENERATED_LOOPS, type GeneratedLoop } from './kernel-cache.js';

const NUMERIC_LIKE: ReadonlySet<SqlType> = new Set(['INTEGER', 'DOUBLE', 'DATE', 'TIMESTAMP']);
/** Comparison ops and their JS operators (fixed text). */
export const CMP_OPS: Readonly<Record<string, string>> = { eq: '===', ne: '!==', lt: '<', le: '<=', gt: '>', ge: '>=' };
const ARITH_OPS: ReadonlySet<string> = new Set(['plus', 'minus', 'times', 'divide', 'int_divide', 'mod', 'neg', 'abs', 'floor', 'ceil', 'date_add']);
const INT32_RESULT: ReadonlySet<SqlType> = new Set(['INTEGER', 'DATE']);

/** True when e's own operator is fused (its leaves may still be other kernels). */
export function isFusableRoot(e: RexNode): boolean {
  if (e.kind === 'Cast') return fusableCast(e.arg.type, e.type);
  if (e.kind !== 'Call') return false;
  if (CMP_OPS[e.op] !== undefined) return e.args.every((a) => NUMERIC_LIKE.has(a.type));
  return ARITH_OPS.has(e.op) && NUMERIC_LIKE.has(e.type) && e.args.every((a) => NUMERIC_LIKE.has(a.type) || a.type === 'NULL');
}

function fusableCast(from: SqlType, to: SqlType): boolean {
  return (from === 'INTEGER' && to === 'DOUBLE') || (from === 'DATE' && to === 'TIMESTAMP') || (from === 'TIMESTAMP' && to === 'DATE');
}

/** False when e is known never to be NaN (not a DOUBLE, a non-NaN literal, a widened integer). */
function mayBeNaN(e: RexNode): boolean {
  if (e.type !== 'DOUBLE') return false;
  if (e.kind === 'Literal') return typeof e.value === 'number' && Number.isNaN(e.value);
  if (e.kind === 'Cast') return e.arg.type === 'DOUBLE' || e.arg.type === 'VARCHAR';
  return true;
}

interface Leaf { readonly index: number; readonly kernel: Kernel | null; readonly type: SqlType }

/** A failing (overflowing) operator: its node and how to show the operands. */
interface Check { readonly node: RexNode; readonly sym: string }

/** Accumulates leaves, literals and statements for one generated loop. */
export class FusedBuilder {
  readonly leaves: Leaf[] = [];
  readonly lits: number[] = [];
  /** Per literal: an INTEGER/DATE value, hoisted as an int32 so comparisons with Int32Array leaves stay integer compares. */
  readonly litInt: boolean[] = [];
  readonly checks: Check[] = [];
  nullOps = false;
  private temps = 0;
  private readonly refLeaf = new Map<number, number>();
  /**
   * The temp holding each operator subtree already emitted (by type and canonical text): a repeated
   * subtree (TPC-H Q1's `l_extendedprice * (1 - l_discount)` in two sums of one loop) is computed
   * once per row. Every caller emits into one flat per-row block, so an earlier temp is in scope;
   * the ops are deterministic IEEE operations, so the reused value is the one recomputing would give.
   */
  private readonly memo = new Map<string, string>();

  constructor(private readonly ctx: CompileContext) {}

  /** Emits statements computing e into `out`; returns the JS operand text for its value. */
  emit(e: RexNode, out: string[]): string {
    if (e.kind === 'InputRef' && NUMERIC_LIKE.has(e.type)) {
      let j = this.refLeaf.get(e.index);
      if (j === undefined) { j = this.leaves.length; this.leaves.push({ index: e.index, kernel: null, type: e.type }); this.refLeaf.set(e.index, j); }
      return `c${j}[i]`;
    }
    if (e.kind === 'Literal' && e.value !== null && (typeof e.value === 'number' || typeof e.value === 'bigint') && NUMERIC_LIKE.has(e.type)) {
      const v = Number(e.value);
      this.lits.push(v);
      this.litInt.push((e.type === 'INTEGER' || e.type === 'DATE') && (v | 0) === v);
      return `k${this.lits.length - 1}`;
    }
    if (e.kind === 'Cast' && fusableCast(e.arg.type, e.type)) {
      const x = this.emit(e.arg, out);
      if (e.type === 'DOUBLE') return x;
      if (e.type === 'TIMESTAMP') {
        // A DATE past the TIMESTAMP range is an error (cast.ts), not a value Arrow cannot read.
        this.checks.push({ node: e, sym: 'timestamp' });
        out.push(`if (${x} > ${MAX_TIMESTAMP_DAYS} || ${x} < -${MAX_TIMESTAMP_DAYS}) fail(${this.checks.length - 1}, i, isnull, ${x}, 0);`);
        return this.temp(out, `${x} * 86400000`);
      }
      return this.temp(out, `Math.floor(${x} / 86400000)`);
    }
    if (e.kind === 'Call' && ARITH_OPS.has(e.op) && isFusableRoot(e)) {
      const key = `${e.type}:${canonicalRex(e)}`;
      let t = this.memo.get(key);
      if (t === undefined) { t = this.emitArith(e, out); this.memo.set(key, t); }
      return t;
    }
    // Anything else of a number type is computed by its own kernel and read as a leaf column.
    const j = this.leaves.length;
    this.leaves.push({ index: -1, kernel: this.ctx.compile(e), type: e.type });
    return `c${j}[i]`;
  }

  /** Emits a comparison under the total order of doubles (float-order.ts); returns the boolean JS expression. */
  emitCompare(e: Call, out: string[]): string {
    const [a, b] = e.args as [RexNode, RexNode];
    const x = this.emit(a, out);
    const y = this.emit(b, out);
    return doubleCompareSource(e.op as CompareOp, x, y, mayBeNaN(a), mayBeNaN(b));
  }

  /**
   * The JS test `lo <= x < hi` for an INTEGER/DATE leaf `x` as one unsigned comparison (fused-ranges.ts; lo and hi
   * within [−2^31, 2^31], hi ≥ lo): `(x − lo) >>> 0 < hi − lo`.
   */
  emitRange(x: RexNode, lo: number, hi: number, out: string[]): string {
    const v = this.emit(x, out);
    this.lits.push(lo);
    this.litInt.push(true);
    const klo = `k${this.lits.length - 1}`;
    // The width may be 2^32 − 1 or more: a double, not hoisted as an int32.
    this.lits.push(hi - lo);
    this.litInt.push(false);
    return `((${v} - ${klo}) >>> 0) < k${this.lits.length - 1}`;
  }

  private temp(out: string[], expr: string): string {
    const t = `t${this.temps++}`;
    out.push(`const ${t} = ${expr};`);
    return t;
  }

  private check(out: string[], node: RexNode, sym: string, t: string, x: string, y: string): void {
    this.checks.push({ node, sym });
    out.push(`if (${t} > 2147483647 || ${t} < -2147483648) fail(${this.checks.length - 1}, i, isnull, ${x}, ${y});`);
  }

  private zeroDivisor(out: string[], y: string): void {
    this.nullOps = true;
    out.push(`if (${y} === 0) isnull = 1;`);
  }

  private emitArith(e: Call, out: string[]): string {
    const x = this.emit(e.args[0]!, out);
    const y = e.args.length > 1 ? this.emit(e.args[1]!, out) : '0';
    const intResult = INT32_RESULT.has(e.type);
    let t: string;
    switch (e.op) {
      case 'plus': case 'date_add': t = this.temp(out, `${x} + ${y}`); if (intResult) this.check(out, e, '+', t, x, y); return t;
      case 'minus': t = this.temp(out, `${x} - ${y}`); if (intResult) this.check(out, e, '-', t, x, y); return t;
      case 'times': t = this.temp(out, `${x} * ${y}`); if (intResult) this.check(out, e, '*', t, x, y); return t;
      case 'neg': t = this.temp(out, `-${x}`); if (intResult) this.check(out, e, 'neg', t, x, y); return t;
      case 'abs': t = this.temp(out, `Math.abs(${x})`); if (intResult) this.check(out, e, 'abs', t, x, y); return t;
      case 'floor': return intResult ? x : this.temp(out, `Math.floor(${x})`);
      case 'ceil': return intResult ? x : this.temp(out, `Math.ceil(${x})`);
      case 'divide': this.zeroDivisor(out, y); return this.temp(out, `${x} / ${y}`);
      case 'int_divide':
        this.zeroDivisor(out, y);
        // DuckDB: `//` truncates for integers; for DOUBLE it is plain division.
        if (!intResult) return this.temp(out, `${x} / ${y}`);
        t = this.temp(out, `Math.trunc(${x} / ${y})`);
        this.check(out, e, '//', t, x, y);
        return t;
      case 'mod':
        this.zeroDivisor(out, y);
        t = this.temp(out, `${x} % ${y}`);
        // INT_MIN % -1 overflows in DuckDB (the quotient does not fit).
        if (intResult) { this.checks.push({ node: e, sym: '%' }); out.push(`if (${y} === -1 && ${x} === -2147483648) fail(${this.checks.length - 1}, i, isnull, ${x}, ${y});`); }
        return t;
      default: throw new Error(`unreachable fused op ${e.op}`);
    }
  }

  /** Evaluates the leaves over a batch: their number arrays and the AND of their validities. */
  prepare(batch: arrow.RecordBatch): { arrays: NumArray[]; valid: Uint8Array | null } {
    const n = batch.numRows;
    const arrays: NumArray[] = new Array(this.leaves.length);
    let valid: Uint8Array | null = null;
    for (let j = 0; j < this.leaves.length; j++) {
      const l = this.leaves[j]!;
      const d = l.kernel === null ? column(batch, l.index) : l.kernel(batch);
      arrays[j] = numbersOf(d, n);
      valid = andValidity(valid, validityOf(d), n);
    }
    return { arrays, valid };
  }

  /** The function that throws for an out-of-range integer in a non-NULL row. */
  failer(state: { valid: Uint8Array | null }): FailFn {
    return (id, i, isnull, x, y) => {
      if (isnull !== 0 || (state.valid !== null && bitAt(state.valid, i) === 0)) return;
      const c = this.checks[id]!;
      if (c.sym === 'timestamp') throw placed(dateToTimestampError(x, c.node as Cast, this.ctx), c.node);
      const shown = c.sym === 'neg' ? `-(${x})` : c.sym === 'abs' ? `abs(${x})` : `${x} ${c.sym} ${y}`;
      throw placed(new ExecutionError(`integer overflow: ${shown} is out of range for ${c.node.type}${inExpr(shown, c.node, this.ctx)}`), c.node);
    };
  }
}

/** `err` at the SQL position of `node`: a loop computes a whole tree, the node that failed knows its own (source-span.ts). */
function placed(err: ExecutionError, node: RexNode): ExecutionError {
  err.at = spanOf(node);
  return err;
}

/** Called by generated code on an out-of-range integer. */
export type FailFn = (id: number, i: number, isnull: number, x: number, y: number) => void;

/**
 * Compiles generated source once per distinct text, kept in the isolate's bounded cache of loops
 * (kernel-cache.ts: a loop compiled once stays optimized across queries, and a long-running REPL
 * does not grow without limit). The text never contains user input (see the file comment).
 */
export function generate<F>(params: string, body: string): F {
  const key = `${params}|${body}`;
  let f = GENERATED_LOOPS.get(key);
  if (f === undefined) {
    f = new Function(...params.split(','), `'use strict';\n${body}`) as GeneratedLoop;
    GENERATED_LOOPS.set(key, f);
  }
  return f as F;
}

/**
 * `const c0 = C[0]; const k0 = K[0]; ...` hoisted out of the loop, after a comment naming
 * the leaf array kinds (part of the cache key, so each generated loop stays monomorphic).
 */
export function prologue(b: FusedBuilder): string {
  const kinds = b.leaves.map((l) => (l.type === 'INTEGER' || l.type === 'DATE' ? 'I32' : 'F64'));
  let s = `/* ${kinds.join(',')} */\n`;
  for (let j = 0; j < b.leaves.length; j++) s += `const c${j} = C[${j}];\n`;
  for (let j = 0; j < b.lits.length; j++) s += b.litInt[j] ? `const k${j} = K[${j}] | 0;\n` : `const k${j} = K[${j}];\n`;
  return s;
}
