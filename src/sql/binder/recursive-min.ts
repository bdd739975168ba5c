/**
 * The min-label rewrite of WITH RECURSIVE (docs/sql-recursive.md "The
 * min-label rewrite"): an outer `SELECT k..., min(label) FROM t GROUP BY
 * k...` over a UNION recursive CTE `t(k..., label)` whose recursive term is
 * `SELECT k-exprs, min(t.label) FROM t ... GROUP BY k-exprs` — the
 * connected-components query — is answered by a keyed iteration that keeps
 * each key's smallest label (Iterate.keepMin): a round passes on only the
 * keys whose label went down, instead of every new (key, label) pair.
 *
 * Why the answers are equal: the term reads the label only as `min(label)`
 * and everything else it does with a row (filters, joins, the key
 * expressions) does not look at the label, so the keys a row reaches, S(u),
 * depend on its key columns alone. Then every label either plan produces at
 * key v is an anchor label of a key that reaches v through S, and both
 * produce the smallest one: UNION because a row (u, l) it holds makes the
 * next round hold some (v, m ≤ l) for each v in S(u) (new, or already
 * there), the keyed plan because a key is passed on whenever its label goes
 * down. NULL labels count as largest in both (min skips them), and the set
 * of keys is the same (every key reached). The labels are the anchor's, so
 * the UNION plan ends too, and the keyed plan in no more rounds.
 *
 * Decision: a rewrite of the bound plan (not of the SQL text), applied only
 * where it is exact and only where it helps: the CTE has no other consumer
 * (another would need the full UNION result: the iteration would run
 * twice), no recursion-limit clause (a round limit would cut the two plans
 * at different points), UNION (not UNION ALL: those duplicates count), one
 * self-reference, an INTEGER / DATE label (the keyed store's mirrors), a
 * deterministic term without subqueries, and nothing but column picks
 * between the outer aggregate and the CTE (no LIMIT, no filter).
 */
import { isDeterministic } from '../../relnode/digest.js';
import { iterate } from '../../relnode/iterate.js';
import * as rel from '../../relnode/rel.js';
import type { RelNode } from '../../relnode/rel.js';
import { hasSubquery, inputRef, rexInputs, rexVisit, type RexNode } from '../../relnode/rex.js';

/** The plan with every matching `min(label) GROUP BY key` over a UNION recursive CTE rewritten (the plan itself when none). */
export function pushMinIntoRecursion(plan: RelNode): RelNode {
  const parents = parentCounts(plan);
  const memo = new Map<RelNode, RelNode>();
  const walk = (n: RelNode): RelNode => {
    const known = memo.get(n);
    if (known !== undefined) return known;
    let out = n;
    if (n.kind !== 'Iterate') { // an Iterate's body is not a consumer: left as is
      const ins = rel.inputs(n);
      const next = ins.map(walk);
      out = next.some((c, i) => c !== ins[i]) ? rel.withInputs(n, next) : n;
      if (out.kind === 'Aggregate' && out === n) out = rewriteAggregate(out, parents) ?? out;
    }
    memo.set(n, out);
    return out;
  };
  return walk(plan);
}

/** How many parents (children slots, subqueries included) refer to each node object. */
function parentCounts(plan: RelNode): Map<RelNode, number> {
  const count = new Map<RelNode, number>();
  const seen = new Set<RelNode>();
  const walk = (n: RelNode): void => {
    if (seen.has(n)) return;
    seen.add(n);
    const kids = [...rel.inputs(n)];
    for (const e of rel.nodeRexes(n)) rexVisit(e, (x) => { if (x.kind === 'Subquery') kids.push(x.rel); });
    for (const c of kids) { count.set(c, (count.get(c) ?? 0) + 1); walk(c); }
  };
  walk(plan);
  return count;
}

/** Column picks (Projects of InputRefs) below `n`: the node under them and, per output column of `n`, its column there. */
export function throughPicks(n: RelNode, cols: readonly number[], single?: (m: RelNode) => boolean): { node: RelNode; cols: number[] } | undefined {
  let m = n;
  let c = [...cols];
  while (m.kind === 'Project') {
    const exprs = m.exprs;
    const mapped = c.map((i) => { const e = exprs[i]; return e !== undefined && e.kind === 'InputRef' ? e.index : -1; });
    if (mapped.some((i) => i < 0)) return undefined;
    if (single !== undefined && !single(m.input)) return undefined;
    c = mapped;
    m = m.input;
  }
  return { node: m, cols: c };
}

function rewriteAggregate(a: rel.Aggregate, parents: ReadonlyMap<RelNode, number>): RelNode | undefined {
  if (a.groupKeys.length === 0 || a.aggCalls.length !== 1) return undefined;
  const call = a.aggCalls[0]!;
  if (call.fn !== 'min' || call.distinct || call.order !== undefined || call.args.length !== 1) return undefined;
  const single = (m: RelNode): boolean => (parents.get(m) ?? 0) === 1;
  if (!single(a.input)) return undefined;
  const found = throughPicks(a.input, [...a.groupKeys, call.args[0]!], single);
  if (found === undefined || found.node.kind !== 'Iterate') return undefined;
  const it = found.node;
  const keyCols = found.cols.slice(0, -1);
  const label = found.cols[found.cols.length - 1]!;
  const width = it.schema.fields.length;
  if (it.mode !== 'accumulate' || !it.distinct || it.keys !== undefined || it.variables.length !== 1 || it.output !== 0 || it.until !== undefined || it.maxRounds !== undefined) return undefined;
  if (new Set(keyCols).size !== keyCols.length || keyCols.includes(label) || keyCols.length + 1 !== width) return undefined;
  const type = it.schema.fields[label]!.type;
  if ((type !== 'INTEGER' && type !== 'DATE') || call.type !== type) return undefined;
  if (!minLabelBody(it.next[0]!, keyCols, label)) return undefined;
  const anchor = it.variables[0]!;
  const keyed = iterate({
    variables: [anchor.kind === 'Distinct' ? anchor.input : anchor], // keepMin keeps one row per key anyway
    data: it.data,
    replay: it.replay,
    next: it.next,
    mode: 'accumulate',
    distinct: true,
    keys: [keyCols],
    keepMin: [label],
    output: 0,
  });
  const input = replaceLeaf(a.input, it, keyed);
  // The keyed result has one row per key, its smallest label: the aggregate's own answer.
  const exprs = [...a.groupKeys, call.args[0]!].map((i) => inputRef(i, input.schema.fields[i]!.type, input.schema.fields[i]!.name));
  return rel.project(input, exprs, a.schema.fields.map((f) => f.name));
}

/** `n` (a chain of Projects over `leaf`) over `by` instead. */
function replaceLeaf(n: RelNode, leaf: RelNode, by: RelNode): RelNode {
  if (n === leaf) return by;
  return rel.withInputs(n, [replaceLeaf(rel.inputs(n)[0]!, leaf, by)]);
}

/**
 * True when the recursive term `next` is `SELECT key-exprs, min(t.label) FROM ... GROUP BY key-exprs` (up to
 * column picks) with one reference to `t`, whose label column nothing else reads.
 */
function minLabelBody(next: RelNode, keyCols: readonly number[], label: number): boolean {
  const picks = throughPicks(next, [...keyCols, label]);
  if (picks === undefined || picks.node.kind !== 'Aggregate') return false;
  const b = picks.node;
  const g = b.groupKeys.length;
  const outKeys = picks.cols.slice(0, -1);
  const outLabel = picks.cols[picks.cols.length - 1]!;
  if (b.aggCalls.length !== 1 || outLabel !== g || new Set(outKeys).size !== g || outKeys.some((k) => k >= g)) return false;
  const min = b.aggCalls[0]!;
  if (min.fn !== 'min' || min.distinct || min.order !== undefined || min.args.length !== 1) return false;
  if (!isDeterministic(next)) return false;
  let refs = 0;
  let subqueries = false;
  rel.visit(next, (m) => { if (m.kind === 'FeedbackRef') refs++; if (rel.nodeRexes(m).some(hasSubquery)) subqueries = true; });
  if (refs !== 1 || subqueries) return false;
  const carried = labelColumns(b.input, label);
  return carried !== undefined && carried.has(min.args[0]!) && b.groupKeys.every((k) => !carried.has(k));
}

/**
 * The output columns of `m` that are the label of the CTE's current rows passed on unchanged, or undefined when
 * `m` reads the label any other way or is not a row-by-row operator over them (an empty set: `m` does not read the CTE).
 */
function labelColumns(m: RelNode, label: number): Set<number> | undefined {
  if (m.kind === 'FeedbackRef') return m.view === 'current' && m.variable === 0 ? new Set([label]) : undefined;
  let dynamic = false;
  rel.visit(m, (x) => { if (x.kind === 'FeedbackRef') dynamic = true; });
  if (!dynamic) return new Set();
  const reads = (e: RexNode, s: ReadonlySet<number>): boolean => [...rexInputs(e)].some((i) => s.has(i));
  switch (m.kind) {
    case 'Project': {
      const s = labelColumns(m.input, label);
      if (s === undefined) return undefined;
      const out = new Set<number>();
      for (const [i, e] of m.exprs.entries()) {
        if (e.kind === 'InputRef' && s.has(e.index)) out.add(i);
        else if (reads(e, s)) return undefined;
      }
      return out;
    }
    case 'Filter': {
      const s = labelColumns(m.input, label);
      return s === undefined || reads(m.condition, s) ? undefined : s;
    }
    case 'Join': {
      const l = labelColumns(m.left, label);
      const r = labelColumns(m.right, label);
      if (l === undefined || r === undefined) return undefined;
      const lw = m.left.schema.fields.length;
      const leftDynamic = l.size > 0;
      // Row by row over the CTE's rows: an inner / cross join either way, the others with the CTE on the left.
      if (m.joinType !== 'inner' && m.joinType !== 'cross' && !(leftDynamic && (m.joinType === 'left' || m.joinType === 'semi' || m.joinType === 'anti'))) return undefined;
      const s = new Set([...l, ...[...r].map((i) => i + lw)]);
      if (s.size === 0 || reads(m.condition, s)) return undefined;
      return m.joinType === 'semi' || m.joinType === 'anti' ? l : s;
    }
    default:
      return undefined;
  }
}
