/**
 * compilePredicate: a WHERE/ON condition → a function from a batch to the
 * selection of rows where it is TRUE (null when all are). The condition is
 * split into conjuncts, evaluated successively on the shrinking selection:
 * first every numeric comparison over plain columns and literals that cannot
 * raise an error, in one fused loop that tests them per row with short-circuit
 * (ranges like TPC-H Q6's), then the others, each on the rows still selected:
 * simple row tests reordered cheap-and-selective first (conjunct-order.ts),
 * anything that may raise in its place and guarded (see selection.ts).
 */
import type * as arrow from 'apache-arrow';
import { conjuncts, rexChildren, rexInputs, type Call, type RexNode } from '../../relnode/rex.js';
import type { Schema } from '../../relnode/types.js';
import { boolBitsOf, selectBits, validityOf } from './bitmap.js';
import { compileAt, isNullConstant, located, newContext } from './compile.js';
import { compareTest } from './compare.js';
import type { CompileContext, Kernel } from './context.js';
import { orderConjuncts, simpleRank } from './conjunct-order.js';
import { compileFusedRefine } from './fused-kernels.js';
import { CMP_OPS, isFusableRoot } from './fused.js';
import { inLiteralsTest } from './in-list.js';
import { likeTest } from './like.js';
import { FALSE, TRUE, testStep, type RowTestFactory } from './row-test.js';
import { guardStep, type RefineStep } from './selection.js';

/**
 * A compiled predicate: returns null when every row is TRUE (pass-through), otherwise an Int32Array
 * of the row indexes whose value is TRUE (NULL and FALSE rows dropped; length may be 0). With
 * `scratch` (≥ batch.numRows entries) the result may be a view of it, valid until the caller reuses
 * it (the fused stages of fused-stage.ts, which consume a selection before the next batch).
 */
export type Predicate = (batch: arrow.RecordBatch, scratch?: Int32Array) => Int32Array | null;

const EMPTY = new Int32Array(0);

/** True when e is fused without any sub-kernel: only columns, literals and fused operators. */
export function isPureFused(e: RexNode): boolean {
  if (e.kind === 'InputRef') return e.type !== 'BIGINT' && e.type !== 'NULL' && (e.type === 'INTEGER' || e.type === 'DOUBLE' || e.type === 'DATE' || e.type === 'TIMESTAMP');
  if (e.kind === 'Literal') return e.value !== null && (typeof e.value === 'number' || typeof e.value === 'bigint') && e.type !== 'BIGINT';
  if (e.kind === 'Cast') return isFusableRoot(e) && isPureFused(e.arg);
  if (e.kind === 'Call') return isFusableRoot(e) && e.type !== 'BIGINT' && e.args.every(isPureFused);
  return false;
}

/** True when evaluating e may raise (integer overflow), so it must keep its place after the conjuncts before it. */
function mayFail(e: RexNode): boolean {
  if (e.kind === 'Call' && (e.type === 'INTEGER' || e.type === 'DATE') && !['floor', 'ceil', 'divide'].includes(e.op)) return true;
  return e.kind === 'Call' || e.kind === 'Cast' ? rexChildren(e).some(mayFail) : false;
}

function isComparison(e: RexNode): e is Call {
  return e.kind === 'Call' && CMP_OPS[e.op] !== undefined;
}

/**
 * Whether conjunct `c` is a numeric comparison over plain columns and literals that cannot raise:
 * the conjuncts tested together, per row with short-circuit, in one fused loop (compileFusedRefine;
 * also inside the one-pass aggregate loop, operators/agg-fused-pass.ts).
 */
export function isFusedConjunct(c: RexNode): c is Call {
  return isComparison(c) && isPureFused(c) && !mayFail(c);
}

/** A row test for conjuncts with a per-row form (string comparisons, LIKE, IN over literals, their NOT), or null. */
function rowTestFor(e: RexNode, ctx: CompileContext): RowTestFactory | null {
  if (e.kind !== 'Call') return null;
  if (isComparison(e) && !isFusableRoot(e)) return compareTest(e, ctx);
  if (e.op === 'like' || e.op === 'ilike') return likeTest(e, ctx);
  if (e.op === 'in' && e.args.slice(1).every((a) => a.kind === 'Literal')) {
    return inLiteralsTest(e.args[0]!, e.args.slice(1).map((a) => (a.kind === 'Literal' ? a.value : null)), ctx);
  }
  if (e.op === 'not') {
    const inner = rowTestFor(e.args[0]!, ctx);
    if (inner === null) return null;
    return (batch) => {
      const t = inner(batch);
      return { valid: t.valid, test: (i: number) => { const r = t.test(i); return r === TRUE ? FALSE : r === FALSE ? TRUE : r; } };
    };
  }
  return null;
}

/** The step testing conjunct `e`; its errors point at e's SQL position (compile.ts located, compileAt). */
function stepFor(e: RexNode, ctx: CompileContext): RefineStep {
  return located(e, compileAt(e, () => stepOf(e, ctx)));
}

function stepOf(e: RexNode, ctx: CompileContext): RefineStep {
  if (isComparison(e) && isFusableRoot(e)) return compileFusedRefine([e], ctx);
  const t = rowTestFor(e, ctx);
  if (t !== null) return testStep(t);
  const kernel = ctx.compile(e);
  return (batch, sel, scratch) => kernelStep(kernel, batch, sel, scratch);
}

function kernelStep(kernel: Kernel, batch: arrow.RecordBatch, sel: Int32Array | null, scratch: Int32Array | undefined): Int32Array {
  const d = kernel(batch);
  return selectBits(boolBitsOf(d), validityOf(d), sel, batch.numRows, scratch);
}

/**
 * The conjuncts among `cs` that cannot raise an error (numeric comparisons over plain columns and
 * literals, simple row tests: conjunct-order.ts simpleRank), compiled into one step that refines
 * a non-empty selection in place; undefined when there are none. Since none can raise, they may
 * run before anything else and on any subset of rows: a scan with a runtime filter narrows its
 * key filter's selection with them and copies its kept rows once (exec/runtime-filter.ts).
 */
export function compileSafeRefine(cs: readonly RexNode[], inputSchema: Schema): ((batch: arrow.RecordBatch, sel: Int32Array) => Int32Array) | undefined {
  const ctx = newContext(inputSchema);
  const fused = cs.filter(isFusedConjunct);
  const simple = orderConjuncts(cs.filter((c) => !fused.includes(c as Call) && simpleRank(c) !== undefined));
  const steps: RefineStep[] = [];
  if (fused.length > 0) steps.push(compileFusedRefine(fused, ctx));
  for (const c of simple) steps.push(stepFor(c, ctx));
  if (steps.length === 0) return undefined;
  return (batch, sel) => refineAll(steps, batch, sel);
}

function refineAll(steps: readonly RefineStep[], batch: arrow.RecordBatch, sel: Int32Array): Int32Array {
  let s = sel;
  for (let i = 0; i < steps.length; i++) {
    s = steps[i]!(batch, s);
    if (s.length === 0) return s;
  }
  return s;
}

/** Compiles a boolean condition once into a predicate over batches of `inputSchema`. */
export function compilePredicate(expr: RexNode, inputSchema: Schema): Predicate {
  const ctx = newContext(inputSchema);
  const cs = conjuncts(expr);
  if (cs.some((c) => isNullConstant(c) || (c.kind === 'Literal' && c.value === false))) return () => EMPTY;
  const fused = cs.filter(isFusedConjunct);
  const rest = orderConjuncts(cs.filter((c) => !fused.includes(c as Call)));
  const steps: RefineStep[] = [];
  if (fused.length > 0) steps.push(compileFusedRefine(fused, ctx));
  for (const c of rest) {
    const step = stepFor(c, ctx);
    // A simple conjunct cannot raise: no guard (it would copy the selection per batch).
    steps.push(steps.length === 0 || simpleRank(c) !== undefined ? step : guardStep(step, inputSchema, rexInputs(c)));
  }
  return (batch, scratch) => runSteps(steps, batch, scratch);
}

/**
 * The steps of a compiled predicate over one batch. A module function, not a closure made per query:
 * it keeps its optimized code across queries (kernels/kernel-cache.ts says why).
 */
function runSteps(steps: readonly RefineStep[], batch: arrow.RecordBatch, scratch: Int32Array | undefined): Int32Array | null {
  const n = batch.numRows;
  let sel: Int32Array | null = null;
  for (let i = 0; i < steps.length; i++) {
    sel = steps[i]!(batch, sel, scratch);
    if (sel.length === 0) return sel;
  }
  return sel === null || sel.length === n ? null : sel;
}
