/**
 * The keep-min shape of a USING KEY recursive CTE (docs/sql-recursive.md
 * "USING KEY keep-min"): a CTE `t(k..., label) USING KEY (k...)` whose
 * recursive term is
 *
 *   SELECT key-exprs, min(t.label) FROM t ... JOIN recurring.t r ON r.k = key-exprs
 *   WHERE t.label < r.label GROUP BY key-exprs
 *
 * — connected components by label propagation — runs as a keep-min keyed
 * iteration (Iterate.keepMin), the plan the min-label rewrite
 * (recursive-min.ts) gives the UNION form.
 *
 * Why the answers are equal. Rounds as written: every row the term emits
 * for key v has a label below the kept `r.label` of v (the guard holds for
 * every row the min runs over, and `r` is v's own row), so "the new row
 * overwrites v's row" and "v keeps the smaller label" write the same store
 * and emit the same working rows — round for round, before any in-place
 * update. With the in-place updates of the fused pair loop (a label that
 * went down this round is read at once, docs/sql-recursive.md "In-place
 * updates"), the rounds differ but not the end: when the term reads the
 * label only as `min(t.label)` and in the guard, the keys a row reaches
 * depend on its key alone (S(u), among the keys the store holds), and both
 * orders of evaluation are chaotic iterations of the same monotone map
 * L[v] := min(L[v], min{L[u] : v ∈ S(u)}) that start from the anchor's
 * store and re-run every key whose label went down — they reach the same
 * (greatest) fixpoint below the anchor's labels. NULL labels never pass the
 * guard, as written.
 *
 * Decision: a rewrite of the bound plan that only sets `keepMin`; the term,
 * the guard and the `recurring` join stay (the join keeps keys the store
 * lacks out, the guard keeps a NULL-labelled key unchanged). It applies
 * only to the exact shape: one USING KEY CTE whose columns are its keys and
 * one INTEGER / DATE label, no recursion-limit clause (rounds would be cut
 * at different points), a deterministic term without subqueries with one
 * reference to `t` and one to `recurring.t`, inner / cross joins, filters
 * and projections, the label read only by the min and the guard, and group
 * keys equal to `r`'s keys by join equalities. Anything else runs as
 * written. Unlike the min-label rewrite it needs no single consumer: the
 * keyed result is the same table either way.
 */
import { isDeterministic } from '../../relnode/digest.js';
import { iterate } from '../../relnode/iterate.js';
import * as rel from '../../relnode/rel.js';
import type { RelNode } from '../../relnode/rel.js';
import { conjuncts, hasSubquery, rexInputs, type RexNode } from '../../relnode/rex.js';
import { throughPicks } from './recursive-min.js';

/** The plan with every USING KEY iteration of the keep-min shape given `keepMin` (the plan itself when none). */
export function keepMinUsingKey(plan: RelNode): RelNode {
  const memo = new Map<RelNode, RelNode>();
  const walk = (n: RelNode): RelNode => {
    const known = memo.get(n);
    if (known !== undefined) return known;
    let out = n;
    if (n.kind === 'Iterate') out = rewriteIterate(n) ?? n; // its variables and data hold no other iteration
    else {
      const ins = rel.inputs(n);
      const next = ins.map(walk);
      if (next.some((c, i) => c !== ins[i])) out = rel.withInputs(n, next);
    }
    memo.set(n, out);
    return out;
  };
  return walk(plan);
}

function rewriteIterate(it: rel.Iterate): RelNode | undefined {
  if (it.mode !== 'accumulate' || it.variables.length !== 1 || it.keepMin !== undefined || it.until !== undefined || it.maxRounds !== undefined) return undefined;
  const keys = it.keys?.[0];
  if (keys === undefined || keys.length === 0) return undefined;
  const width = it.schema.fields.length;
  if (keys.length + 1 !== width) return undefined;
  const label = [...Array(width).keys()].find((c) => !keys.includes(c))!;
  const type = it.variables[0]!.schema.fields[label]!.type;
  if (type !== 'INTEGER' && type !== 'DATE') return undefined;
  if (!keepMinBody(it.next[0]!, keys, label)) return undefined;
  return iterate({
    variables: it.variables,
    data: it.data,
    replay: it.replay,
    next: it.next,
    mode: 'accumulate',
    distinct: it.distinct,
    keys: it.keys!,
    keepMin: [label],
    atMaxRounds: it.atMaxRounds,
    output: it.output,
  });
}

/**
 * True when the term `next` is `SELECT key-exprs, min(t.label) ... GROUP BY key-exprs` (up to column picks) over
 * rows that all pass the guard `t.label < r.label`, `r` the `recurring.t` row whose keys equal the group keys.
 */
function keepMinBody(next: RelNode, keys: readonly number[], label: number): boolean {
  const picks = throughPicks(next, [...keys, label]);
  if (picks === undefined || picks.node.kind !== 'Aggregate') return false;
  const b = picks.node;
  const g = b.groupKeys.length;
  const outKeys = picks.cols.slice(0, -1);
  if (b.aggCalls.length !== 1 || picks.cols[picks.cols.length - 1] !== g || g !== keys.length || new Set(outKeys).size !== g || outKeys.some((k) => k >= g)) return false;
  const min = b.aggCalls[0]!;
  if (min.fn !== 'min' || min.distinct || min.order !== undefined || min.args.length !== 1) return false;
  if (!isDeterministic(next)) return false;
  let current = 0;
  let recurring = 0;
  let subqueries = false;
  rel.visit(next, (m) => {
    if (m.kind === 'FeedbackRef') { if (m.view === 'recurring') recurring++; else current++; }
    if (rel.nodeRexes(m).some(hasSubquery)) subqueries = true;
  });
  if (current !== 1 || recurring !== 1 || subqueries) return false;
  const t = tags(b.input, keys, label);
  if (t === undefined || !t.guarded) return false;
  if (!t.cols[min.args[0]!]!.has(LABEL)) return false;
  // CTE key column keys[j] is the aggregate's output outKeys[j], group key column b.groupKeys[outKeys[j]]: r's key j.
  return keys.every((k, j) => { const s = t.cols[b.groupKeys[outKeys[j]!]!]!; return s.has(`k${k}`) && !s.has(LABEL) && !s.has(REC_LABEL); });
}

const LABEL = 'label';
const REC_LABEL = 'r.label';

/**
 * What each output column of `m` is: the current rows' label (LABEL), `r`'s label (REC_LABEL), equal to `r`'s key
 * column c (`k<c>`: `r`'s own key column, or a column an equality in a filter or inner join ties to it); and whether
 * every row has passed the guard. Undefined when `m` reads a label any other way or holds other operators.
 */
function tags(m: RelNode, keys: readonly number[], label: number): { cols: Set<string>[]; guarded: boolean } | undefined {
  if (m.kind === 'FeedbackRef') {
    if (m.variable !== 0) return undefined;
    const recurring = m.view === 'recurring';
    return { cols: m.schema.fields.map((_, c) => new Set(c === label ? [recurring ? REC_LABEL : LABEL] : recurring && keys.includes(c) ? [`k${c}`] : [])), guarded: false };
  }
  if (readsNoCte(m)) return staticTags(m);
  const labelled = (s: Set<string>): boolean => s.has(LABEL) || s.has(REC_LABEL);
  switch (m.kind) {
    case 'Project': {
      const t = tags(m.input, keys, label);
      if (t === undefined) return undefined;
      const cols: Set<string>[] = [];
      for (const e of m.exprs) {
        if (e.kind === 'InputRef') { cols.push(new Set(t.cols[e.index]!)); continue; }
        if ([...rexInputs(e)].some((i) => labelled(t.cols[i]!))) return undefined;
        cols.push(new Set());
      }
      return { cols, guarded: t.guarded };
    }
    case 'Filter': {
      const t = tags(m.input, keys, label);
      return t === undefined ? undefined : condition(m.condition, t.cols, t.guarded);
    }
    case 'Join': {
      if (m.joinType !== 'inner' && m.joinType !== 'cross') return undefined;
      const l = tags(m.left, keys, label);
      const r = tags(m.right, keys, label);
      if (l === undefined || r === undefined) return undefined;
      return condition(m.condition, [...l.cols, ...r.cols], l.guarded || r.guarded);
    }
    default:
      return undefined;
  }
}

/** True when `m` reads no loop variable. */
function readsNoCte(m: RelNode): boolean {
  let found = false;
  rel.visit(m, (x) => { if (x.kind === 'FeedbackRef') found = true; });
  return !found;
}

/** A subtree that does not read the CTE: no tags. */
function staticTags(m: RelNode): { cols: Set<string>[]; guarded: boolean } {
  return { cols: m.schema.fields.map(() => new Set<string>()), guarded: false };
}

/**
 * The tags after a filter (or inner join) condition over columns `cols`: each conjunct is the guard (`label <
 * r.label`), an equality of two columns (their key tags are shared), or reads no label; anything else: undefined.
 */
function condition(cond: RexNode, cols: Set<string>[], guarded: boolean): { cols: Set<string>[]; guarded: boolean } | undefined {
  const out = cols.map((s) => new Set(s));
  let g = guarded;
  const ref = (e: RexNode | undefined): number | undefined => (e !== undefined && e.kind === 'InputRef' ? e.index : undefined);
  const labelled = (i: number): boolean => cols[i]!.has(LABEL) || cols[i]!.has(REC_LABEL);
  for (const c of conjuncts(cond)) {
    if (c.kind === 'Call' && c.args.length === 2) {
      const a = ref(c.args[0]);
      const b = ref(c.args[1]);
      if (a !== undefined && b !== undefined) {
        const [lo, hi] = c.op === 'lt' ? [a, b] : c.op === 'gt' ? [b, a] : [-1, -1];
        if (lo >= 0 && cols[lo]!.has(LABEL) && cols[hi]!.has(REC_LABEL)) { g = true; continue; }
        if (c.op === 'eq' && !labelled(a) && !labelled(b) && c.args[0]!.type === c.args[1]!.type) {
          const keyTags = [...out[a]!, ...out[b]!].filter((x) => x.startsWith('k'));
          for (const x of keyTags) { out[a]!.add(x); out[b]!.add(x); }
          continue;
        }
      }
    }
    if ([...rexInputs(c)].some(labelled)) return undefined;
  }
  return { cols: out, guarded: g };
}
