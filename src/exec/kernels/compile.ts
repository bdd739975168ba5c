/**
 * compileExpr: RexNode → Kernel, once per query. Numeric operator trees become
 * one fused loop (fused.ts); every other call goes to the compiler registered
 * for its function id in CALL_COMPILERS, which covers every id in FUNCTIONS.
 */
import * as arrow from 'apache-arrow';
import { dictionaryData } from '../arrow-build.js';
import { EddyError, InternalError, locate } from '../../relnode/errors.js';
import { call as mkCall, spanOf, type Call, type LiteralValue, type RexNode } from '../../relnode/rex.js';
import { assertNever } from '../../relnode/rex.js';
import type { Schema, SqlType } from '../../relnode/types.js';
import { compileBigint } from './bigint.js';
import { compileCast } from './cast.js';
import { compileCompare } from './compare.js';
import { compileCase, compileCoalesce, compileNullif } from './conditional.js';
import { constantData } from './constant-data.js';
import { column, type CallCompiler, type CompileContext, type Kernel } from './context.js';
import { compileDatePart } from './datetime.js';
import { compileFusedCompare, compileFusedValue } from './fused-kernels.js';
import { CMP_OPS, isFusableRoot } from './fused.js';
import { compileIn } from './in-list.js';
import { compileLike } from './like.js';
import { compileAndOr, compileIsNull, compileNot } from './logic.js';
import { compilePower, compileRandom, compileRound, compileUnaryDouble } from './math.js';
import { compileStringFn } from './string-fns.js';
import { compileDateLib, DATE_LIB_IDS } from './date-lib.js';
import { compileMathLib, MATH_LIB_IDS, MATH_NON_STRICT } from './math-lib.js';
import { compileRegexLib, REGEX_LIB_IDS } from './regex-lib.js';
import { compileStringLib, STRING_LIB_IDS, STRING_NON_STRICT } from './string-lib.js';
import { compileEpochLib, EPOCH_LIB_IDS } from './epoch-lib.js';
import { compileIntLib, INT_LIB_IDS } from './int-lib.js';
import { compileStringEncode, STRING_ENCODE_IDS } from './string-encode-lib.js';
import { compilePrintf } from './printf.js';
import { compileTryCast } from './try-cast.js';
import { compileAddMonths, compileAssertSingleRow, compileTimestampAdd } from './sql-subquery.js';

/** Arithmetic: BIGINT is exact bigint code; every other numeric type is a fused loop. */
const arith: CallCompiler = (e, ctx) => (e.type === 'BIGINT' ? compileBigint(e, ctx) : compileFusedValue(e, ctx));
const comparison: CallCompiler = (e, ctx) => (isFusableRoot(e) ? compileFusedCompare(e, ctx) : compileCompare(e, ctx));

/** The compiler of every function id in FUNCTIONS (a test checks the two agree). */
export const CALL_COMPILERS: Readonly<Record<string, CallCompiler>> = {
  plus: arith, minus: arith, times: arith, divide: arith, int_divide: arith, mod: arith, neg: arith,
  abs: arith, floor: arith, ceil: arith,
  eq: comparison, ne: comparison, lt: comparison, le: comparison, gt: comparison, ge: comparison,
  and: compileAndOr, or: compileAndOr, not: compileNot, is_null: compileIsNull, is_not_null: compileIsNull,
  in: compileIn, like: compileLike, ilike: compileLike,
  upper: compileStringFn, lower: compileStringFn, trim: compileStringFn, length: compileStringFn,
  substring: compileStringFn, concat: compileStringFn, concat_op: compileStringFn,
  round: compileRound, sqrt: compileUnaryDouble, ln: compileUnaryDouble, exp: compileUnaryDouble, power: compilePower,
  year: compileDatePart, month: compileDatePart, day: compileDatePart,
  date_add: (e, ctx) => compileFusedValue(mkCall('plus', e.args, 'DATE'), ctx),
  add_months: compileAddMonths, timestamp_add: compileTimestampAdd, assert_single_row: compileAssertSingleRow,
  coalesce: compileCoalesce, nullif: compileNullif,
  random: () => compileRandom(),
  now: (_e, ctx) => constantKernel(ctx.now, 'TIMESTAMP'),
  try_cast: compileTryCast,
  printf: compilePrintf,
  ...libraryCompilers(STRING_LIB_IDS, compileStringLib),
  ...libraryCompilers(MATH_LIB_IDS, compileMathLib),
  ...libraryCompilers(DATE_LIB_IDS, compileDateLib),
  ...libraryCompilers(REGEX_LIB_IDS, compileRegexLib),
  ...libraryCompilers(EPOCH_LIB_IDS, compileEpochLib),
  ...libraryCompilers(INT_LIB_IDS, compileIntLib),
  ...libraryCompilers(STRING_ENCODE_IDS, compileStringEncode),
};

function libraryCompilers(ids: readonly string[], c: CallCompiler): Record<string, CallCompiler> {
  return Object.fromEntries(ids.map((id) => [id, c]));
}

/** Functions that are not NULL whenever an argument is NULL. */
const NON_STRICT: ReadonlySet<string> = new Set(['and', 'or', 'is_null', 'is_not_null', 'in', 'concat', 'coalesce', 'nullif', ...MATH_NON_STRICT, ...STRING_NON_STRICT]);

/** True for an expression that is NULL on every row: a NULL literal, a NULL-typed node, or a cast of one. */
export function isNullConstant(e: RexNode): boolean {
  if (e.type === 'NULL') return true;
  if (e.kind === 'Literal') return e.value === null;
  if (e.kind === 'Cast') return isNullConstant(e.arg);
  return false;
}

/**
 * A kernel returning a constant column (built once per batch length). A non-NULL VARCHAR constant is a
 * one-entry dictionary column (zeroed codes over one dictionary object for all the kernel's batches),
 * not the string copied per row: what reads it then works on one code (UNPIVOT's name column, grouped
 * as codes: bench/pivot.ts).
 */
export function constantKernel(value: LiteralValue, type: SqlType): Kernel {
  let last: arrow.Data | null = null;
  if (type === 'VARCHAR' && value !== null) {
    const dictionary = arrow.makeVector(constantData(value, 'VARCHAR', 1));
    const dictType = new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32());
    return (batch) => {
      const n = batch.numRows;
      if (last === null || last.length !== n) last = dictionaryData(dictType, n, 0, null, new Int32Array(n), dictionary);
      return last;
    };
  }
  return (batch) => {
    const n = batch.numRows;
    if (last === null || last.length !== n) last = constantData(value, type, n);
    return last;
  };
}

function compileCall(e: Call, ctx: CompileContext): Kernel {
  const strictNull = NON_STRICT.has(e.op) ? e.op === 'in' && isNullConstant(e.args[0]!) : e.args.some(isNullConstant);
  if (strictNull) return constantKernel(null, e.type);
  if (e.op === 'is_null' || e.op === 'is_not_null') {
    if (isNullConstant(e.args[0]!)) return constantKernel(e.op === 'is_null', 'BOOLEAN');
  }
  if (CMP_OPS[e.op] === undefined && isFusableRoot(e) && e.type !== 'BIGINT') return compileFusedValue(e, ctx);
  const c = CALL_COMPILERS[e.op];
  if (c === undefined) throw new InternalError(`no kernel for function "${e.op}"`);
  return c(e, ctx);
}

function compileNode(e: RexNode, ctx: CompileContext): Kernel {
  switch (e.kind) {
    case 'InputRef': {
      const index = e.index;
      if (index < 0 || index >= ctx.schema.fields.length) throw new InternalError(`input ordinal $${index} outside a schema of ${ctx.schema.fields.length} columns`);
      return (batch) => column(batch, index);
    }
    case 'Literal': return constantKernel(e.value, e.type);
    case 'Cast': return isFusableRoot(e) ? compileFusedValue(e, ctx) : compileCast(e, ctx);
    case 'Case': return compileCase(e, ctx);
    case 'Call': return compileCall(e, ctx);
    case 'OuterRef': case 'Subquery': throw new InternalError(`a ${e.kind} reached expression compilation; the planner decorrelates subqueries first`);
    case 'AggRef': throw new InternalError('an aggregate marker reached expression compilation; the binder replaces every one');
    default: return assertNever(e, 'RexNode');
  }
}

/** A compile context for one expression tree over `schema`. */
export function newContext(schema: Schema): CompileContext {
  const ctx: CompileContext = { schema, now: Date.now(), compile: (e) => located(e, compileAt(e, () => compileNode(e, ctx))) };
  return ctx;
}

/**
 * `compile()`, with an error the compiler raises about `e` (a LIKE escape of two characters, a
 * regular expression that does not parse) placed at e's SQL position at once: compilation runs
 * while the query is planned, outside the runtime that renders `at` for errors raised as rows are
 * evaluated (exec/runtime/run-options.ts). The error keeps its class.
 */
export function compileAt<T>(e: RexNode, compile: () => T): T {
  try {
    return compile();
  } catch (err) {
    const at = spanOf(e);
    if (at !== undefined && err instanceof EddyError && !(err instanceof InternalError) && err.at === undefined) {
      err.at = at;
      locate(err, at);
    }
    throw err;
  }
}

/**
 * `f`, so that an eddy error raised while it evaluates `e` (or a sub-expression without a span of
 * its own: the innermost span wins) carries where `e` was written in SQL (relnode/source-span.ts).
 * Only nodes with a span are wrapped: one try per batch, nothing per row. Kernels and predicate
 * steps (predicate.ts) use it.
 */
export function located<F extends (...args: never[]) => unknown>(e: RexNode, f: F): F {
  const at = spanOf(e);
  if (at === undefined) return f;
  return ((...args: Parameters<F>) => {
    try {
      return f(...args);
    } catch (err) {
      if (err instanceof EddyError && err.at === undefined) err.at = at;
      throw err;
    }
  }) as F;
}

/**
 * As compileExpr, for a caller that is done with each result before the next call (a fused
 * aggregate adding it to its sums): a fused numeric root then reuses its output buffer batch
 * after batch (fused-kernels.ts compileFusedValue `reuse`); other roots are compiled as usual.
 */
export function compileTransientExpr(expr: RexNode, inputSchema: Schema): Kernel {
  const ctx = newContext(inputSchema);
  const fusedRoot = expr.kind === 'Cast'
    ? isFusableRoot(expr)
    : expr.kind === 'Call' && CMP_OPS[expr.op] === undefined && isFusableRoot(expr) && expr.type !== 'BIGINT' && !NON_STRICT.has(expr.op) && !expr.args.some(isNullConstant);
  return fusedRoot ? located(expr, compileFusedValue(expr, ctx, true)) : ctx.compile(expr);
}

/** Compiles an expression once into a kernel over batches of `inputSchema`. */
export function compileExpr(expr: RexNode, inputSchema: Schema): Kernel {
  return newContext(inputSchema).compile(expr);
}
