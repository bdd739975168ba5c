/**
 * Constant folding support: evaluates an expression that reads no column by
 * compiling it and running it on a one-row batch without columns.
 */
import * as arrow from 'apache-arrow';
import { InternalError } from '../../relnode/errors.js';
import { rexInputs, type LiteralValue, type RexNode } from '../../relnode/rex.js';
import { schemaOf } from '../../relnode/types.js';
import { compileExpr } from './compile.js';
import { readValue } from './value-at.js';

const ONE_ROW = new arrow.RecordBatch(new arrow.Schema([]), arrow.makeData({ type: new arrow.Struct([]), length: 1, children: [] }));
const NO_COLUMNS = schemaOf([]);

/** Evaluates an expression without column references (constant folding); throws on InputRef. Returns a LiteralValue in eddy's literal convention (number for INTEGER/DOUBLE/DATE days/TIMESTAMP ms, bigint for BIGINT, string, boolean, null). */
export function evaluateConstant(expr: RexNode): LiteralValue {
  const refs = rexInputs(expr);
  if (refs.size > 0) throw new InternalError(`evaluateConstant: the expression reads column(s) ${[...refs].map((i) => `$${i}`).join(', ')}`);
  return readValue(compileExpr(expr, NO_COLUMNS)(ONE_ROW), 0);
}
