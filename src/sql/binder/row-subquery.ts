/**
 * `(a, b) [NOT] IN (SELECT x, y ...)`: a row compared with a subquery's rows. It binds to EXISTS over the
 * subquery filtered by the row's items (as OuterRefs), so the planner's EXISTS machinery turns it into a
 * semi / anti join on several keys (remove-subqueries, decorrelate-*) instead of a per-row test:
 *   exact    = EXISTS (SELECT ... WHERE x = a AND y = b)
 *   possible = EXISTS (SELECT ... WHERE (x = a OR x IS NULL OR a IS NULL) AND ...)   (a row equality not FALSE)
 * The standard's value: TRUE when exact, else NULL when possible, else FALSE (NOT IN its negation) — a
 * CASE over two EXISTS. A WHERE conjunct needs only whether it is TRUE: IN is then `exact` (a semi join)
 * and NOT IN `NOT possible` (an anti join keeping NOT IN's NULL semantics: a NULL on either side rejects
 * the row unless another item already differs). Items known non-NULL on both sides drop their NULL
 * tests, so they stay hash-join keys; with no NULL possible at all, possible = exact.
 */
import { bindCall } from './call.js';
import { formatRex } from '../../relnode/explain.js';
import * as rel from '../../relnode/rel.js';
import { andAll, call, caseWhen, inputRef, literal, outerRef, rexTransform, rexVisit, subquery, type RexNode } from '../../relnode/rex.js';
import type { Expr } from '../ast.js';
import { sqlError, type BindContext } from './context.js';
import { rowListAsValues } from './row-list-values.js';
import { visibleWidth, type BoundQuery, type ScopeColumn } from './scope.js';

type InSubquery = Extract<Expr, { kind: 'inSubquery' }>;

/**
 * The row IN (subquery) a WHERE conjunct is (or a long constant row list's VALUES form, row-list-values.ts), under how many NOTs (odd: `flip`), or undefined: such a
 * conjunct only has to be TRUE for the rows kept, which lets it bind to a plain semi / anti join.
 */
export function rowInConjunct(conjunct: Expr): { node: InSubquery; flip: boolean } | undefined {
  let x = conjunct;
  let flip = false;
  while (x.kind === 'unary' && x.op === 'NOT') { flip = !flip; x = x.arg; }
  if (x.kind === 'inList') {
    const v = rowListAsValues(x);
    return v === undefined ? undefined : { node: v, flip };
  }
  return x.kind === 'inSubquery' && x.arg.kind === 'row' ? { node: x, flip } : undefined;
}

/** Whether an expression over `cols` may be NULL (conservative). */
function mayBeNull(e: RexNode, cols: readonly ScopeColumn[]): boolean {
  switch (e.kind) {
    case 'InputRef': return cols[e.index]?.nullable ?? true;
    case 'Literal': return e.value === null;
    case 'Cast': return mayBeNull(e.arg, cols);
    case 'Call': return !(e.op === 'is_null' || e.op === 'is_not_null');
    default: return true;
  }
}

/**
 * Binds `node` (a row IN subquery) whose row items `args` are bound over `outerCols`, the subquery `sub`
 * bound with `outerCols` as its outer scope. `flip`: set when the node is a WHERE conjunct under that
 * many NOTs (rowInConjunct), undefined elsewhere.
 */
export function bindRowInSubquery(ctx: BindContext, outerCols: readonly ScopeColumn[], node: InSubquery, args: readonly RexNode[], sub: BoundQuery, flip?: boolean): RexNode {
  const n = visibleWidth(sub);
  if (n !== args.length) {
    throw sqlError(ctx.sql, node.pos, `the subquery returns ${n} column${n === 1 ? '' : 's'} but the row value has ${args.length} item${args.length === 1 ? '' : 's'}; IN needs one column per item`);
  }
  const fields = sub.plan.schema.fields;
  const show = (e: RexNode): string => formatRex(e, sub.plan.schema);
  const exact: RexNode[] = [];
  const possible: RexNode[] = [];
  args.forEach((a, i) => {
    let nested = false;
    rexVisit(a, (x) => { if (x.kind === 'OuterRef' || x.kind === 'AggRef' || x.kind === 'Subquery') nested = true; });
    if (nested) throw sqlError(ctx.sql, node.arg.pos, 'a row value compared with IN (subquery) may only read the columns of its own query (not an outer query\'s) and constants');
    const outer = rexTransform(a, (x) => (x.kind === 'InputRef' ? outerRef(x.index, x.type, x.name) : x));
    const f = fields[i]!;
    let eq: RexNode;
    try {
      eq = bindCall('eq', [outer, inputRef(i, f.type, f.name)], show);
    } catch (err) {
      throw sqlError(ctx.sql, node.pos, (err as Error).message);
    }
    exact.push(eq);
    const nullTests = [
      ...(mayBeNull(a, outerCols) ? [call('is_null', [outer], 'BOOLEAN')] : []),
      ...(f.nullable ? [call('is_null', [inputRef(i, f.type, f.name)], 'BOOLEAN')] : []),
    ];
    possible.push(nullTests.length === 0 ? eq : call('or', [eq, ...nullTests], 'BOOLEAN'));
  });
  const exists = (conds: RexNode[]): RexNode => subquery('exists', rel.filter(sub.plan, andAll(conds)), 'BOOLEAN');
  const not = (e: RexNode): RexNode => call('not', [e], 'BOOLEAN');
  const nullable = possible.some((p, i) => p !== exact[i]);
  if (flip !== undefined) {
    const want = node.negated !== flip ? not(exists(nullable ? possible : exact)) : exists(exact);
    return flip ? not(want) : want;
  }
  const bool = (v: boolean | null): RexNode => literal(v, 'BOOLEAN');
  const value = nullable
    ? caseWhen([{ when: exists(exact), then: bool(true) }, { when: exists(possible), then: bool(null) }], bool(false), 'BOOLEAN')
    : exists(exact);
  return node.negated ? not(value) : value;
}
