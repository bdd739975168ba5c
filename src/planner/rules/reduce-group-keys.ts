/**
 * reduce-group-keys: a GROUP BY key that another key of the same GROUP BY determines leaves the
 * hash key and is carried as an aggregate instead — every row of a group has the same value, so
 * `min(key)` is that value (NULL included), and for VARCHAR `any_value(key)`, which keeps the first
 * string without comparing the others (agg-any-string.ts); a Project above restores the column
 * order and names.
 *
 * Why: queries group by an id and the columns that come with it — TPC-H Q10 groups by c_custkey,
 * c_name, c_acctbal, c_phone, n_name, c_address, c_comment; Q18 by c_name, c_custkey, o_orderkey,
 * o_orderdate, o_totalprice; Q3 by l_orderkey, o_orderdate, o_shippriority. Every string key is
 * interned and compared per input row, and written back per group; with c_custkey alone the hash
 * key is one integer, and each dropped column costs a min per row (functional-deps.ts says which
 * keys determine which: unique columns from statistics, join and filter equalities).
 *
 * Decision: keys are kept greedily: the key that determines the most other keys first (ties in
 * written order), then any key none of the kept ones determines. min for the other types: their
 * min states are typed-array loops, where the generic any_value reads every row as a JS value. Both
 * split into partial and final aggregates for worker stages (ship-stages.ts). Runs after aggregate-below-join (which reads the group keys as
 * written) and before prune-columns.
 */
import { aggregate, projectOrdinals, transformUp, type Aggregate, type AggCall, type RelNode } from '../../relnode/rel.js';
import { determined } from '../functional-deps.js';
import type { Rule } from '../rule.js';

function reduce(n: Aggregate): RelNode {
  const keys = n.groupKeys;
  if (keys.length < 2) return n;
  const closures = keys.map((k) => determined(n.input, k));
  const covers = closures.map((c) => keys.filter((k) => c.has(k)).length);
  const order = keys.map((_, p) => p).sort((a, b) => covers[b]! - covers[a]! || a - b);
  const covered = new Set<number>();
  const kept = new Set<number>();
  for (const p of order) {
    if (covered.has(keys[p]!)) continue;
    kept.add(p);
    for (const x of closures[p]!) covered.add(x);
  }
  if (kept.size === keys.length) return n;
  const inF = n.input.schema.fields;
  const keptKeys = keys.filter((_, p) => kept.has(p));
  const carried: AggCall[] = [];
  keys.forEach((k, p) => {
    const type = inF[k]!.type;
    if (!kept.has(p)) carried.push({ fn: type === 'VARCHAR' ? 'any_value' : 'min', args: [k], distinct: false, type, name: inF[k]!.name });
  });
  const agg = aggregate(n.input, keptKeys, [...n.aggCalls, ...carried]);
  // Output of `agg`: kept keys, the original calls, then the carried keys.
  const at: number[] = [];
  let kk = 0;
  let cc = 0;
  keys.forEach((_, p) => { at.push(kept.has(p) ? kk++ : keptKeys.length + n.aggCalls.length + cc++); });
  n.aggCalls.forEach((_, j) => at.push(keptKeys.length + j));
  return projectOrdinals(agg, at, n.schema.fields.map((f) => f.name));
}

/** Drops GROUP BY keys that other keys determine (carried as min). */
export const reduceGroupKeys: Rule = {
  name: 'reduce-group-keys',
  description: 'Aggregate(G) → Project(Aggregate(G′, min(G − G′))) where G′ ⊂ G determines G (functional-deps.ts); after aggregate-below-join, before prune-columns.',
  rewrite(root) {
    return transformUp(root, (n) => (n.kind === 'Aggregate' ? reduce(n) : n));
  },
};
