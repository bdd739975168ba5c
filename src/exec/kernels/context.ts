/**
 * What every kernel compiler sees: the input schema, a way to compile
 * sub-expressions, display text for error messages, and per-query constants.
 */
import type * as arrow from 'apache-arrow';
import { formatRexAsWritten } from '../../relnode/display.js';
import type { Call, RexNode } from '../../relnode/rex.js';
import type { Schema } from '../../relnode/types.js';

/** A compiled expression: evaluates over a batch and returns one Arrow Data of batch.numRows rows, of the canonical physical type of expr.type. */
export type Kernel = (batch: arrow.RecordBatch) => arrow.Data;

/** Compile-time state shared by the compilers of one expression tree. */
export interface CompileContext {
  readonly schema: Schema;
  /** Compiles a sub-expression. */
  compile(e: RexNode): Kernel;
  /** `now()` for this compilation, TIMESTAMP ms. */
  readonly now: number;
}

/** Compiles one Call whose op the compiler is registered for. */
export type CallCompiler = (call: Call, ctx: CompileContext) => Kernel;

/** The expression as SQL text for error messages: as the user wrote it where the binder kept the text. */
export function display(e: RexNode, ctx: CompileContext): string {
  return formatRexAsWritten(e, ctx.schema);
}

/**
 * " in <expression>" to follow a message that shows the failing values (`sqrt(-3)`), or nothing when
 * the expression reads the same as what the message shows (`sqrt(-1)` written with constants).
 */
export function inExpr(shown: string, e: RexNode, ctx: CompileContext): string {
  const text = display(e, ctx);
  return text === shown || text === `(${shown})` ? '' : ` in ${text}`;
}

/** The input column of a batch. */
export function column(batch: arrow.RecordBatch, index: number): arrow.Data {
  return batch.data.children[index]!;
}
