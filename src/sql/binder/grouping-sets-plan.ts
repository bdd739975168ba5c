/**
 * The plan of GROUP BY ROLLUP / CUBE / GROUPING SETS (binder/aggregate.ts `build`): every set's
 * rows in one layout — the keys (NULL where the set leaves them out), the set's ordinal, then the
 * aggregate calls — as a UNION ALL of one branch per set.
 *
 * Decision: the input is aggregated once, at the finest grouping (every key), into decomposable
 * partial states, and each set aggregates those rows again by its own keys: count and count(*)
 * sum their counts, sum sums, min / max / bool_and / bool_or repeat themselves, avg becomes a sum
 * and a count. Every branch holds the same finest Aggregate node, which lowering computes once
 * and fans out to all sets (planner/lower-shared.ts; EXPLAIN's physical plan names the repeats
 * `shared: HashAggregate#n`), and which a parallelism-2 query ships as one worker stage
 * (planner/ship-shared.ts). Before, each set was an Aggregate of its own over the input, so the
 * input and every join below it ran once per set: at SF 0.1 ROLLUP of 2 keys over lineitem took
 * 2.2× the CPU of the plain GROUP BY, CUBE of 3 keys 5.7× (bench/grouping-sets.ts,
 * docs/bench-history.md). The alternative, one operator that inserts each input row into one
 * hash table per set (DuckDB's), does the per-row work once per set as well and would need its
 * own worker-stage split; the finest Aggregate keeps every fast path of the plain one (fused
 * filter and sums, key paths, the partial stage at parallelism 2), and the per-set work is over
 * its groups, not the input rows.
 *
 * The partial states are the ones a parallelism-2 partial stage splits into, in their plain
 * form, so the finest Aggregate itself still splits into a partial worker stage: a DOUBLE sum
 * (and avg's) adds the finest groups' rounded sums, within a rounding or two of the direct sum,
 * as a different row order gives (planner/rules/roll-up-scalar-aggregate.ts accepts the same);
 * an INTEGER sum and avg add exact BIGINT sums (avg divided once by `avg_parts`, as one thread
 * divides). A BIGINT sum travels as the two 64-bit words of its exact 128-bit total
 * (`sum_low64`, `sum_high64`, added by `sum_parts`) when the finest grouping is not one of the
 * sets: a finest group's total past 2^63 must not fail a query whose sets' totals fit (when the
 * finest grouping is a set, that total fails the query anyway). The count of the empty set is
 * coalesced to 0 (a global sum over no finest groups is NULL).
 *
 * Calls that do not decompose — DISTINCT, ordered aggregates, median / quantiles, mode,
 * string_agg, first / last / any_value, arg_min / arg_max, the variances — and a single set
 * (nothing to share) fall back to one Aggregate per set over the input, as before. FILTER
 * clauses arrive as CASE arguments (binder/agg-call.ts), so they decompose with their call.
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

/** How one call rolls up from the finest grouping's partial states. */
interface Rollup {
  /** Calls of the finest Aggregate (over the input). */
  readonly partial: readonly AggCall[];
  /** Calls of a set's Aggregate, given the finest output ordinal of this call's first partial. */
  readonly roll: (first: number) => readonly AggCall[];
  /** The call's value over a set's Aggregate output, given its first roll column and whether the set is empty. */
  readonly value: (first: number, emptySet: boolean) => RexNode;
}

function agg(fn: AggCall['fn'], args: readonly number[], type: SqlType, name: string): AggCall {
  return { fn, args, distinct: false, type, name };
}

/** How call `c` (number `j`) rolls up, or undefined when it does not decompose. */
function rollupOf(c: AggCall, input: RelNode, j: number, finestIsSet: boolean): Rollup | undefined {
  if (c.distinct || (c.order !== undefined && c.order.length > 0)) return undefined;
  const argType = c.args.length > 0 ? input.schema.fields[c.args[0]!]!.type : undefined;
  const ref = (f: number): RexNode => inputRef(f, c.type, c.name);
  switch (c.fn) {
    case 'count': case 'count_star':
      return {
        partial: [{ ...c, name: `__p${j}` }],
        roll: (p) => [agg('sum', [p], 'BIGINT', c.name)],
        value: (f, empty) => (empty ? call('coalesce', [ref(f), literal(0, 'BIGINT')], 'BIGINT') : ref(f)),
      };
    case 'min': case 'max': case 'bool_and': case 'bool_or':
      return { partial: [{ ...c, name: `__p${j}` }], roll: (p) => [agg(c.fn, [p], c.type, c.name)], value: ref };
    case 'sum':
      if (c.type === 'BIGINT' && argType === 'BIGINT' && !finestIsSet) {
        return {
          partial: [agg('sum_low64', c.args, 'BIGINT', `__p${j}`), agg('sum_high64', c.args, 'BIGINT', `__p${j}h`)],
          roll: (p) => [agg('sum_parts', [p, p + 1], 'BIGINT', c.name)],
          value: ref,
        };
      }
      if (c.type !== 'BIGINT' && c.type !== 'DOUBLE') return undefined;
      return { partial: [{ ...c, name: `__p${j}` }], roll: (p) => [agg('sum', [p], c.type, c.name)], value: ref };
    case 'avg': {
      if (c.type !== 'DOUBLE') return undefined;
      const count = (a: readonly number[]): AggCall => agg('count', a, 'BIGINT', `__p${j}c`);
      if (argType === 'INTEGER') {
        return {
          partial: [agg('sum', c.args, 'BIGINT', `__p${j}`), count(c.args)],
          roll: (p) => [agg('avg_parts', [p, p + 1], 'DOUBLE', c.name)],
          value: ref,
        };
      }
      if (argType === 'BIGINT') {
        return {
          partial: [agg('sum_low64', c.args, 'BIGINT', `__p${j}`), agg('sum_high64', c.args, 'BIGINT', `__p${j}h`), count(c.args)],
          roll: (p) => [agg('avg_parts', [p, p + 1, p + 2], 'DOUBLE', c.name)],
          value: ref,
        };
      }
      if (argType !== 'DOUBLE' && argType !== 'NULL') return undefined;
      return {
        partial: [agg('sum', c.args, 'DOUBLE', `__p${j}`), count(c.args)],
        roll: (p) => [agg('sum', [p], 'DOUBLE', `__r${j}`), agg('sum', [p + 1], 'BIGINT', `__r${j}c`)],
        value: (f) => call('divide', [inputRef(f, 'DOUBLE'), cast(inputRef(f + 1, 'BIGINT'), 'DOUBLE')], 'DOUBLE'),
      };
    }
    default: return undefined;
  }
}

/** One set's rows in the common layout: `agg` outputs the set's keys then `values`' inputs. */
function toLayout(node: RelNode, set: readonly number[], id: number, keyTypes: readonly SqlType[], values: readonly RexNode[], layout: SetsLayout): RelNode {
  return rel.project(node, [
    ...keyTypes.map((t, i) => (set.includes(i) ? inputRef(set.indexOf(i), t, layout.names[i]) : literal(null, t))),
    literal(id, 'INTEGER'),
    ...values,
  ], [...layout.names.slice(0, layout.keyCount), layout.setColumn, ...layout.callNames]);
}

/**
 * The grouping sets' plan over `pre` (keys first, then the calls' arguments): the finest
 * Aggregate shared by every set when every call decomposes and there is more than one set;
 * otherwise one Aggregate per set over `pre`.
 */
export function groupingSetsPlan(pre: RelNode, sets: readonly (readonly number[])[], calls: readonly AggCall[], layout: SetsLayout): RelNode {
  const keyTypes = pre.schema.fields.slice(0, layout.keyCount).map((f) => f.type);
  const finestKeys = keyTypes.map((_, i) => i).filter((i) => sets.some((s) => s.includes(i)));
  const finestIsSet = sets.some((s) => finestKeys.every((k) => s.includes(k)));
  const rollups = calls.map((c, j) => rollupOf(c, pre, j, finestIsSet));
  let branches: RelNode[];
  if (sets.length < 2 || finestKeys.length === 0 || rollups.some((r) => r === undefined)) {
    branches = sets.map((set, id) => toLayout(rel.aggregate(pre, set, calls), set, id, keyTypes, calls.map((c, j) => inputRef(set.length + j, c.type, c.name)), layout));
  } else {
    const rs = rollups as Rollup[];
    const finest = rel.aggregate(pre, finestKeys, rs.flatMap((r) => r.partial));
    const firstPartial: number[] = [];
    let p = finestKeys.length;
    for (const r of rs) { firstPartial.push(p); p += r.partial.length; }
    const rollCalls: AggCall[] = [];
    const firstRoll: number[] = [];
    for (const [j, r] of rs.entries()) { firstRoll.push(rollCalls.length); rollCalls.push(...r.roll(firstPartial[j]!)); }
    branches = sets.map((set, id) => {
      // A set's key ordinals over the finest output (its keys lead it, in finestKeys order).
      const keys = set.map((k) => finestKeys.indexOf(k));
      const node = rel.aggregate(finest, keys, rollCalls);
      return toLayout(node, set, id, keyTypes, rs.map((r, j) => r.value(set.length + firstRoll[j]!, set.length === 0)), layout);
    });
  }
  return branches.length === 1 ? branches[0]! : union(branches, true);
}
