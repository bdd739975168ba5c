/**
 * An uncorrelated scalar subquery that aggregates, without grouping, the same
 * input the outer query groups (TPC-H Q11: `HAVING sum(v) > (SELECT sum(v) *
 * 0.0001 FROM <the same FROM and WHERE>)`) is rolled up from the outer
 * query's groups: `sum(v)` over X = `sum` of the per-group `sum(v)` over X,
 * and likewise min and max. The subquery then reads the outer query's
 * Aggregate node itself, which lowering computes once for both
 * (lower-shared.ts), instead of joining and scanning X a second time.
 *
 * Decision: rewrite only when every aggregate of the subquery has a partner
 * in the grouped aggregate (same function, canonically the same argument
 * over a structurally equal input, same result type) — no aggregate is added
 * to the outer query, so its plan is untouched. sum rolls up for BIGINT
 * (exact; an overflowing group sum would fail the outer query too) and DOUBLE
 * (compensated sums, agg-states.ts: the total is within a rounding or two of
 * the direct sum, as a different row order would give); count does not (its
 * zero over no groups would be NULL), nor DISTINCT or ordered aggregates.
 */
import { canonicalRex } from '../../relnode/digest.js';
import { structurallyEqual } from '../../relnode/equal.js';
import * as rel from '../../relnode/rel.js';
import type { AggCall, RelNode } from '../../relnode/rel.js';

function plainUnary(c: AggCall): boolean {
  return !c.distinct && c.order === undefined && c.args.length === 1;
}

function rollsUp(c: AggCall): boolean {
  if (!plainUnary(c)) return false;
  if (c.fn === 'min' || c.fn === 'max') return true;
  return c.fn === 'sum' && (c.type === 'DOUBLE' || c.type === 'BIGINT');
}

/** The subquery's global aggregate over the grouped one's output, or undefined when `g` does not fit. */
function over(a0: rel.Aggregate, q0: rel.Project, g: rel.Aggregate): rel.Aggregate | undefined {
  const qg = g.input;
  if (qg.kind !== 'Project' || !structurallyEqual(q0.input, qg.input)) return undefined;
  const calls: AggCall[] = [];
  for (const c0 of a0.aggCalls) {
    if (!rollsUp(c0)) return undefined;
    const arg = canonicalRex(q0.exprs[c0.args[0]!]!);
    const j = g.aggCalls.findIndex((cg) => cg.fn === c0.fn && cg.type === c0.type && plainUnary(cg) && canonicalRex(qg.exprs[cg.args[0]!]!) === arg);
    if (j < 0) return undefined;
    calls.push({ fn: c0.fn, args: [g.groupKeys.length + j], distinct: false, type: c0.type, name: c0.name, ...(c0.at !== undefined ? { at: c0.at } : {}) });
  }
  const out = rel.aggregate(g, [], calls);
  const same = out.schema.fields.every((f, i) => f.type === a0.schema.fields[i]!.type && f.nullable === a0.schema.fields[i]!.nullable);
  return same ? out : undefined;
}

/**
 * `right` (the uncorrelated subquery: [Project ←] Aggregate(no keys) ← Project ← X) rewritten to
 * aggregate a grouped Aggregate over X found in `left`; undefined when there is none.
 */
export function rollUpScalarAggregate(right: RelNode, left: RelNode): RelNode | undefined {
  const top = right.kind === 'Project' ? right : undefined;
  const a0 = top ? top.input : right;
  if (a0.kind !== 'Aggregate' || a0.groupKeys.length > 0 || a0.aggCalls.length === 0 || a0.input.kind !== 'Project') return undefined;
  const q0 = a0.input;
  let found: rel.Aggregate | undefined;
  rel.visit(left, (m) => {
    if (found === undefined && m.kind === 'Aggregate' && m.groupKeys.length > 0) found = over(a0, q0, m);
  });
  if (found === undefined) return undefined;
  if (top === undefined) return found;
  return rel.project(found, top.exprs, top.schema.fields.map((f) => f.name));
}
