/**
 * Subqueries in expressions bind to Subquery RexNodes — nothing is
 * decorrelated here: the subquery is bound with the clause's columns as its
 * outer scope (references to them become OuterRefs) and the planner's rules
 * turn the expression into joins (src/planner/rules/remove-subqueries.ts and
 * the decorrelate-* rules). For `x IN (subquery)` the comparison's coercions
 * are decided here, as for `=`: x is cast in the expression, the subquery's
 * column in a Project over it. A row on IN's left side is row-subquery.ts.
 */
import { bindCall } from './call.js';
import { formatRex } from '../../relnode/explain.js';
import * as rel from '../../relnode/rel.js';
import { call, inputRef, rexShift, subquery, type RexNode } from '../../relnode/rex.js';
import { schemaOf } from '../../relnode/types.js';
import type { Pos } from '../ast.js';
import type { SubqueryExpr } from './ast-walk.js';
import { sqlError, type BindContext } from './context.js';
import { visibleWidth, type BoundQuery, type ScopeColumn } from './scope.js';
import { bindRowInSubquery } from './row-subquery.js';
import { InternalError } from '../../relnode/errors.js';

function checkOneColumn(ctx: BindContext, sub: BoundQuery, pos: Pos): void {
  const n = visibleWidth(sub);
  if (n !== 1) throw sqlError(ctx.sql, pos, `subquery returns ${n} columns; it must return exactly one here`);
}

/** How a clause's IN (subquery) arguments relate to the subquery's outer scope. */
export interface SubqueryArgOptions {
  /** The node is a WHERE conjunct under this many NOTs (odd: true): only its truth matters (row-subquery.ts). */
  readonly flip?: boolean;
  /** IN's argument is bound over other columns than `outerCols` (a grouped select list): no row values. */
  readonly argsElsewhere?: boolean;
}

/**
 * Binds a subquery expression met in a clause whose columns are `outerCols`
 * (the input of the Filter or Project the expression ends up in); `args` is
 * IN's left side (one item, or a row's items), bound over the same columns.
 */
export function bindSubqueryExpr(ctx: BindContext, outerCols: readonly ScopeColumn[], node: SubqueryExpr, args?: readonly RexNode[], opts: SubqueryArgOptions = {}): RexNode {
  const inner: BindContext = {
    sql: ctx.sql, bindQuery: ctx.bindQuery, ...(ctx.ctes ? { ctes: ctx.ctes } : {}),
    outer: { cols: outerCols, ...(ctx.outer ? { parent: ctx.outer } : {}) },
  };
  const sub = ctx.bindQuery(inner, node.query);
  const not = (e: RexNode, negated: boolean): RexNode => (negated ? call('not', [e], 'BOOLEAN') : e);
  switch (node.kind) {
    case 'subquery': {
      checkOneColumn(ctx, sub, node.pos);
      return subquery('scalar', sub.plan, sub.plan.schema.fields[0]!.type);
    }
    case 'exists': return not(subquery('exists', sub.plan, 'BOOLEAN'), node.negated);
    case 'inSubquery': {
      if (!args) throw new InternalError('IN (subquery) without its left side');
      if (node.arg.kind === 'row') {
        if (opts.argsElsewhere === true) throw sqlError(ctx.sql, node.arg.pos, 'a row value IN (subquery) is not supported in the select list of a grouped query; compute it in WHERE or in a derived table below the GROUP BY');
        return bindRowInSubquery(ctx, outerCols, node, args, sub, opts.flip);
      }
      checkOneColumn(ctx, sub, node.pos);
      const arg = args[0]!;
      const vf = sub.plan.schema.fields[0]!;
      // The comparison's coercions, with the subquery's column standing as an extra column past the outer ones.
      const w = outerCols.length;
      const all = [...outerCols, { name: vf.name, type: vf.type, nullable: vf.nullable }];
      let eq: RexNode;
      try {
        eq = bindCall('eq', [arg, inputRef(w, vf.type, vf.name)], (e) => formatRex(e, schemaOf(all)));
      } catch (err) {
        throw sqlError(ctx.sql, node.pos, (err as Error).message);
      }
      const [a, b] = eq.kind === 'Call' ? (eq.args as [RexNode, RexNode]) : [arg, inputRef(w, vf.type)];
      const value = rexShift(b, () => 0);
      const plan = value.kind === 'InputRef' ? sub.plan : rel.project(sub.plan, [value], [vf.name]);
      return not(subquery('in', plan, 'BOOLEAN', a), node.negated);
    }
  }
}
