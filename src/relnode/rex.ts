/**
 * Row expressions (RexNode): a closed union over input ordinals, literals,
 * calls, casts and CASE, plus the two kinds a subquery brings (bound by the
 * SQL binder, removed by the planner's decorrelation rules before anything
 * else sees them): OuterRef, a column of the relation a subquery is
 * correlated with, and Subquery, a query used as a value. AggRef exists
 * only inside the binder: an aggregate call's result while a grouped query's
 * clauses are bound over its input (the aggregate planner replaces every
 * one). Names are display-only; InputRef and OuterRef refer by ordinal.
 */
import type { RelNode } from './rel.js';
import type { SourceSpan } from './source-span.js';
import type { SqlType } from './types.js';

/** A literal value: number for INTEGER/DOUBLE/DATE (days)/TIMESTAMP (ms), bigint for BIGINT, string, boolean or null. */
export type LiteralValue = number | bigint | string | boolean | null;

export interface InputRef {
  readonly kind: 'InputRef';
  readonly index: number;
  readonly type: SqlType;
  /** Display name only (not part of the digest). */
  readonly name?: string;
}

/**
 * A column of the outer relation, read inside a correlated subquery: ordinal
 * `index` of the input of the node holding the Subquery expression, which
 * becomes the left input of the Correlate built from it. It always refers to
 * the nearest enclosing subquery (one level of correlation).
 */
export interface OuterRef {
  readonly kind: 'OuterRef';
  readonly index: number;
  readonly type: SqlType;
  /** Display name only (not part of the digest). */
  readonly name?: string;
}

/**
 * Binder-only: the result of aggregate call `call` of the aggregate planner
 * (src/sql/binder/aggregate.ts) while SELECT/HAVING/ORDER BY are bound over
 * the grouped query's input. `AggPlanner.rewrite` turns each into an InputRef
 * over the Aggregate's output; the planner and exec never see one.
 */
export interface AggRef {
  readonly kind: 'AggRef';
  readonly call: number;
  readonly type: SqlType;
  /** The call's output name (`sum(l_quantity)`): display only. */
  readonly name: string;
}

/** How a subquery is used: its single value, whether it has rows, or whether `arg` is among its first column's values. */
export type SubqueryMode = 'scalar' | 'exists' | 'in';

/**
 * A subquery used as a value (SQL `(SELECT ...)`, `EXISTS (...)`, `x IN
 * (...)`). `rel` may read the containing node's input through OuterRefs;
 * `arg` (IN only) is over that input. Type: the first column's for scalar,
 * BOOLEAN otherwise. NOT EXISTS / NOT IN are `not` calls around it.
 */
export interface Subquery {
  readonly kind: 'Subquery';
  readonly mode: SubqueryMode;
  readonly rel: RelNode;
  readonly arg?: RexNode;
  readonly type: SqlType;
  /** Where the SQL text wrote it: a scalar subquery's "more than one row" error points here (source-span.ts). */
  readonly at?: SourceSpan;
}

export interface Literal {
  readonly kind: 'Literal';
  readonly value: LiteralValue;
  readonly type: SqlType;
}

export interface Call {
  readonly kind: 'Call';
  /** A function id from FUNCTIONS (e.g. 'plus', 'eq', 'upper'). */
  readonly op: string;
  readonly args: readonly RexNode[];
  readonly type: SqlType;
  /** Where the SQL text wrote it, for runtime errors (source-span.ts): display only, not in the digest. */
  readonly at?: SourceSpan;
}

export interface Cast {
  readonly kind: 'Cast';
  readonly arg: RexNode;
  readonly type: SqlType;
  /** Where the SQL text wrote it, for runtime errors (source-span.ts): display only, not in the digest. */
  readonly at?: SourceSpan;
  /**
   * What a cast the engine added converts for, in the user's terms (INSERT's and UPDATE's
   * `column a of table t`): a failed conversion names it instead of a CAST the user did not write
   * (over an internal column such as `col0`). Display only, not in the digest.
   */
  readonly target?: string;
}

export interface Case {
  readonly kind: 'Case';
  readonly whens: readonly { readonly when: RexNode; readonly then: RexNode }[];
  readonly otherwise: RexNode;
  readonly type: SqlType;
  /** Where the SQL text wrote it, for runtime errors (source-span.ts): display only, not in the digest. */
  readonly at?: SourceSpan;
}

export type RexNode = InputRef | OuterRef | AggRef | Literal | Call | Cast | Case | Subquery;

export function assertNever(x: never, what = 'value'): never {
  throw new Error(`internal error: unexpected ${what}: ${JSON.stringify(x)}`);
}

export function inputRef(index: number, type: SqlType, name?: string): InputRef {
  return name === undefined ? { kind: 'InputRef', index, type } : { kind: 'InputRef', index, type, name };
}

export function outerRef(index: number, type: SqlType, name?: string): OuterRef {
  return name === undefined ? { kind: 'OuterRef', index, type } : { kind: 'OuterRef', index, type, name };
}

export function aggRef(call: number, type: SqlType, name: string): AggRef {
  return { kind: 'AggRef', call, type, name };
}

/** A subquery expression; `type` is the value's type (BOOLEAN for exists / in). */
export function subquery(mode: SubqueryMode, rel: RelNode, type: SqlType, arg?: RexNode): Subquery {
  return arg === undefined ? { kind: 'Subquery', mode, rel, type } : { kind: 'Subquery', mode, rel, arg, type };
}

export function literal(value: LiteralValue, type: SqlType): Literal {
  return { kind: 'Literal', value, type };
}

export function call(op: string, args: readonly RexNode[], type: SqlType): Call {
  return { kind: 'Call', op, args, type };
}

export function cast(arg: RexNode, type: SqlType): RexNode {
  return arg.type === type ? arg : { kind: 'Cast', arg, type };
}

/**
 * `arg` converted to `type` for a place the engine assigns it to (Cast.target, e.g. `column a of
 * table t`), at `at` where the value was written in SQL (if known): an INSERT's or UPDATE's cast.
 */
export function assignmentCast(arg: RexNode, type: SqlType, target: string, at?: SourceSpan): RexNode {
  return arg.type === type ? arg : { kind: 'Cast', arg, type, target, ...(at !== undefined ? { at } : {}) };
}

export function caseWhen(whens: readonly { when: RexNode; then: RexNode }[], otherwise: RexNode, type: SqlType): Case {
  return { kind: 'Case', whens, otherwise, type };
}

/** `e` with span `at` when it is a Call, Cast, Case or Subquery without one (the binder's mark of where it was written). */
export function withSpan(e: RexNode, at: SourceSpan): RexNode {
  return (e.kind === 'Call' || e.kind === 'Cast' || e.kind === 'Case' || e.kind === 'Subquery') && e.at === undefined ? { ...e, at } : e;
}

/** Where `e` was written in SQL, when the binder recorded it (a Call, Cast, Case or Subquery). */
export function spanOf(e: RexNode): SourceSpan | undefined {
  return e.kind === 'Call' || e.kind === 'Cast' || e.kind === 'Case' || e.kind === 'Subquery' ? e.at : undefined;
}

/** The direct sub-expressions of a RexNode (a Subquery's plan is not one; its IN argument is). */
export function rexChildren(e: RexNode): readonly RexNode[] {
  switch (e.kind) {
    case 'InputRef': case 'OuterRef': case 'AggRef': case 'Literal': return [];
    case 'Subquery': return e.arg ? [e.arg] : [];
    case 'Call': return e.args;
    case 'Cast': return [e.arg];
    case 'Case': return [...e.whens.flatMap((w) => [w.when, w.then]), e.otherwise];
    default: return assertNever(e, 'RexNode');
  }
}

/** Rebuilds a RexNode with new children (in the order rexChildren returns them). */
export function rexWithChildren(e: RexNode, ch: readonly RexNode[]): RexNode {
  switch (e.kind) {
    case 'InputRef': case 'OuterRef': case 'AggRef': case 'Literal': return e;
    case 'Subquery': return e.arg ? { ...e, arg: ch[0]! } : e;
    case 'Call': return { ...e, args: ch };
    case 'Cast': return { ...e, arg: ch[0]! };
    case 'Case': {
      const whens = e.whens.map((_, i) => ({ when: ch[2 * i]!, then: ch[2 * i + 1]! }));
      return { ...e, whens, otherwise: ch[ch.length - 1]! };
    }
    default: return assertNever(e, 'RexNode');
  }
}

/** Bottom-up rewrite of an expression tree. `f` returns a replacement or the same node. */
export function rexTransform(e: RexNode, f: (e: RexNode) => RexNode): RexNode {
  const ch = rexChildren(e);
  let next = e;
  if (ch.length > 0) {
    const nch = ch.map((c) => rexTransform(c, f));
    if (nch.some((c, i) => c !== ch[i])) next = rexWithChildren(e, nch);
  }
  return f(next);
}

/** Visits every node of the expression (pre-order). */
export function rexVisit(e: RexNode, f: (e: RexNode) => void): void {
  f(e);
  for (const c of rexChildren(e)) rexVisit(c, f);
}

/** The set of input ordinals an expression reads (not the OuterRefs inside a Subquery's plan: the planner removes subqueries first). */
export function rexInputs(e: RexNode, into: Set<number> = new Set()): Set<number> {
  rexVisit(e, (n) => { if (n.kind === 'InputRef') into.add(n.index); });
  return into;
}

/** Renumbers InputRefs through `map` (old ordinal → new ordinal). */
export function rexShift(e: RexNode, map: (i: number) => number): RexNode {
  return rexTransform(e, (n) => (n.kind === 'InputRef' ? { ...n, index: map(n.index) } : n));
}

/** Splits an AND tree into its conjuncts. */
export function conjuncts(e: RexNode): RexNode[] {
  if (e.kind === 'Call' && e.op === 'and') return e.args.flatMap(conjuncts);
  if (e.kind === 'Literal' && e.value === true) return [];
  return [e];
}

/** The operands of a nest of ORs, flattened (`[e]` when `e` is not an OR). */
export function disjuncts(e: RexNode): RexNode[] {
  return e.kind === 'Call' && e.op === 'or' ? e.args.flatMap(disjuncts) : [e];
}

/** Joins conjuncts with AND (TRUE when empty). */
export function andAll(cs: readonly RexNode[]): RexNode {
  if (cs.length === 0) return literal(true, 'BOOLEAN');
  if (cs.length === 1) return cs[0]!;
  return call('and', cs, 'BOOLEAN');
}

/** True when the expression contains a Subquery. */
export function hasSubquery(e: RexNode): boolean {
  let found = false;
  rexVisit(e, (n) => { if (n.kind === 'Subquery') found = true; });
  return found;
}
