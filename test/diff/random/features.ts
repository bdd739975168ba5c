/**
 * The generator's feature switches. Every construct the generator can emit
 * belongs to one feature, so a test can exclude exactly the constructs that
 * trigger a known engine bug and keep everything else strict.
 */

/** A family of generated constructs. */
export type Feature =
  // FROM
  | 'join' | 'leftJoin' | 'rightJoin' | 'fullJoin' | 'crossJoin' | 'commaJoin' | 'selfJoin' | 'joinExtraOn' | 'using' | 'derived' | 'nullsTables'
  // query shape
  | 'groupBy' | 'groupByExpr' | 'groupByRef' | 'globalAgg' | 'having' | 'distinct' | 'orderBy' | 'limit' | 'offset' | 'nullsOrder' | 'ordinal'
  | 'setop' | 'setopAll' | 'intersect' | 'except' | 'star'
  // subqueries
  | 'inSubquery' | 'notInSubquery' | 'exists' | 'scalarSubquery' | 'correlated' | 'correlatedInValue' | 'correlatedHaving' | 'correlatedAggPredicate' | 'notInOuterJoin' | 'subqueryInCorrelatedAgg'
  // aggregates
  | 'distinctAgg' | 'stddev'
  // predicates
  | 'inList' | 'between' | 'like' | 'isNull' | 'not'
  // expressions
  | 'arith' | 'modulo' | 'divide' | 'case' | 'cast' | 'castToInt' | 'castDoubleToVarchar' | 'coalesce' | 'nullif'
  | 'stringFns' | 'concat' | 'dateFns' | 'dateArith' | 'interval' | 'mathFns' | 'round' | 'postfixCast' | 'syntaxVariants' | 'cte';

/** Every feature. */
export const ALL_FEATURES: readonly Feature[] = [
  'join', 'leftJoin', 'rightJoin', 'fullJoin', 'crossJoin', 'commaJoin', 'selfJoin', 'joinExtraOn', 'using', 'derived', 'nullsTables',
  'groupBy', 'groupByExpr', 'groupByRef', 'globalAgg', 'having', 'distinct', 'orderBy', 'limit', 'offset', 'nullsOrder', 'ordinal',
  'setop', 'setopAll', 'intersect', 'except', 'star',
  'inSubquery', 'notInSubquery', 'exists', 'scalarSubquery', 'correlated', 'correlatedInValue', 'correlatedHaving', 'correlatedAggPredicate', 'notInOuterJoin', 'subqueryInCorrelatedAgg',
  'distinctAgg', 'stddev',
  'inList', 'between', 'like', 'isNull', 'not',
  'arith', 'modulo', 'divide', 'case', 'cast', 'castToInt', 'castDoubleToVarchar', 'coalesce', 'nullif',
  'stringFns', 'concat', 'dateFns', 'dateArith', 'interval', 'mathFns', 'round', 'postfixCast', 'syntaxVariants', 'cte',
];

/**
 * Constructs eddy rejects by design (documented limitations, not wrong
 * answers); the CLI leaves them out unless asked for `--all`. None today:
 * correlated `x IN (subquery)` as a value, once rejected by the binder, is
 * decorrelated by the planner's rules since decorrelation moved there.
 */
export const KNOWN_GAPS: readonly Feature[] = [];

/** A set of enabled features. */
export type FeatureSet = ReadonlySet<Feature>;

/** All features except the given ones. */
export function featuresExcept(excluded: readonly Feature[]): FeatureSet {
  const out = new Set(ALL_FEATURES);
  for (const f of excluded) {
    if (!out.has(f)) throw new Error(`unknown generator feature "${f}"; known: ${ALL_FEATURES.join(', ')}`);
    out.delete(f);
  }
  return out;
}
