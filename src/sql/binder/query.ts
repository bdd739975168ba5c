/**
 * Binds any query: SELECT (select.ts), set operations (common column types,
 * casts on each side, names from the left), VALUES (constant rows, types
 * unified per column, columns col0, col1, ...), and WITH (each CTE bound once
 * and reused by every reference; a CTE shadows a table of the same name; a
 * CTE of WITH RECURSIVE that reads itself binds to an Iterate, recursive.ts).
 * ORDER BY / LIMIT on set operations, VALUES and WITH resolve against the
 * output columns.
 */
import { evaluateConstant } from '../../exec/kernels/index.js';
import * as rel from '../../relnode/rel.js';
import { cast, inputRef, literal, type LiteralValue, type RexNode } from '../../relnode/rex.js';
import { commonType, field, schemaOf, type SqlType } from '../../relnode/types.js';
import type { Query, SetOpQuery, ValuesQuery, WithQuery } from '../ast.js';
import { sqlError, type BindContext, type CteScope } from './context.js';
import { bindExpr } from './expr.js';
import { constantValue } from './literals.js';
import { finish, resolveOrder } from './order.js';
import { colsOf, visibleWidth, type BoundQuery, type BoundRel } from './scope.js';
import { bindRecursiveCte } from './recursive.js';
import { pushMinIntoRecursion } from './recursive-min.js';
import { keepMinUsingKey } from './recursive-keymin.js';
import { bindSelect } from './select.js';

/** Binds a query at any nesting level. */
export function bindQuery(ctx: BindContext, q: Query): BoundQuery {
  switch (q.kind) {
    case 'select': return bindSelect(ctx, q);
    case 'setop': return withTail(ctx, q, bindSetOp(ctx, q));
    case 'values': return withTail(ctx, q, bindValues(ctx, q));
    case 'with': return bindWith(ctx, q);
  }
}

/** Applies ORDER BY / LIMIT / OFFSET over a query's output columns. */
function withTail(ctx: BindContext, q: Query, r: BoundQuery): BoundQuery {
  if (!q.orderBy && !q.limit && !q.offset) return r;
  const cols = r.cols;
  const names = cols.map((c) => c.name);
  const exprs = cols.map((c, i) => inputRef(i, c.type, c.name));
  const scope = { ctx: { sql: ctx.sql, bindQuery: ctx.bindQuery }, cols, clause: 'ORDER BY' };
  const order = resolveOrder(ctx, q.orderBy, { names, exprs }, (e) => bindExpr(scope, e));
  const plan = finish(ctx, { base: r.plan, exprs, names, order, distinct: false, ...(q.limit ? { limit: q.limit } : {}), ...(q.offset ? { offset: q.offset } : {}) });
  return { ...r, plan };
}

function bindSetOp(ctx: BindContext, q: SetOpQuery): BoundQuery {
  const what = `${q.op.toUpperCase()}${q.all ? ' ALL' : ''}`;
  const l = bindQuery(ctx, q.left);
  const r = bindQuery(ctx, q.right);
  const lw = visibleWidth(l);
  const rw = visibleWidth(r);
  if (lw !== rw) throw sqlError(ctx.sql, q.pos, `${what} needs the same number of columns on both sides, got ${lw} and ${rw}`);
  const lf = l.plan.schema.fields;
  const rf = r.plan.schema.fields;
  const types = lf.map((f, i) => {
    const t = commonType(f.type, rf[i]!.type);
    if (t === undefined) throw sqlError(ctx.sql, q.pos, `${what} column ${i + 1} ("${f.name}") is ${f.type} on one side and ${rf[i]!.type} on the other; cast one side`);
    return t;
  });
  const names = lf.map((f) => f.name);
  const coerce = (p: rel.RelNode): rel.RelNode => (p.schema.fields.every((f, i) => f.type === types[i])
    ? p
    : rel.project(p, p.schema.fields.map((f, i) => cast(inputRef(i, f.type, f.name), types[i]!)), p.schema.fields.map((f) => f.name)));
  const a = coerce(l.plan);
  const b = coerce(r.plan);
  const plan = q.op === 'union' ? rel.union([a, b], q.all) : rel.setOp(q.op, a, b, q.all);
  return { plan, cols: plan.schema.fields.map((f, i) => ({ name: names[i]!, type: f.type, nullable: f.nullable })) };
}

function bindValues(ctx: BindContext, q: ValuesQuery): BoundQuery {
  const width = q.rows[0]?.length ?? 0;
  const scope = { ctx: { sql: ctx.sql, bindQuery: ctx.bindQuery }, cols: [], clause: 'VALUES' };
  const bound = q.rows.map((row, r) => {
    if (row.length !== width) throw sqlError(ctx.sql, row[0]?.pos ?? q.pos, `VALUES row ${r + 1} has ${row.length} values, expected ${width}`);
    return row.map((e) => {
      const b = bindExpr(scope, e);
      return { rex: b, value: constantValue(ctx.sql, b, e.pos, 'a VALUES entry'), pos: e.pos, text: b.kind === 'Literal' && b.type === 'VARCHAR' };
    });
  });
  // String literals take the type of the column's other values ('2020-01-01' next to DATEs), as in DuckDB.
  const types: SqlType[] = [];
  for (let c = 0; c < width; c++) {
    let t: SqlType = 'NULL';
    for (const row of bound) {
      const v = row[c]!;
      if (v.text) continue;
      const next = commonType(t, v.rex.type);
      if (next === undefined) throw sqlError(ctx.sql, v.pos, `VALUES column ${c + 1} mixes ${t} and ${v.rex.type}; cast the values to one type`);
      t = next;
    }
    if (t === 'NULL' && bound.some((row) => row[c]!.text)) t = 'VARCHAR';
    types.push(t);
  }
  for (const row of bound) {
    row.forEach((v, c) => {
      if (!v.text || types[c] === 'VARCHAR') return;
      try {
        v.value = convert(v.value, 'VARCHAR', types[c]!);
      } catch {
        throw sqlError(ctx.sql, v.pos, `VALUES column ${c + 1} is ${types[c]} but '${String(v.value)}' is not ${/^[AEIOU]/.test(types[c]!) ? 'an' : 'a'} ${types[c]} value`);
      }
      v.rex = literal(v.value, types[c]!);
    });
  }
  const rows: LiteralValue[][] = bound.map((row) => row.map((v, c) => convert(v.value, v.rex.type, types[c]!)));
  const schema = schemaOf(types.map((t, c) => field(`col${c}`, t, rows.some((r) => r[c] === null))));
  const plan = rel.values(rows, schema);
  return { plan, cols: colsOf(plan) };
}

function convert(v: LiteralValue, from: SqlType, to: SqlType): LiteralValue {
  if (v === null || from === to) return v;
  return evaluateConstant(cast(literal(v, from), to) as RexNode);
}

function bindWith(ctx: BindContext, q: WithQuery): BoundQuery {
  const ctes = new Map<string, BoundRel>();
  const scope: CteScope = { ctes, ...(ctx.ctes ? { parent: ctx.ctes } : {}) };
  for (const c of q.ctes) {
    const key = c.name.toLowerCase();
    if (ctes.has(key)) throw sqlError(ctx.sql, c.pos, `CTE "${c.name}" is defined twice in this WITH`);
    if (!q.recursive && c.usingKey) throw sqlError(ctx.sql, c.usingKey.pos, 'USING KEY needs WITH RECURSIVE and a CTE that reads itself');
    const recursive = q.recursive ? bindRecursiveCte(ctx, scope, c, q.recursionLimit) : undefined;
    if (recursive) { ctes.set(key, recursive); continue; }
    const b = bindQuery({ sql: ctx.sql, bindQuery: ctx.bindQuery, ctes: scope }, c.query);
    let plan = b.plan;
    const width = visibleWidth(b);
    if (c.columns) {
      if (c.columns.length > width) throw sqlError(ctx.sql, c.pos, `CTE "${c.name}" names ${c.columns.length} columns but its query returns ${width}`);
      const names = plan.schema.fields.map((f, i) => c.columns![i] ?? f.name);
      plan = rel.project(plan, plan.schema.fields.map((f, i) => inputRef(i, f.type, f.name)), names);
    }
    ctes.set(key, { plan, cols: colsOf(plan, c.name) });
  }
  let body = bindQuery({ ...ctx, ctes: scope }, q.body);
  if (q.recursive) body = { ...body, plan: pushMinIntoRecursion(keepMinUsingKey(body.plan)) };
  return withTail(ctx, q, body);
}
