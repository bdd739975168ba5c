/**
 * A HAVING handed to the hash aggregate (exec/operators/agg-having.ts): lowering fuses a Filter
 * directly above an Aggregate into its HashAggregate vertex, which evaluates the condition over the
 * finished groups before it builds any output batch (TPC-H Q18's subquery: 77 of 1.5M groups kept;
 * the keys and sums of the others are never built). EXPLAIN: `HashAggregate(...; having: cond)`.
 *
 * Decision: a lowering fusion, not a plan rewrite or a new RelNode: the logical plan keeps its
 * Filter, so digests, cache matching and the logical EXPLAIN trees do not change, and a worker
 * stage whose final plan ends in the Filter (ship-stages.ts extendUpward) fuses it the same way.
 * Not fused: inside iteration bodies (their nodes lower one by one) and over an aggregate that is a
 * shared subplan (lower-shared.ts: its other consumers need every group).
 */
import type * as rel from '../relnode/rel.js';
import { formatRex } from '../relnode/explain.js';
import { rexInputs, rexShift } from '../relnode/rex.js';
import { schemaOf } from '../relnode/types.js';
import { compilePredicate } from '../exec/kernels/index.js';
import type { HavingConfig } from '../exec/operators/agg-having.js';
import type { SharedSubplans } from './lower-shared.js';

/** A Filter whose input is an Aggregate: the shape lowering fuses. */
export type HavingFilter = rel.Filter & { readonly input: rel.Aggregate };

/** Whether `n` is a Filter directly above an Aggregate. */
export function isHaving(n: rel.RelNode): n is HavingFilter {
  return n.kind === 'Filter' && n.input.kind === 'Aggregate';
}

/**
 * Whether the HAVING `f` runs inside its aggregate's vertex: not inside an iteration body (`inBody`),
 * and not when the aggregate is a shared subplan (`shared`, with the scans that have a runtime
 * filter `pending`): its other readers need every group.
 */
export function fusesInto(f: HavingFilter, inBody: boolean, shared: SharedSubplans | undefined, pending: ReadonlyMap<rel.Scan, unknown> | undefined): boolean {
  if (inBody) return false;
  return shared?.key(f.input, undefined, (s) => pending?.has(s as rel.Scan) === true) === undefined;
}

/**
 * The HashAggregate's HAVING for `f`: its condition compiled over only the output columns it reads
 * (renumbered in order), and the EXPLAIN text.
 */
export function compileHaving(f: HavingFilter): { readonly config: HavingConfig; readonly detail: string } {
  const out = f.input.schema;
  const reads = [...rexInputs(f.condition)].sort((a, b) => a - b);
  const at = new Map(reads.map((c, i) => [c, i]));
  const schema = schemaOf(reads.map((c) => out.fields[c]!));
  const predicate = compilePredicate(rexShift(f.condition, (i) => at.get(i)!), schema);
  return { config: { reads, predicate, schema }, detail: `having: ${formatRex(f.condition, out)}` };
}
