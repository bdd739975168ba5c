/**
 * Plans `groupBy(keys).select(exprs)` and global aggregates as
 * Project (keys + aggregate arguments) → Aggregate → Project (the select
 * list over keys and aggregate results).
 */
import { ValidationError } from '../relnode/errors.js';
import { canonicalRex } from '../relnode/digest.js';
import { formatRex } from '../relnode/explain.js';
import { aggReturnType, type AggFn } from '../relnode/functions.js';
import * as rel from '../relnode/rel.js';
import { inputRef, rexChildren, rexWithChildren, type RexNode } from '../relnode/rex.js';
import { schemaOf } from '../relnode/types.js';
import { bindExpr, exprName } from './bind.js';
import type { ExprNode } from './expr.js';
import { Table } from './table.js';

/** Marker ordinals for aggregate results while binding the select list over the input scope. */
const AGG_BASE = 1 << 24;

/** Builds the plan of a grouped (or global, when keys is empty) aggregation. */
export function planAggregate(t: Table, keyNodes: readonly ExprNode[], selectNodes: readonly ExprNode[]): Table {
  const scope = t.scope;
  const show = (e: RexNode): string => formatRex(e, schemaOf(scope));
  const keys = keyNodes.map((k) => bindExpr(k, scope, { where: 'groupBy' }));
  const keyNames = keyNodes.map((k, i) => exprName(k, keys[i]!, scope));
  const pre: RexNode[] = [...keys];
  const preNames: string[] = [...keyNames];
  const preIndex = (e: RexNode, name: string): number => {
    const c = canonicalRex(e);
    const at = pre.findIndex((p) => canonicalRex(p) === c);
    if (at >= 0) return at;
    pre.push(e);
    preNames.push(name);
    return pre.length - 1;
  };
  const calls: rel.AggCall[] = [];
  const onAggregate = (fn: AggFn, arg: RexNode | undefined, distinct: boolean, node: ExprNode): RexNode => {
    const args = arg ? [preIndex(arg, `__arg${pre.length}`)] : [];
    const type = aggReturnType(fn, arg?.type) as rel.AggCall['type'];
    let at = calls.findIndex((c) => c.fn === fn && c.distinct === distinct && c.args.length === args.length && c.args.every((a, i) => a === args[i]));
    if (at < 0) {
      calls.push({ fn, args, distinct, type, name: exprName(node, arg ?? inputRef(0, type), scope) });
      at = calls.length - 1;
    }
    return inputRef(AGG_BASE + at, type);
  };
  const bound = selectNodes.map((n) => bindExpr(n, scope, { where: 'select', onAggregate }));
  const names = selectNodes.map((n, i) => (n.k === 'agg' ? calls[(bound[i] as { index: number }).index - AGG_BASE]!.name : exprName(n, bound[i]!, scope)));

  // Rewrite the select list over the aggregate's output: key expressions → key columns, markers → agg columns.
  const keyCanon = keys.map(canonicalRex);
  const overAgg = (e: RexNode, top: RexNode): RexNode => {
    const k = keyCanon.indexOf(canonicalRex(e));
    if (k >= 0) return inputRef(k, e.type, keyNames[k]);
    if (e.kind === 'InputRef') {
      if (e.index >= AGG_BASE) return inputRef(keys.length + e.index - AGG_BASE, e.type, calls[e.index - AGG_BASE]!.name);
      throw new ValidationError(`column "${scope[e.index]!.name}" in ${show(top).replace(/\$\d+/g, '?')} must appear in groupBy(...) or be used inside an aggregate function`);
    }
    const ch = rexChildren(e);
    return ch.length === 0 ? e : rexWithChildren(e, ch.map((c) => overAgg(c, top)));
  };
  const top = bound.map((b) => overAgg(b, b));

  const preProject = rel.project(t.plan, pre, preNames.map((n, i) => (preNames.indexOf(n) === i ? n : `${n}_${i}`)));
  const agg = rel.aggregate(preProject, keys.map((_, i) => i), calls);
  const plan = rel.project(agg, top, names);
  return new Table(t.runner, plan, plan.schema.fields);
}
