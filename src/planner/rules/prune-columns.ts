/**
 * prune-columns: each Project, Aggregate and semi/anti Join narrows its input to the columns it
 * reads — through Filter, Sort, Limit, Join, Union ALL and a USING SAMPLE node down to the nearest Scan / CacheSource
 * (`projection`), Project, Aggregate (unused agg calls dropped) or Values — renumbering references.
 * Every node keeps its own output schema. Runs after push-down-filter and push-down-limit, so it sees
 * filters and limits where they end up; merge-projects removes the identity Projects it may leave.
 */
import { InternalError } from '../../relnode/errors.js';
import {
  aggregate, cacheSource, filter, join, limit, project, scan, sort, transformDown, union, values,
  type Aggregate, type Join, type RelNode, type Union,
} from '../../relnode/rel.js';
import { tableFunction } from '../../relnode/table-function.js';
import { window, type Window } from '../../relnode/window.js';
import { assertNever, inputRef, rexInputs, rexShift } from '../../relnode/rex.js';
import type { Rule } from '../rule.js';

/** Narrows every subtree to the columns its consumer reads, top-down. */
export const pruneColumns: Rule = {
  name: 'prune-columns',
  description: 'Narrows scans, cache sources, projects and aggregates to the columns their consumers read; runs after the pushdowns, before remove-empty-relations; merge-projects cleans up.',
  rewrite(root) {
    return transformDown(root, pruneInputs);
  },
};

/**
 * A subtree narrowed to some of its columns: `node` outputs exactly the old ordinals `kept`
 * (ascending), a superset of what was asked for.
 */
interface Narrowed {
  readonly node: RelNode;
  readonly kept: readonly number[];
}

/** Narrows the inputs of the nodes that read only some of their input columns. */
function pruneInputs(n: RelNode): RelNode {
  switch (n.kind) {
    case 'Project': {
      const r = narrow(n.input, needed(n.exprs.flatMap((e) => [...rexInputs(e)]), n.input));
      if (r.node === n.input) return n;
      const m = ordinalMap(r.kept);
      return project(r.node, n.exprs.map((e) => rexShift(e, m)), n.schema.fields.map((f) => f.name));
    }
    case 'Aggregate': {
      const r = narrow(n.input, needed([...n.groupKeys, ...n.aggCalls.flatMap((a) => a.args)], n.input));
      if (r.node === n.input) return n;
      const m = ordinalMap(r.kept);
      return aggregate(r.node, n.groupKeys.map(m), n.aggCalls.map((a) => ({ ...a, args: a.args.map(m) })));
    }
    case 'Join':
      // A semi/anti join outputs only its left columns: its right side needs just the condition's columns.
      return n.joinType === 'semi' || n.joinType === 'anti' ? narrowJoin(n, allOf(n.schema.fields.length)).node : n;
    default:
      return n;
  }
}

/** Sorted, deduplicated ordinals; at least one column (the first) so a narrowed node still carries its row count. */
function needed(ordinals: Iterable<number>, of: RelNode): number[] {
  const s = [...new Set(ordinals)].sort((a, b) => a - b);
  return s.length === 0 && of.schema.fields.length > 0 ? [0] : s;
}

function allOf(width: number): number[] {
  return Array.from({ length: width }, (_, i) => i);
}

function ordinalMap(kept: readonly number[]): (i: number) => number {
  const m = new Map(kept.map((k, j) => [k, j]));
  return (i) => {
    const j = m.get(i);
    if (j === undefined) throw new InternalError(`prune-columns dropped column $${i} that is still read`);
    return j;
  };
}

/**
 * Narrows `n` to (at least) the columns `want` (sorted ordinals). Descends through nodes that
 * pass columns through (Filter, Sort, Limit, Join, Union ALL) to the nearest node that can drop
 * columns itself; Distinct, UNION, set operations and cache sinks need all their columns.
 */
function narrow(n: RelNode, want: readonly number[]): Narrowed {
  const width = n.schema.fields.length;
  const unchanged: Narrowed = { node: n, kept: allOf(width) };
  if (want.length === width) return unchanged;
  switch (n.kind) {
    case 'Scan': {
      const base = n.projection ?? allOf(n.table.schema.fields.length);
      return { node: scan(n.table, want.map((i) => base[i]!), n.pushedFilters), kept: want };
    }
    case 'CacheSource': {
      const base = n.projection ?? allOf(n.original.schema.fields.length);
      return { node: cacheSource(n.entryId, n.original, want.map((i) => base[i]!), n.pushedFilters), kept: want };
    }
    case 'Values':
      return { node: values(n.rows.map((r) => want.map((i) => r[i]!)), { fields: want.map((i) => n.schema.fields[i]!) }), kept: want };
    case 'Project':
      return { node: project(n.input, want.map((i) => n.exprs[i]!), want.map((i) => n.schema.fields[i]!.name)), kept: want };
    case 'Aggregate':
      return narrowAggregate(n, want);
    case 'Filter': {
      const r = narrow(n.input, needed([...want, ...rexInputs(n.condition)], n.input));
      return r.node === n.input ? unchanged : { node: filter(r.node, rexShift(n.condition, ordinalMap(r.kept))), kept: r.kept };
    }
    case 'Sort': {
      const r = narrow(n.input, needed([...want, ...n.keys.map((k) => k.index)], n.input));
      if (r.node === n.input) return unchanged;
      const m = ordinalMap(r.kept);
      return { node: sort(r.node, n.keys.map((k) => ({ ...k, index: m(k.index) })), n.fetch, n.offset), kept: r.kept };
    }
    case 'Limit': {
      const r = narrow(n.input, want);
      return r.node === n.input ? unchanged : { node: limit(r.node, n.fetch, n.offset), kept: r.kept };
    }
    case 'Join':
      return narrowJoin(n, want);
    case 'Union':
      return n.all ? narrowUnion(n, want) : unchanged;
    case 'Window':
      return narrowWindow(n, want);
    case 'TableFunction': {
      // A row subset with the input's columns (USING SAMPLE) narrows like a Limit; other functions keep every column.
      if (n.columnsPassThrough !== true) return unchanged;
      const r = narrow(n.inputs[0]!, want);
      return r.node === n.inputs[0] ? unchanged : { node: tableFunction(n.name, [r.node], n.args, r.node.schema, n.impl, n.deterministic, true), kept: r.kept };
    }
    case 'Distinct': case 'SetOp': case 'CacheSink': case 'Correlate': case 'GroupLimit':
    // An iteration's variables and body keep every column (the next value must match the variable).
    case 'Iterate': case 'FeedbackRef': case 'DataRef':
      return unchanged;
    default:
      return assertNever(n, 'RelNode');
  }
}

/** Keeps the partition and order keys, the wanted input columns and the wanted calls (at least one) with their arguments. */
function narrowWindow(n: Window, want: readonly number[]): Narrowed {
  const inW = n.input.schema.fields.length;
  let calls = n.calls.map((_, j) => j).filter((j) => want.includes(inW + j));
  if (calls.length === 0) calls = [0];
  const reads = [...want.filter((i) => i < inW), ...n.partitionKeys, ...n.orderKeys.map((k) => k.index), ...calls.flatMap((j) => n.calls[j]!.args)];
  const r = narrow(n.input, needed(reads, n.input));
  if (r.node === n.input && calls.length === n.calls.length) return { node: n, kept: allOf(n.schema.fields.length) };
  const m = ordinalMap(r.kept);
  const node = window(r.node, n.partitionKeys.map(m), n.orderKeys.map((k) => ({ ...k, index: m(k.index) })), calls.map((j) => ({ ...n.calls[j]!, args: n.calls[j]!.args.map(m) })));
  return { node, kept: [...r.kept, ...calls.map((j) => inW + j)] };
}

/** Keeps every group key (they define the groups) and the wanted aggregate calls. */
function narrowAggregate(a: Aggregate, want: readonly number[]): Narrowed {
  const k = a.groupKeys.length;
  const calls = want.filter((i) => i >= k);
  if (k + calls.length === a.schema.fields.length) return { node: a, kept: allOf(a.schema.fields.length) };
  const kept = [...allOf(k), ...calls];
  return { node: aggregate(a.input, a.groupKeys, calls.map((i) => a.aggCalls[i - k]!)), kept };
}

/** Narrows each side to the wanted columns on that side plus the condition's. */
function narrowJoin(j: Join, want: readonly number[]): Narrowed {
  const L = j.left.schema.fields.length;
  const semi = j.joinType === 'semi' || j.joinType === 'anti';
  const cond = [...rexInputs(j.condition)];
  const l = narrow(j.left, needed([...want.filter((i) => i < L), ...cond.filter((i) => i < L)], j.left));
  const r = narrow(j.right, needed([...want.filter((i) => i >= L), ...cond.filter((i) => i >= L)].map((i) => i - L), j.right));
  if (l.node === j.left && r.node === j.right) return { node: j, kept: allOf(j.schema.fields.length) };
  const lm = ordinalMap(l.kept);
  const rm = ordinalMap(r.kept);
  const nl = l.kept.length;
  const condition = rexShift(j.condition, (i) => (i < L ? lm(i) : nl + rm(i - L)));
  const kept = semi ? l.kept : [...l.kept, ...r.kept.map((i) => i + L)];
  return { node: join(l.node, r.node, j.joinType, condition), kept };
}

/**
 * Narrows every branch of a UNION ALL to exactly the wanted columns; a branch that cannot
 * narrow that far gets a Project on top. Unchanged when no branch can narrow at all.
 */
function narrowUnion(u: Union, want: readonly number[]): Narrowed {
  const rs = u.inputs.map((b) => narrow(b, want));
  if (rs.every((r, i) => r.node === u.inputs[i])) return { node: u, kept: allOf(u.schema.fields.length) };
  const branches = rs.map((r) => {
    if (r.kept.length === want.length) return r.node;
    const m = ordinalMap(r.kept);
    const fields = r.node.schema.fields;
    return project(r.node, want.map((i) => inputRef(m(i), fields[m(i)]!.type)), want.map((i) => fields[m(i)]!.name));
  });
  return { node: union(branches, true), kept: want };
}
