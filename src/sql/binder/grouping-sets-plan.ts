/**
 * The plan of GROUP BY ROLLUP / CUBE / GROUPING SETS (binder/aggregate.ts `build`): every set's
 * rows in one layout — the keys (NULL where the set leaves them out), the set's ordinal, then the
 * aggregate calls — as a UNION ALL of one branch per set.
 *
 * Decision: the input is aggregated once, at the finest grouping (every key), into decomposable
 * partial states, and each other set aggregates those states again by its own keys: count and
 * count(*) sum their counts, sum sums, min / max / bool_and / bool_or repeat themselves, avg keeps
 * a sum and a count and divides them in the branch's projection. A set reads the states of the
 * smallest set already built that holds all its keys (CUBE (a, b, c): (a) from (a, b), () from
 * (a)), so later sets read few rows; the set with every key is the finest Aggregate itself. Each
 * Aggregate node is one object wherever it is read, and lowering computes it once and fans its
 * output out (planner/lower-shared.ts; EXPLAIN's physical plan names the repeats `shared:
 * HashAggregate#n`); at parallelism 2 the finest Aggregate is the one worker stage
 * (planner/ship-shared.ts). Before, each set was an Aggregate of its own over the input, so the
 * input and every join below it ran once per set: at SF 1, ROLLUP of 2 keys over lineitem took
 * 2.5x the CPU of the plain GROUP BY, CUBE of 3 keys 13x (bench/grouping-sets.ts,
 * docs/bench-history.md "rollup"). The alternative, one operator that inserts each input row into
 * one hash table per set (DuckDB's), does per-row work once per set too and would need a worker
 * stage split of its own; the finest Aggregate keeps every fast path of a plain one (fused filter
 * and sums, key paths, the partial stage at parallelism 2), and the other sets' work is over
 * groups, not input rows. Its cost: when the finest grouping has about a group per input row,
 * the coarser sets read that many groups instead of the scan (no faster than before, there).
 *
 * The states are the plain ones (the finest Aggregate still splits into a partial worker stage):
 * a DOUBLE sum (and avg's) adds the finer groups' rounded sums, within a rounding or two of the
 * direct sum, as a different row order gives (planner/rules/roll-up-scalar-aggregate.ts accepts
 * the same); an avg over INTEGER divides its exact BIGINT sum as a DOUBLE (the same bits as
 * AvgIntState while the sum is below 2^53). BIGINT sums need more: a finest group's total past
 * 2^63 must not fail a query whose sets' totals fit, so when the finest grouping is not one of
 * the sets, a BIGINT sum travels as the two 64-bit words of its exact 128-bit total (`sum_low64`,
 * `sum_high64`, added by `sum_parts`), as an avg over BIGINT always does (`avg_parts`); words do
 * not merge again, so then every set rolls up from the finest grouping. The count of an empty set
 * is coalesced to 0 (a global sum over no groups is NULL).
 *
 * Calls that do not decompose — DISTINCT, ordered aggregates, median / quantiles, mode,
 * string_agg, first / last / any_value, arg_min / arg_max, the variances — and a single set
 * (nothing to share) fall back to one Aggregate per set over the input, as before. FILTER
 * clauses arrive as CASE arguments (sql/cst-agg-clauses.ts), so they decompose with their call.
 */
import * as rel from '../../relnode/rel.js';
import type { AggCall, RelNode } from '../../relnode/rel.js';
import { call, cast, inputRef, literal, type RexNode } from '../../relnode/rex.js';
import { union } from '../../relnode/set-ops.js';
import type { SqlType } from '../../relnode/types.js';

/** The layout's names: keys, set ordinal, calls. */
export interface SetsLayout {
  /** The input's column names (keys first). */
  readonly names: readonly string[];
  readonly keyCount: number;
  readonly setColumn: string;
  readonly callNames: readonly string[];
}

/**
 * How one call rolls up. Its partial states are `partial.length` columns; `merge` aggregates such
 * columns (from the first at `p`) into the same columns one level coarser, and `value` reads the
 * call's value from them. Calls whose states are 128-bit words have no merge: they roll up from the
 * finest grouping only, by `final` (exact sums of the words).
 */
interface Rollup {
  /** Calls of the finest Aggregate (over the input). */
  readonly partial: readonly AggCall[];
  readonly merge?: (p: number) => readonly AggCall[];
  /** The call's value over its partial states at `f`, or (with `final`) over its final column; `emptySet`: the row of an empty set. */
  readonly value: (f: number, emptySet: boolean) => RexNode;
  readonly final?: (p: number) => AggCall;
}

function agg(fn: AggCall['fn'], args: readonly number[], type: SqlType, name: string): AggCall {
  return { fn, args, distinct: false, type, name };
}

/** `r` with every call it derives from `c` carrying c's SQL place (a merge's or final's overflow raises about `c`). */
function located(r: Rollup | undefined, c: AggCall): Rollup | undefined {
  if (r === undefined || c.at === undefined) return r;
  const { merge, final } = r;
  return {
    ...r,
    partial: rel.withCallSpan(r.partial, c.at),
    ...(merge !== undefined ? { merge: (p: number) => rel.withCallSpan(merge(p), c.at) } : {}),
    ...(final !== undefined ? { final: (p: number) => rel.withCallSpan([final(p)], c.at)[0]! } : {}),
  };
}

/** How call `c` (number `j`) rolls up, or undefined when it does not decompose. */
function rollupOf(c: AggCall, input: RelNode, j: number, finestIsSet: boolean): Rollup | undefined {
  if (c.distinct || (c.order !== undefined && c.order.length > 0)) return undefined;
  const argType = c.args.length > 0 ? input.schema.fields[c.args[0]!]!.type : undefined;
  const ref = (f: number): RexNode => inputRef(f, c.type, c.name);
  const same = (fn: AggCall['fn'], type: SqlType): Rollup => ({ partial: [{ ...c, name: `__p${j}` }], merge: (p) => [agg(fn, [p], type, `__p${j}`)], value: ref });
  const mean = (sumType: SqlType) => (f: number): RexNode =>
    call('divide', [sumType === 'DOUBLE' ? inputRef(f, 'DOUBLE') : cast(inputRef(f, sumType), 'DOUBLE'), cast(inputRef(f + 1, 'BIGINT'), 'DOUBLE')], 'DOUBLE');
  switch (c.fn) {
    case 'count': case 'count_star':
      return { ...same('sum', 'BIGINT'), value: (f, empty) => (empty ? call('coalesce', [ref(f), literal(0, 'BIGINT')], 'BIGINT') : ref(f)) };
    case 'min': case 'max': case 'bool_and': case 'bool_or':
      return same(c.fn, c.type);
    case 'sum':
      if (c.type === 'BIGINT' && argType === 'BIGINT' && !finestIsSet) {
        return {
          partial: [agg('sum_low64', c.args, 'BIGINT', `__p${j}`), agg('sum_high64', c.args, 'BIGINT', `__p${j}h`)],
          final: (p) => agg('sum_parts', [p, p + 1], 'BIGINT', c.name),
          value: ref,
        };
      }
      return c.type === 'BIGINT' || c.type === 'DOUBLE' ? same('sum', c.type) : undefined;
    case 'avg': {
      if (c.type !== 'DOUBLE') return undefined;
      const count = agg('count', c.args, 'BIGINT', `__p${j}c`);
      if (argType === 'BIGINT') {
        return {
          partial: [agg('sum_low64', c.args, 'BIGINT', `__p${j}`), agg('sum_high64', c.args, 'BIGINT', `__p${j}h`), count],
          final: (p) => agg('avg_parts', [p, p + 1, p + 2], 'DOUBLE', c.name),
          value: ref,
        };
      }
      const sumType = argType === 'INTEGER' ? 'BIGINT' : argType === 'DOUBLE' || argType === 'NULL' ? 'DOUBLE' : undefined;
      if (sumType === undefined) return undefined;
      return {
        partial: [agg('sum', c.args, sumType, `__p${j}`), count],
        merge: (p) => [agg('sum', [p], sumType, `__p${j}`), agg('sum', [p + 1], 'BIGINT', `__p${j}c`)],
        value: mean(sumType),
      };
    }
    default: return undefined;
  }
}

/** One set's rows in the common layout over `node`, which outputs the set's keys (in `set`'s order) then what `values` read. */
function toLayout(node: RelNode, set: readonly number[], id: number, keyTypes: readonly SqlType[], values: readonly RexNode[], layout: SetsLayout): RelNode {
  return rel.project(node, [
    ...keyTypes.map((t, i) => (set.includes(i) ? inputRef(set.indexOf(i), t, layout.names[i]) : literal(null, t))),
    literal(id, 'INTEGER'),
    ...values,
  ], [...layout.names.slice(0, layout.keyCount), layout.setColumn, ...layout.callNames]);
}

/** A node of partial states: its group keys (key ordinals, in output order), then every call's partial columns. */
interface Partials { readonly node: RelNode; readonly keys: readonly number[] }

/**
 * The grouping sets' plan over `pre` (keys first, then the calls' arguments): the finest
 * Aggregate shared by every set when every call decomposes and there is more than one set;
 * otherwise one Aggregate per set over `pre`.
 *
 * When every call's states merge, a set reads the partial states of the set with the fewest keys
 * among those already built that hold all of its keys (CUBE (a, b, c): (a) from (a, b), () from
 * (a)), so a set's Aggregate reads fewer rows than the finest grouping has; the set that has every
 * key is the finest Aggregate itself (no second aggregation of its groups: with a group per input
 * row that doubled the work, bench/grouping-sets.ts `rollup2-rows`).
 */
export function groupingSetsPlan(pre: RelNode, sets: readonly (readonly number[])[], calls: readonly AggCall[], layout: SetsLayout): RelNode {
  const keyTypes = pre.schema.fields.slice(0, layout.keyCount).map((f) => f.type);
  const finestKeys = keyTypes.map((_, i) => i).filter((i) => sets.some((s) => s.includes(i)));
  const finestIsSet = sets.some((s) => finestKeys.every((k) => s.includes(k)));
  const rollups = calls.map((c, j) => located(rollupOf(c, pre, j, finestIsSet), c));
  if (sets.length < 2 || finestKeys.length === 0 || rollups.some((r) => r === undefined)) {
    const branches = sets.map((set, id) => toLayout(rel.aggregate(pre, set, calls), set, id, keyTypes, calls.map((c, j) => inputRef(set.length + j, c.type, c.name)), layout));
    return branches.length === 1 ? branches[0]! : union(branches, true);
  }
  const rs = rollups as Rollup[];
  const offsets: number[] = [];
  let width = 0;
  for (const r of rs) { offsets.push(width); width += r.partial.length; }
  const finest: Partials = { node: rel.aggregate(pre, finestKeys, rs.flatMap((r) => r.partial)), keys: finestKeys };
  const nodes: (RelNode | undefined)[] = new Array(sets.length);
  if (rs.every((r) => r.merge !== undefined)) {
    // Sets with more keys first, so each finds its smallest built superset.
    const order = sets.map((_, id) => id).sort((x, y) => sets[y]!.length - sets[x]!.length);
    const built: Partials[] = [finest];
    for (const id of order) {
      const set = sets[id]!;
      const holds = (p: Partials): boolean => set.every((k) => p.keys.includes(k));
      const from = built.filter(holds).reduce((a, b) => (b.keys.length < a.keys.length ? b : a));
      // The same keys as a built set (a duplicate set, or its keys in another order): its states, keys reordered.
      const same = from.keys.length === set.length;
      const columns = [...set.map((k) => from.keys.indexOf(k)), ...Array.from({ length: width }, (_, i) => from.keys.length + i)];
      const fields = from.node.schema.fields;
      const node = !same ? rel.aggregate(from.node, set.map((k) => from.keys.indexOf(k)), rs.flatMap((r, j) => r.merge!(from.keys.length + offsets[j]!)))
        : columns.every((c, i) => c === i) ? from.node
          : rel.project(from.node, columns.map((c) => inputRef(c, fields[c]!.type)), columns.map((c) => fields[c]!.name));
      if (!same) built.push({ node, keys: set });
      nodes[id] = toLayout(node, set, id, keyTypes, rs.map((r, j) => r.value(set.length + offsets[j]!, set.length === 0)), layout);
    }
  } else {
    // 128-bit words do not merge: every set adds up the finest groups' states into final values.
    // Its columns: one final value per word-valued call, the merged partial states of the others.
    for (const [id, set] of sets.entries()) {
      const node = rel.aggregate(finest.node, set.map((k) => finestKeys.indexOf(k)), rs.flatMap((r, j) => (r.final ? [r.final(finestKeys.length + offsets[j]!)] : r.merge!(finestKeys.length + offsets[j]!))));
      let f = set.length;
      const values = rs.map((r) => {
        const v = r.value(f, set.length === 0);
        f += r.final ? 1 : r.partial.length;
        return v;
      });
      nodes[id] = toLayout(node, set, id, keyTypes, values, layout);
    }
  }
  return union(nodes as RelNode[], true);
}
