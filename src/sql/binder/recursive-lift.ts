/**
 * Lifts the tables a recursive term reads into data inputs of its Iterate:
 * every maximal subtree that reads no loop variable becomes a DataRef, so
 * `edges` is read once, outside the loop, and fed in (DESIGN.md
 * "iteration"). Like relnode's `liftDataInputs`, plus what SQL needs:
 *
 * - A self-reference may sit inside a Subquery expression (`WHERE EXISTS
 *   (SELECT ... FROM t ...)`, `(SELECT t.x + t2.x FROM t t2)`): the binder
 *   leaves those to the planner's decorrelation rules, so a node whose
 *   expressions hold such a subquery reads the loop too, and the lifting
 *   goes on inside the subquery's plan.
 * - Subquery plans are lifted like the body: an uncorrelated one that reads
 *   no loop variable becomes a DataRef whole; inside a correlated one, a
 *   subtree that reads the enclosing row (OuterRefs) is not lifted (it has
 *   no rows on its own), its loop-free, uncorrelated parts are.
 * - An Iterate in the body (a recursive CTE used by the recursive term)
 *   binds its own refs: it reads the loop only through its variables and
 *   data, so an independent one is lifted whole.
 */
import * as rel from '../../relnode/rel.js';
import { dataRef } from '../../relnode/iterate.js';
import { rexTransform, rexVisit, type RexNode } from '../../relnode/rex.js';

/** True when the subtree reads a loop variable of the Iterate being built (FeedbackRef), also inside subquery expressions. */
export function readsLoop(n: rel.RelNode): boolean {
  if (n.kind === 'FeedbackRef') return true;
  if (n.kind === 'DataRef') return false;
  if (n.kind === 'Iterate') return [...n.variables, ...n.data].some(readsLoop);
  if (rel.nodeRexes(n).some(rexReadsLoop)) return true;
  return rel.inputs(n).some(readsLoop);
}

function rexReadsLoop(e: RexNode): boolean {
  let found = false;
  rexVisit(e, (x) => { if (!found && x.kind === 'Subquery' && readsLoop(x.rel)) found = true; });
  return found;
}

/** The same node with new expressions (the node kinds `nodeRexes` lists, in its order). */
function withRexes(n: rel.RelNode, rexes: readonly RexNode[]): rel.RelNode {
  switch (n.kind) {
    case 'Filter': return rel.filter(n.input, rexes[0]!);
    case 'Project': return rel.project(n.input, rexes, n.schema.fields.map((f) => f.name));
    case 'Join': return rel.join(n.left, n.right, n.joinType, rexes[0]!);
    case 'Correlate': return rel.correlate(n.left, n.right, n.joinType, rexes[0]!, n.at);
    default: return n;
  }
}

/**
 * Rewrites `body` with DataRefs for its loop-free subtrees, appending them
 * to `data` (one input per distinct subtree object).
 */
export function liftRecursiveData(body: rel.RelNode, data: rel.RelNode[]): rel.RelNode {
  const walk = (n: rel.RelNode): rel.RelNode => {
    if (n.kind === 'FeedbackRef' || n.kind === 'DataRef') return n;
    if (!readsLoop(n) && rel.outerRefsOf(n).size === 0) {
      let i = data.indexOf(n);
      if (i < 0) { data.push(n); i = data.length - 1; }
      return dataRef(i, n.schema);
    }
    const ch = rel.inputs(n);
    const nch = ch.map(walk);
    let m = nch.some((c, i) => c !== ch[i]) ? rel.withInputs(n, nch) : n;
    const rexes = rel.nodeRexes(m);
    const nrexes = rexes.map((e) => rexTransform(e, (x) => {
      if (x.kind !== 'Subquery') return x;
      const r = walk(x.rel);
      return r === x.rel ? x : { ...x, rel: r };
    }));
    if (nrexes.some((e, i) => e !== rexes[i])) m = withRexes(m, nrexes);
    return m;
  };
  return walk(body);
}
