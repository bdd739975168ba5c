/**
 * The optimizer's rule contract, plus the few expression and plan helpers
 * several rules share (deterministic check, reference substitution, literal
 * tests, empty relations, schema comparison). They are relnode-level concepts
 * kept here until relnode grows them.
 */
import { FUNCTIONS } from '../relnode/functions.js';
import { values, type RelNode, type Values } from '../relnode/rel.js';
import { cast, literal, rexTransform, rexVisit, type RexNode } from '../relnode/rex.js';
import type { Schema } from '../relnode/types.js';

/** A logical rewrite rule. The optimizer runs rules in order over the whole plan until a digest fixpoint. */
export interface Rule {
  /** The rule's file name without extension (`push-down-filter`); traces and errors name it. */
  readonly name: string;
  /** One line: what it does and which rules it cooperates with. */
  readonly description: string;
  /** Rewrites the whole tree (through transformUp/transformDown); returns the same object if nothing changed. */
  rewrite(node: RelNode): RelNode;
}

/**
 * True when evaluating the expression twice on the same row gives the same value.
 * Conservative: a function id missing from the catalog counts as non-deterministic.
 */
export function isDeterministicRex(e: RexNode): boolean {
  let ok = true;
  rexVisit(e, (x) => {
    if (x.kind === 'Call' && FUNCTIONS.get(x.op)?.deterministic !== true) ok = false;
  });
  return ok;
}

/** Replaces every `InputRef i` by `exprs[i]` (inlining a Project's expressions into an expression over its output). */
export function substituteRefs(e: RexNode, exprs: readonly RexNode[]): RexNode {
  return rexTransform(e, (n) => (n.kind === 'InputRef' ? exprs[n.index]! : n));
}

/** True for a literal with exactly this value (`true`, `false` or `null`). */
export function isLiteralValue(e: RexNode, v: boolean | null): boolean {
  return e.kind === 'Literal' && e.value === v;
}

/** Returns `e` typed as `type`: unchanged when it already is, a typed NULL for a NULL literal, else a CAST. */
export function withType(e: RexNode, type: RexNode['type']): RexNode {
  if (e.type === type) return e;
  if (e.kind === 'Literal' && e.value === null) return literal(null, type);
  return cast(e, type);
}

/** An empty relation with the node's schema. */
export function emptyLike(n: RelNode): Values {
  return values([], n.schema);
}

/** True for a Values node without rows. */
export function isEmptyRelation(n: RelNode): boolean {
  return n.kind === 'Values' && n.rows.length === 0;
}

/** True when both schemas have the same field count, names and types (nullability and qualifiers aside). */
export function sameNamesAndTypes(a: Schema, b: Schema): boolean {
  return a.fields.length === b.fields.length && a.fields.every((f, i) => f.name === b.fields[i]!.name && f.type === b.fields[i]!.type);
}
