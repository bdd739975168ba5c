/**
 * push-down-filter: moves deterministic filter conjuncts towards the sources — through Project
 * (substituting its expressions), Join (by side, respecting outer joins; a both-sides conjunct over
 * a cross join becomes its inner-join condition), Union, Sort without fetch, Distinct, Aggregate
 * (group-key conjuncts), and copies them into Scan / CacheSource `pushedFilters` (the Filter stays).
 * Runs after merge-filters, before prune-columns (pruning must see where each filter ends up).
 */
import { formEqual } from '../../relnode/canonical.js';
import { canonicalRex } from '../../relnode/digest.js';
import {
  aggregate, cacheSource, distinct, filter, join, project, scan, sort, transformDown, union,
  type Aggregate, type CacheSource, type Filter, type Join, type JoinType, type Project, type RelNode, type Scan, type Union,
} from '../../relnode/rel.js';
import { andAll, conjuncts, rexInputs, rexShift, type RexNode } from '../../relnode/rex.js';
import { isDeterministicRex, substituteRefs, type Rule } from '../rule.js';

/** Pushes filter conjuncts (and one-sided join-condition conjuncts) down the tree, top-down. */
export const pushDownFilter: Rule = {
  name: 'push-down-filter',
  description: 'Pushes deterministic filter conjuncts through Project/Join/Union/Sort/Distinct/Aggregate and into scans; needs merge-filters first and feeds prune-columns.',
  rewrite(root) {
    return transformDown(root, (n) => {
      if (n.kind === 'Filter') return pushFilter(n);
      if (n.kind === 'Join') return pushThroughJoin([], n);
      return n;
    });
  },
};

function pushFilter(f: Filter): RelNode {
  const input = f.input;
  const cs = conjuncts(f.condition);
  switch (input.kind) {
    case 'Project': return pushThroughProject(f, cs, input);
    case 'Join': return pushThroughJoin(cs, input, f);
    case 'Union': return pushThroughUnion(f, cs, input);
    case 'Sort':
      if (input.fetch !== undefined || input.offset) return f;
      return rebuild(f, cs, () => true, (down) => sort(addFilter(input.input, down), input.keys));
    case 'Distinct':
      return rebuild(f, cs, () => true, (down) => distinct(addFilter(input.input, down)));
    case 'Aggregate': return pushThroughAggregate(f, cs, input);
    case 'Scan': return pushIntoScan(f, cs, input);
    case 'CacheSource': return pushIntoCacheSource(f, cs, input);
    default: return f;
  }
}

/**
 * Splits conjuncts into those that may go below (deterministic and accepted by `canPush`)
 * and those that stay; rebuilds as Filter(stay, build(pushed)) or returns `f` when none move.
 */
function rebuild(f: Filter, cs: readonly RexNode[], canPush: (c: RexNode) => boolean, build: (down: RexNode[]) => RelNode): RelNode {
  const down: RexNode[] = [];
  const stay: RexNode[] = [];
  for (const c of cs) (isDeterministicRex(c) && canPush(c) ? down : stay).push(c);
  if (down.length === 0) return f;
  const below = build(down);
  return stay.length > 0 ? filter(below, andAll(stay)) : below;
}

/** Through a Project: a conjunct goes below when the expressions it reads are deterministic; it is rewritten over the Project's input. */
function pushThroughProject(f: Filter, cs: readonly RexNode[], p: Project): RelNode {
  const canPush = (c: RexNode): boolean => [...rexInputs(c)].every((i) => isDeterministicRex(p.exprs[i]!));
  return rebuild(f, cs, canPush, (down) => {
    const inner = addFilter(p.input, down.map((c) => substituteRefs(c, p.exprs)));
    return project(inner, p.exprs, p.schema.fields.map((x) => x.name));
  });
}

/** Join types through which a conjunct on one side may move into that side. */
const ABOVE_TO_LEFT: ReadonlySet<JoinType> = new Set(['inner', 'cross', 'left', 'semi', 'anti']);
const ABOVE_TO_RIGHT: ReadonlySet<JoinType> = new Set(['inner', 'cross', 'right']);
const ON_TO_LEFT: ReadonlySet<JoinType> = new Set(['inner', 'cross', 'right', 'semi']);
const ON_TO_RIGHT: ReadonlySet<JoinType> = new Set(['inner', 'cross', 'left', 'semi', 'anti']);

type Side = 'left' | 'right' | 'both' | 'none';

function sideOf(e: RexNode, leftWidth: number): Side {
  let l = false;
  let r = false;
  for (const i of rexInputs(e)) {
    if (i < leftWidth) l = true;
    else r = true;
  }
  return l && r ? 'both' : l ? 'left' : r ? 'right' : 'none';
}

/**
 * Through a Join: conjuncts from the filter above (`above`) and one-sided conjuncts of the
 * join condition move into the side they read, where the join type allows it (a filter above
 * an outer join may not touch its null-supplying side; an ON conjunct may not filter the
 * preserved side). Both-sides conjuncts above an inner or cross join join its condition.
 */
function pushThroughJoin(above: readonly RexNode[], j: Join, f?: Filter): RelNode {
  const L = j.left.schema.fields.length;
  const t = j.joinType;
  const toLeft: RexNode[] = [];
  const toRight: RexNode[] = [];
  const toOn: RexNode[] = [];
  const stay: RexNode[] = [];
  const toRightSide = (c: RexNode): RexNode => rexShift(c, (i) => i - L);
  for (const c of above) {
    const side = isDeterministicRex(c) ? sideOf(c, L) : 'none';
    if (side === 'left' && ABOVE_TO_LEFT.has(t)) toLeft.push(c);
    else if (side === 'right' && ABOVE_TO_RIGHT.has(t)) toRight.push(toRightSide(c));
    else if (side === 'both' && (t === 'inner' || t === 'cross')) toOn.push(c);
    else stay.push(c);
  }
  const on: RexNode[] = [];
  for (const c of conjuncts(j.condition)) {
    const side = isDeterministicRex(c) ? sideOf(c, L) : 'none';
    if (side === 'left' && ON_TO_LEFT.has(t)) toLeft.push(c);
    else if (side === 'right' && ON_TO_RIGHT.has(t)) toRight.push(toRightSide(c));
    else on.push(c);
  }
  if (toLeft.length + toRight.length + toOn.length === 0) return f ?? j;
  const type: JoinType = t === 'cross' && toOn.length > 0 ? 'inner' : t;
  const nj = join(addFilter(j.left, toLeft), addFilter(j.right, toRight), type, andAll([...on, ...toOn]));
  return stay.length > 0 ? filter(nj, andAll(stay)) : nj;
}

/** Into every branch of a Union, when each branch types the columns read exactly as the union does. */
function pushThroughUnion(f: Filter, cs: readonly RexNode[], u: Union): RelNode {
  const fields = u.schema.fields;
  const typesAgree = (c: RexNode): boolean =>
    [...rexInputs(c)].every((i) => u.inputs.every((b) => b.schema.fields[i]!.type === fields[i]!.type));
  return rebuild(f, cs, typesAgree, (down) => union(u.inputs.map((b) => addFilter(b, down)), u.all));
}

/** Below an Aggregate: conjuncts that read only group keys (and at least one), rewritten over the input. */
function pushThroughAggregate(f: Filter, cs: readonly RexNode[], a: Aggregate): RelNode {
  const k = a.groupKeys.length;
  const onKeys = (c: RexNode): boolean => {
    const refs = [...rexInputs(c)];
    return refs.length > 0 && refs.every((i) => i < k);
  };
  return rebuild(f, cs, onKeys, (down) => {
    const inner = addFilter(a.input, down.map((c) => rexShift(c, (i) => a.groupKeys[i]!)));
    return aggregate(inner, a.groupKeys, a.aggCalls);
  });
}

/**
 * A source's `pushedFilters` plus the deterministic conjuncts not yet among them, rewritten over
 * the source's full schema; undefined when there is nothing new. The Filter above stays: a
 * source may only use these to skip data. A conjunct identical (as a tree) to a pushed one is
 * known without canonical text, and a single conjunct into a source with none needs no
 * comparison at all: canonical text is computed only to compare conjuncts that differ (it was
 * ~15% of a 10-row query's time, computed again by the pass that confirms the fixpoint).
 */
function newPushed(cs: readonly RexNode[], projection: readonly number[] | undefined, existing: readonly RexNode[] | undefined): RexNode[] | undefined {
  const candidates: RexNode[] = [];
  for (const c of cs) {
    if (!isDeterministicRex(c)) continue;
    const over = projection ? rexShift(c, (i) => projection[i]!) : c;
    if (existing !== undefined && existing.some((e) => sameTree(e, over))) continue;
    if (candidates.some((e) => sameTree(e, over))) continue;
    candidates.push(over);
  }
  if (candidates.length === 0) return undefined;
  const base = existing ?? [];
  if (base.length + candidates.length === 1) return [...candidates];
  const have = new Set(base.map(canonicalRex));
  const add: RexNode[] = [];
  for (const over of candidates) {
    const key = canonicalRex(over);
    if (have.has(key)) continue;
    have.add(key);
    add.push(over);
  }
  return add.length > 0 ? [...base, ...add] : undefined;
}

/** Two expressions equal as trees (no normalization); a Subquery is never "the same" here (the caller compares canonically). */
function sameTree(a: RexNode, b: RexNode): boolean {
  return formEqual(a, b, () => false);
}

function pushIntoScan(f: Filter, cs: readonly RexNode[], s: Scan): RelNode {
  const pushed = newPushed(cs, s.projection, s.pushedFilters);
  return pushed ? filter(scan(s.table, s.projection, pushed), f.condition) : f;
}

function pushIntoCacheSource(f: Filter, cs: readonly RexNode[], s: CacheSource): RelNode {
  const pushed = newPushed(cs, s.projection, s.pushedFilters);
  return pushed ? filter(cacheSource(s.entryId, s.original, s.projection, pushed), f.condition) : f;
}

/**
 * Puts conjuncts on top of `input`: the input itself when there are none, merged
 * into the input's condition when the input is already a Filter, else a new Filter.
 * Repeated deterministic conjuncts are kept once.
 */
function addFilter(input: RelNode, cs: readonly RexNode[]): RelNode {
  if (cs.length === 0) return input;
  const base = input.kind === 'Filter' ? input.input : input;
  const all = input.kind === 'Filter' ? [...conjuncts(input.condition), ...cs] : cs;
  const seen = new Set<string>();
  const unique = all.filter((c) => {
    if (!isDeterministicRex(c)) return true;
    const key = canonicalRex(c);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return filter(base, andAll(unique));
}
