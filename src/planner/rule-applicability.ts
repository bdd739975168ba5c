/**
 * Which optimizer rules can change a plan, from one cheap walk over it (the
 * node kinds present, and whether a Filter or Project holds a subquery). The
 * driver (optimizer.ts) skips a rule whose trigger is absent: a 10-row
 * `SELECT a FROM t WHERE a > 3` has no join, correlation, limit or subquery,
 * so most default rules and all three final-phase rules never walk it. The table is
 * conservative: a rule is listed only with node kinds its rewrite matches on
 * (see each rule's `rewrite`); rules not listed always run. Features are
 * recomputed after every rule that changed the plan, since a rule can add a
 * kind (decorrelation adds joins).
 */
import { inputs, type RelNode } from '../relnode/rel.js';
import { hasSubquery } from '../relnode/rex.js';

/** What a plan contains, as far as rule triggers go. */
export interface PlanFeatures {
  readonly kinds: ReadonlySet<RelNode['kind']>;
  /** A Filter condition or Project expression holds a Subquery (remove-subqueries' trigger). */
  readonly subquery: boolean;
}

/** One walk over the plan. */
export function planFeatures(plan: RelNode): PlanFeatures {
  const kinds = new Set<RelNode['kind']>();
  let subquery = false;
  const walk = (n: RelNode): void => {
    kinds.add(n.kind);
    if (!subquery) {
      if (n.kind === 'Filter') subquery = hasSubquery(n.condition);
      else if (n.kind === 'Project') subquery = n.exprs.some(hasSubquery);
    }
    for (const c of inputs(n)) walk(c);
  };
  walk(plan);
  return { kinds, subquery };
}

type Trigger = (f: PlanFeatures) => boolean;
const has = (...ks: RelNode['kind'][]): Trigger => (f) => ks.some((k) => f.kinds.has(k));

/** Rule name → when it can apply. Each entry names the node kinds the rule's rewrite starts from. */
const TRIGGERS: ReadonlyMap<string, Trigger> = new Map<string, Trigger>([
  ['remove-subqueries', (f) => f.subquery],
  ['decorrelate-uncorrelated', has('Correlate')],
  ['decorrelate-existence', has('Correlate')],
  ['decorrelate-mark-existence', has('Correlate')],
  ['decorrelate-lateral', has('Correlate')],
  ['decorrelate-scalar-aggregate', has('Correlate')],
  ['decorrelate-domain', has('Correlate')],
  ['merge-filters', has('Filter')],
  ['simplify-outer-joins', has('Join')],
  ['push-down-filter', has('Filter', 'Join')],
  ['reorder-joins', has('Join')],
  ['derive-join-filters', has('Join')],
  ['aggregate-below-join', (f) => f.kinds.has('Aggregate') && f.kinds.has('Join')],
  ['reduce-group-keys', has('Aggregate')],
  // The final phase (optimizer.ts FINAL_RULES).
  ['expand-or-joins', has('Join')],
  ['join-key-expressions', has('Join')],
  ['swap-range-joins', has('Join')],
  ['merge-projects', has('Project')],
  ['push-down-limit', has('Limit', 'Sort')],
]);

/** False when the rule cannot change a plan with these features (unknown rules: true). */
export function mayApply(rule: string, f: PlanFeatures): boolean {
  const t = TRIGGERS.get(rule);
  return t === undefined || t(f);
}
