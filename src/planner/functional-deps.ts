/**
 * Functional dependencies between a plan's output columns: which columns one column's value fixes.
 * `determined(n, c)` is the set of output columns of `n` that have one value wherever column `c`
 * has one value (c included). The GROUP BY rule uses it (rules/reduce-group-keys.ts): a group key
 * that another key determines is not needed in the hash key.
 *
 * Where dependencies come from:
 * - a scan column that statistics prove unique (no NULL, no repeat: io/unique.ts) fixes the row,
 *   so every column of the scan;
 * - a plain column equality `a = b` that rows must satisfy (an inner join's condition, a Filter's
 *   conjunct): each fixes the other;
 * - a single group key fixes an aggregate's whole output row.
 * They survive Filters, Sorts, Limits, column-only Projects (and expressions over determined
 * columns), and both sides of joins: a row of a join output concatenates one row of each side, so
 * what fixes a side's row still does — outer joins too, whose padded rows are all NULL on the
 * padded side. Equalities cross sides only in inner joins, where every output row satisfies them.
 *
 * Decision: closures of single columns only (no composite keys), computed lazily per (node, column)
 * and memoized per node object: only the group keys' closures are asked for, so statistics of
 * other columns (a pass over lineitem's comment strings) are never computed for this.
 */
import type { RelNode } from '../relnode/rel.js';
import { conjuncts, rexInputs, type RexNode } from '../relnode/rex.js';
import type { TableSource } from '../io/source.js';
import { isDeterministicRex } from './rule.js';

/** Column types whose statistics can prove uniqueness (io/unique.ts: integer-valued columns). */
const KEY_TYPES = new Set(['INTEGER', 'BIGINT', 'DATE', 'TIMESTAMP']);

const memo = new WeakMap<RelNode, Map<number, ReadonlySet<number>>>();

/** The output columns of `n` that output column `c` determines (always including `c`). */
export function determined(n: RelNode, c: number): ReadonlySet<number> {
  let m = memo.get(n);
  if (m === undefined) { m = new Map(); memo.set(n, m); }
  let s = m.get(c);
  if (s === undefined) {
    // A placeholder first: a plan is a tree, so no closure asks for itself, but be safe.
    m.set(c, new Set([c]));
    s = compute(n, c);
    m.set(c, s);
  }
  return s;
}

/**
 * Whether output column `c` of `n` holds no NULL and no value twice: a scan column that statistics
 * prove unique (io/unique.ts), through Filters, Sorts, Limits and Projects that pass it on (none
 * of them repeats a row). Joins and aggregates answer false (a join may repeat a side's row).
 */
export function uniqueColumn(n: RelNode, c: number): boolean {
  switch (n.kind) {
    case 'Scan': {
      if (!KEY_TYPES.has(n.schema.fields[c]!.type)) return false;
      const stats = (n.table.handle as TableSource).statistics?.();
      return stats?.unique?.(n.projection ? n.projection[c]! : c) === true;
    }
    case 'Filter': case 'Sort': case 'Limit':
      return uniqueColumn(n.input, c);
    case 'Project': {
      const e = n.exprs[c]!;
      return e.kind === 'InputRef' && uniqueColumn(n.input, e.index);
    }
    default:
      return false;
  }
}

function all(width: number): Set<number> {
  return new Set(Array.from({ length: width }, (_, i) => i));
}

/** Plain column equalities among the conjuncts of `cond` (`a = b`, both InputRefs of one type). */
function equalities(cond: RexNode): [number, number][] {
  const out: [number, number][] = [];
  for (const c of conjuncts(cond)) {
    if (c.kind !== 'Call' || c.op !== 'eq') continue;
    const [a, b] = c.args;
    if (a?.kind === 'InputRef' && b?.kind === 'InputRef' && a.type === b.type) out.push([a.index, b.index]);
  }
  return out;
}

/**
 * Closes `start` under `equal` pairs and a per-column closure `of` (columns of the same output):
 * whatever a member determines, and whatever a member equals, joins the set.
 */
function close(start: ReadonlySet<number>, equal: readonly [number, number][], of: (c: number) => ReadonlySet<number>): Set<number> {
  const s = new Set(start);
  let changed = equal.length > 0;
  while (changed) {
    changed = false;
    for (const [a, b] of equal) {
      const from = s.has(a) && !s.has(b) ? b : s.has(b) && !s.has(a) ? a : -1;
      if (from < 0) continue;
      for (const x of of(from)) if (!s.has(x)) { s.add(x); changed = true; }
      if (!s.has(from)) { s.add(from); changed = true; }
    }
  }
  return s;
}

function compute(n: RelNode, c: number): ReadonlySet<number> {
  const width = n.schema.fields.length;
  switch (n.kind) {
    case 'Scan': {
      const f = n.schema.fields[c]!;
      if (!KEY_TYPES.has(f.type)) return new Set([c]);
      const stats = (n.table.handle as TableSource).statistics?.();
      const col = n.projection ? n.projection[c]! : c;
      return stats?.unique?.(col) === true ? all(width) : new Set([c]);
    }
    case 'Filter':
      return close(determined(n.input, c), equalities(n.condition), (x) => determined(n.input, x));
    case 'Sort': case 'Limit':
      return determined(n.input, c);
    case 'Project': {
      const e = n.exprs[c]!;
      if (e.kind !== 'InputRef') return new Set([c]);
      const inner = determined(n.input, e.index);
      const out = new Set<number>();
      n.exprs.forEach((x, j) => {
        if (x.kind === 'InputRef' ? inner.has(x.index) : isDeterministicRex(x) && [...rexInputs(x)].every((i) => inner.has(i))) out.add(j);
      });
      out.add(c);
      return out;
    }
    case 'Join': {
      const lw = n.left.schema.fields.length;
      if (n.joinType === 'semi' || n.joinType === 'anti') return determined(n.left, c);
      const side = (x: number): ReadonlySet<number> => (x < lw ? determined(n.left, x) : shift(determined(n.right, x - lw), lw));
      if (n.joinType !== 'inner' && n.joinType !== 'cross') return side(c);
      return close(side(c), equalities(n.condition), side);
    }
    case 'Aggregate': {
      const keys = n.groupKeys.length;
      if (c >= keys) return new Set([c]);
      if (keys === 1) return all(width);
      // A key that determines every other group key fixes the group, so the whole output row.
      const inner = determined(n.input, n.groupKeys[c]!);
      const out = new Set<number>([c]);
      n.groupKeys.forEach((k, j) => { if (inner.has(k)) out.add(j); });
      return out.size === keys ? all(width) : out;
    }
    default:
      return new Set([c]);
  }
}

function shift(s: ReadonlySet<number>, by: number): Set<number> {
  const out = new Set<number>();
  for (const x of s) out.add(x + by);
  return out;
}
