/**
 * Repeated subplans and worker stages (docs/multi-core.md): a plan may hold the same aggregate
 * twice — TPC-H Q15's view read by the outer query and by its `max(total_revenue)` subquery,
 * Q11's `GROUP BY ps_partkey` that the optimizer reuses for the HAVING's total. At parallelism 1
 * lowering computes such a subtree once (lower-shared.ts); a stage replaced only the occurrence
 * it was found at, so the workers computed the other one again as a second stage (Q15: 160 + 160
 * ms of worker CPU against p1's 160 ms). One stage now replaces every occurrence.
 *
 * Decision: sameness is lower-shared.ts's (canonical digest confirmed by `structurallyEqual`,
 * deterministic subtrees only), so the workers share exactly what one thread shares. A stage
 * extended over the projections above its aggregate (extendUpward) covers all occurrences only
 * when the extended node repeats as often as the aggregate; otherwise the stage is the bare
 * aggregate (Q15's two occurrences have different projections above them). An occurrence that a
 * join above would give a runtime filter (runtimeFilteredFromAbove) keeps its own subtree, as
 * lower-shared.ts does not share a subtree whose scans take a pending filter.
 */
import { digest, isDeterministic } from '../relnode/digest.js';
import { structurallyEqual } from '../relnode/equal.js';
import * as rel from '../relnode/rel.js';
import type { RelNode, Scan } from '../relnode/rel.js';
import { runtimeFilteredFromAbove, type AggregateStage } from './ship-stages.js';

/** The nodes of `plan` structurally equal to `target` (`target` itself included), top-down. */
export function equalNodes(plan: RelNode, target: RelNode): RelNode[] {
  const out: RelNode[] = [];
  const deterministic = isDeterministic(target);
  const d = deterministic ? digest(target) : '';
  const walk = (n: RelNode): void => {
    if (n === target || (deterministic && n.kind === target.kind && digest(n) === d && structurallyEqual(n, target))) {
      out.push(n);
      return;
    }
    for (const c of rel.inputs(n)) walk(c);
  };
  walk(plan);
  return out;
}

/** The node of `b` at the position `target` has in `a` (a and b structurally equal), or undefined. */
function corresponding(a: RelNode, b: RelNode, target: RelNode): RelNode | undefined {
  if (a === target) return b;
  const ca = rel.inputs(a);
  const cb = rel.inputs(b);
  for (let i = 0; i < ca.length; i++) {
    const hit = corresponding(ca[i]!, cb[i]!, target);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/**
 * The stage to run for `found` (the aggregate or gathered side as found) and `extended` (the same
 * over the filters and projections above it), and the nodes of `plan` its result replaces: every
 * occurrence of the chosen node that no runtime filter from above would cut down.
 */
export function sharedStage(plan: RelNode, found: AggregateStage, extended: AggregateStage, rowsOf: (n: RelNode) => number): { readonly stage: AggregateStage; readonly targets: readonly RelNode[] } {
  const unfiltered = (st: AggregateStage): RelNode[] => equalNodes(plan, st.node).filter((n) => {
    if (n === st.node || st.mode === 'gather') return true;
    const scan = corresponding(st.node, n, st.scan) as Scan | undefined;
    return scan !== undefined && !runtimeFilteredFromAbove(plan, n, scan, rowsOf);
  });
  const bare = unfiltered(found);
  if (bare.length <= 1) return { stage: extended, targets: [extended.node] };
  if (extended.node === found.node) return { stage: found, targets: bare };
  const ext = unfiltered(extended);
  return ext.length === bare.length ? { stage: extended, targets: ext } : { stage: found, targets: bare };
}

/** `plan` with each of `targets` replaced by `by` (parents rebuilt; their schemas re-derived). */
export function replaceNodes(plan: RelNode, targets: readonly RelNode[], by: RelNode): RelNode {
  if (targets.includes(plan)) return by;
  const ins = rel.inputs(plan);
  const next = ins.map((c) => replaceNodes(c, targets, by));
  return next.some((c, i) => c !== ins[i]) ? rel.withInputs(plan, next) : plan;
}
