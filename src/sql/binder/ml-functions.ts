/**
 * The ML table functions in FROM (docs/ml.md): `kmeans(points, k := 2)`,
 * `linear_regression(data, label := 'y')`, …, and the scoring functions
 * `kmeans_predict(model, data)`, ….
 *
 * Decision: table arguments come first — a table (or CTE) name, or a
 * parenthesized query — then named parameters (`name := value`, as
 * read_csv's; `name = value` is accepted too) whose values are constants.
 * They bind synchronously (no file to open), so they work in the lazy
 * `env.sql()` as well as in `executeSql`; src/ml checks the parameters and
 * builds the node, and its errors are shown at the function's position.
 */
import type { Expr, FromItem } from '../ast.js';
import type { RelNode } from '../../relnode/rel.js';
import * as rel from '../../relnode/rel.js';
import { inputRef } from '../../relnode/rex.js';
import { EddyError } from '../../relnode/errors.js';
import { isMlFunction, mlNode, type ParamValue } from '../../ml/index.js';
import { sqlError, type BindContext } from './context.js';
import type { BoundRel } from './scope.js';

type TableFunctionItem = Extract<FromItem, { kind: 'tableFunction' }>;

export { isMlFunction };

/** The visible columns of a bound table argument (hidden helper columns dropped). */
function visiblePlan(r: BoundRel): RelNode {
  if (!r.cols.some((c) => c.internal === true)) return r.plan;
  const keep = r.cols.flatMap((c, i) => (c.internal === true ? [] : [i]));
  const fs = r.plan.schema.fields;
  return rel.project(r.plan, keep.map((i) => inputRef(i, fs[i]!.type, fs[i]!.name)), keep.map((i) => r.cols[i]!.name));
}

function tableArg(ctx: BindContext, it: TableFunctionItem, e: Expr, bindFrom: (ctx: BindContext, item: FromItem) => BoundRel): RelNode {
  if (e.kind === 'column') {
    const name = e.qualifier !== undefined ? `${e.qualifier}.${e.name}` : e.name;
    return visiblePlan(bindFrom(ctx, { kind: 'table', name, pos: e.pos }));
  }
  if (e.kind === 'subquery') {
    const inner: BindContext = { sql: ctx.sql, bindQuery: ctx.bindQuery, ...(ctx.ctes ? { ctes: ctx.ctes } : {}), ...(ctx.outer ? { outer: ctx.outer } : {}) };
    return visiblePlan(ctx.bindQuery(inner, e.query));
  }
  if (e.kind === 'literal') throw sqlError(ctx.sql, e.pos, `${it.name}: parameters are named (name := value); only tables are positional`);
  throw sqlError(ctx.sql, e.pos, `${it.name}: a table argument must be a table name or a parenthesized query, e.g. ${it.name}((SELECT x, y FROM t))`);
}

function paramValue(ctx: BindContext, it: TableFunctionItem, name: string, e: Expr): ParamValue {
  if (e.kind === 'literal') {
    if (e.literal === 'number') return Number(e.value);
    if (e.literal === 'string') return e.value ?? '';
    if (e.literal === 'boolean') return String(e.value).toLowerCase() === 'true';
    if (e.literal === 'null') return null;
  }
  if (e.kind === 'unary' && (e.op === '-' || e.op === '+') && e.arg.kind === 'literal' && e.arg.literal === 'number') return (e.op === '-' ? -1 : 1) * Number(e.arg.value);
  throw sqlError(ctx.sql, e.pos, `${it.name}: parameter ${name} must be a constant (a number or a quoted string)`);
}

/** Binds an ML table function (`isMlFunction(item.name)`); `bindFrom` binds a table name as FROM would. */
export function bindMlFunction(ctx: BindContext, it: TableFunctionItem, bindFrom: (ctx: BindContext, item: FromItem) => BoundRel): RelNode {
  const name = it.name.toLowerCase();
  const tables = it.args.map((a) => tableArg(ctx, it, a, bindFrom));
  const params = new Map<string, ParamValue>();
  for (const o of it.options) {
    if (params.has(o.name)) throw sqlError(ctx.sql, o.value.pos, `${name}: parameter ${o.name} is given twice`);
    params.set(o.name, paramValue(ctx, it, o.name, o.value));
  }
  try {
    return mlNode(name, tables, params);
  } catch (err) {
    if (err instanceof EddyError) throw sqlError(ctx.sql, it.pos, err.message);
    throw err;
  }
}
