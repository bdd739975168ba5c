/**
 * The TableFunction node: a table-valued operator with table inputs and
 * named constant parameters — the ML table functions (`kmeans(points, k := 2)`,
 * `linear_regression(...)`) and the model-scoring functions.
 *
 * Decision: the node is generic and digestible (function name, parameters in
 * a canonical order, input digests, output types), so a second identical
 * training finds the first one's cache; how it runs is an opaque `impl`
 * object (never digested) that the planner's lowering asks to add its
 * vertices to the job graph (planner/lower.ts `TableFunctionImpl`). The
 * relational layer stays ignorant of what the function computes.
 */
import { ValidationError } from './errors.js';
import type { RelNode } from './rel.js';
import type { LiteralValue } from './rex.js';
import type { Schema, SqlType } from './types.js';

/** One named constant parameter. */
export interface TableFunctionArg {
  readonly name: string;
  readonly value: LiteralValue;
  readonly type: SqlType;
}

export interface TableFunction {
  readonly kind: 'TableFunction';
  /** The function's name (lower case), e.g. `kmeans`. */
  readonly name: string;
  /** Table arguments, in order. */
  readonly inputs: readonly RelNode[];
  /** Named parameters, sorted by name (the defaults filled in, so `k := 2` and no k with default 2 digest alike). */
  readonly args: readonly TableFunctionArg[];
  readonly schema: Schema;
  /** How it runs; opaque here, never digested (see planner/lower.ts). */
  readonly impl: object;
  /** Deterministic for equal inputs and args (a seeded training is); non-deterministic functions are never cached. */
  readonly deterministic: boolean;
  /**
   * True when the output is a subset of the one input's rows with its columns unchanged (USING SAMPLE):
   * the schema is the input's, and column pruning may narrow the input through the node.
   */
  readonly columnsPassThrough?: boolean;
}

export function tableFunction(name: string, inputs: readonly RelNode[], args: readonly TableFunctionArg[], schema: Schema, impl: object, deterministic = true, columnsPassThrough = false): TableFunction {
  if (columnsPassThrough && inputs.length !== 1) throw new ValidationError(`internal error: ${name} passes its input's columns through, so it takes one input, got ${inputs.length}`);
  const seen = new Set<string>();
  for (const a of args) {
    if (seen.has(a.name)) throw new ValidationError(`${name}: parameter ${a.name} is given twice`);
    seen.add(a.name);
  }
  const sorted = [...args].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const node = { kind: 'TableFunction' as const, name: name.toLowerCase(), inputs: [...inputs], args: sorted, schema: columnsPassThrough ? inputs[0]!.schema : schema, impl, deterministic };
  return columnsPassThrough ? { ...node, columnsPassThrough } : node;
}

/**
 * An impl whose function maps each input row on its own (LATERAL range(t.n): output = the input's
 * columns, then columns computed from that row alone). Such a function commutes with adding columns
 * to its input, which is how the decorrelation pushes the domain of outer values through it.
 */
export interface RowWiseImpl {
  readonly rowWise: true;
  /** The same function over another input whose leading columns are the original input's. */
  over(input: RelNode): TableFunction;
}

/** The row-wise impl of `n`, if it has one. */
export function rowWiseImpl(n: TableFunction): RowWiseImpl | undefined {
  const impl = n.impl as Partial<RowWiseImpl>;
  return impl.rowWise === true && typeof impl.over === 'function' ? (impl as RowWiseImpl) : undefined;
}
