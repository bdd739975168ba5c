/**
 * The logical optimizer: the ordered list of default rules and the driver that runs it
 * to a digest fixpoint, checking after every rule that the plan's output schema held.
 * Rules whose trigger the plan lacks are skipped (rule-applicability.ts), and a pass in
 * which no rule changed anything ends without comparing plans: small queries plan in microseconds.
 */
import { structurallyEqual } from '../relnode/equal.js';
import { InternalError } from '../relnode/errors.js';
import type { RelNode } from '../relnode/rel.js';
import type { Schema } from '../relnode/types.js';
import { sameNamesAndTypes, type Rule } from './rule.js';
import { mayApply, planFeatures } from './rule-applicability.js';
import { aggregateBelowJoin } from './rules/aggregate-below-join.js';
import { decorrelateDomain } from './rules/decorrelate-domain.js';
import { decorrelateExistence } from './rules/decorrelate-existence.js';
import { decorrelateMarkExistence } from './rules/decorrelate-mark-existence.js';
import { decorrelateLateral } from './rules/decorrelate-lateral.js';
import { decorrelateScalarAggregate } from './rules/decorrelate-scalar-aggregate.js';
import { decorrelateUncorrelated } from './rules/decorrelate-uncorrelated.js';
import { deriveJoinFilters } from './rules/derive-join-filters.js';
import { expandOrJoins } from './rules/expand-or-joins.js';
import { joinKeyExpressions } from './rules/join-key-expressions.js';
import { swapRangeJoins } from './rules/swap-range-joins.js';
import { mergeFilters } from './rules/merge-filters.js';
import { mergeProjects } from './rules/merge-projects.js';
import { pruneColumns } from './rules/prune-columns.js';
import { pushDownFilter } from './rules/push-down-filter.js';
import { pushDownLimit } from './rules/push-down-limit.js';
import { removeEmptyRelations } from './rules/remove-empty-relations.js';
import { removeSubqueries } from './rules/remove-subqueries.js';
import { reduceGroupKeys } from './rules/reduce-group-keys.js';
import { reorderJoins } from './rules/reorder-joins.js';
import { simplifyExpressions } from './rules/simplify-expressions.js';
import { simplifyOuterJoins } from './rules/simplify-outer-joins.js';

/**
 * Subquery removal and decorrelation, in order: subquery expressions become Correlate nodes, the
 * specific rules take the shapes they plan best (plain joins, semi / anti joins on the correlated
 * conjuncts, LATERAL joins on them, an aggregate grouped by the correlation keys), the domain rule
 * takes the rest. After
 * them no Subquery and no Correlate is left; every other rule runs on plain relational plans.
 */
export const DECORRELATION_RULES: readonly Rule[] = [
  removeSubqueries,
  decorrelateUncorrelated,
  decorrelateExistence,
  decorrelateMarkExistence,
  decorrelateLateral,
  decorrelateScalarAggregate,
  decorrelateDomain,
];

/** The default rules, in the order one pass runs them. Each comment says why the rule sits where it does. */
export const DEFAULT_RULES: readonly Rule[] = [
  // Before everything: the other rules see neither Subquery expressions nor Correlate nodes.
  ...DECORRELATION_RULES,
  // First after decorrelation: folds constants, so later rules see Filter(TRUE) gone, Filter(FALSE) as a literal and
  // flat, deduplicated conjunct lists.
  simplifyExpressions,
  // Before push-down-filter: one Filter carries every conjunct of a stack, so each is classified once.
  mergeFilters,
  // After merge-filters (one Filter sees every conjunct); before push-down-filter, which moves the conjuncts
  // into the joins this turns inner, and before reorder-joins, which then sees them in the join region.
  simplifyOuterJoins,
  // After merge-filters; before prune-columns, which must see each filter where it ends up
  // (a pushed filter needs its columns lower in the tree, not at the old place).
  pushDownFilter,
  // After push-down-filter (WHERE conjuncts are in the join conditions and on the leaves, so the join graph is
  // complete); before prune-columns, which narrows the reordered tree and drops the restoring Project's extra columns.
  reorderJoins,
  // After push-down-filter and reorder-joins (an OR across both sides sits in its join's condition then); the
  // Filters it adds on scan sides are moved into the scans by push-down-filter on the next pass.
  deriveJoinFilters,
  // After reorder-joins (the join it pre-aggregates below is in its final place); before prune-columns,
  // which narrows the new right side.
  aggregateBelowJoin,
  // After aggregate-below-join (which reads the group keys as written) and reorder-joins (the joins
  // whose equalities carry the dependencies are in place); before merge-projects and prune-columns,
  // which merge its Project and narrow below it.
  reduceGroupKeys,
  // After push-down-filter, which moves Filters out from between stacked Projects; before
  // prune-columns, so there are fewer Projects to narrow.
  mergeProjects,
  // Before prune-columns (pruning then narrows below the limit's final place) and before
  // remove-empty-relations, which picks up the empty Values that Limit(0) becomes.
  pushDownLimit,
  // After both pushdowns: they move the nodes whose columns must survive. The identity Projects it
  // may leave are removed by merge-projects on the next pass.
  pruneColumns,
  // Last: sees the FALSE filters from simplify-expressions and the empty Values from
  // push-down-limit; what it exposes (e.g. a Project over a single union branch) is simplified
  // and merged on the next pass.
  removeEmptyRelations,
];

/**
 * Rules run once after DEFAULT_RULES reach their fixpoint (planner.ts): rewrites that would get in
 * the default rules' way if they ran between passes (each file says why).
 */
export const FINAL_RULES: readonly Rule[] = [
  // Before join-key-expressions, which then keys each branch's join on its expressions.
  expandOrJoins,
  // After reorder-joins settled the join order: the Projects it adds below joins end join regions.
  joinKeyExpressions,
  // After both: a join they left without hash keys puts its range key's column on the buffered side.
  swapRangeJoins,
];

/**
 * The final phase: FINAL_RULES once over the default rules' fixpoint, then, when they changed the
 * plan, prune-columns and merge-projects once (the key Projects carry every input column, and the
 * Project above the join drops the keys). A plan they leave alone costs one walk per rule.
 */
export function finalizePlan(plan: RelNode): RelNode {
  const next = optimize(plan, FINAL_RULES, { maxPasses: 1 });
  return next === plan ? plan : optimize(next, [pruneColumns, mergeProjects], { maxPasses: 1 });
}

/** Options of `optimize`. */
export interface OptimizeOptions {
  /** Upper bound on passes over the rule list (default 20); reaching it returns the current plan. */
  readonly maxPasses?: number;
  /** Called after each rule that returned a different plan object. */
  readonly trace?: (rule: string, before: RelNode, after: RelNode) => void;
}

/**
 * Runs `rules` in order, pass after pass, until a pass leaves the plan structurally unchanged (equal digests)
 * (or `maxPasses` is reached). Throws InternalError naming the rule when a rule changes the
 * root's output schema (field count, names or types).
 */
export function optimize(plan: RelNode, rules: readonly Rule[] = DEFAULT_RULES, options: OptimizeOptions = {}): RelNode {
  const maxPasses = options.maxPasses ?? 20;
  let current = plan;
  let features = planFeatures(current);
  for (let pass = 0; pass < maxPasses; pass++) {
    const start = current;
    let changed = false;
    for (const rule of rules) {
      if (!mayApply(rule.name, features)) { optimizerStats.skipped++; continue; }
      optimizerStats.runs++;
      const next = rule.rewrite(current);
      if (next === current) continue;
      checkSchema(rule.name, plan.schema, next.schema);
      options.trace?.(rule.name, current, next);
      changed = true;
      current = next;
      features = planFeatures(current);
    }
    // A pass where every rule returned its input unchanged is a fixpoint without any comparison. After the first
    // pass, a pass whose rules rebuilt an equal plan is one too: `structurallyEqual` decides what equal digests
    // would (equal.ts compares what the digest renders) without rendering two whole trees — it stops at the
    // first difference and skips shared subtrees (the digests were ~8% of optimizing a TPC-H query).
    if (!changed || (pass > 0 && structurallyEqual(start, current))) break;
  }
  return current;
}

/** Rule applications run and skipped in this process (tests check the skipping with it). */
export const optimizerStats = { runs: 0, skipped: 0 };

function checkSchema(rule: string, want: Schema, got: Schema): void {
  if (sameNamesAndTypes(want, got)) return;
  const show = (s: Schema): string => s.fields.map((f) => `${f.name} ${f.type}`).join(', ');
  throw new InternalError(`optimizer rule "${rule}" changed the plan's output schema from (${show(want)}) to (${show(got)})`);
}
