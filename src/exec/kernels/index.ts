/**
 * Expression kernels: RexNode expressions compiled once per query into
 * functions over whole Arrow record batches (typed-array loops).
 *
 * - `compileExpr(expr, schema)` → `Kernel`: batch → one Data of batch.numRows rows,
 *   of the canonical Arrow type of expr.type (VARCHAR results are plain Utf8; an
 *   InputRef returns the input Data itself, possibly dictionary-encoded).
 * - `compilePredicate(expr, schema)` → `Predicate`: batch → null (every row TRUE)
 *   or the Int32Array of TRUE rows.
 * - `evaluateConstant(expr)`, `constantData(value, type, n)`, `valueAt(data, i)`,
 *   `canCast(from, to)`.
 *
 * Semantics follow DuckDB (the test oracle): SQL three-valued logic, integer
 * overflow and invalid casts are ExecutionErrors, `x / 0` is NULL. Addressing
 * follows Arrow JS: `values[i]` (buffers are pre-sliced by Data.slice), validity
 * and Bool bits at `offset + i`.
 */
import type * as arrow from 'apache-arrow';
import type { LiteralValue } from '../../relnode/rex.js';
import { readValue } from './value-at.js';

export type { Kernel } from './context.js';
export { compileExpr } from './compile.js';
export { compilePredicate, compileSafeRefine, type Predicate } from './predicate.js';
export { evaluateConstant } from './constant.js';
export { constantData } from './constant-data.js';
export { canCast } from './cast.js';

/** Reads one value of a Data at row i in literal convention (for tests, small results and the planner; never in hot loops). */
export function valueAt(data: arrow.Data, i: number): LiteralValue {
  return readValue(data, i);
}
