/**
 * WITH RECURSIVE → an accumulate-mode Iterate (src/relnode/iterate.ts), with
 * the semantics of ../shared/slt/README.md and docs/sql-recursive.md:
 *
 *   t(cols) [USING KEY (k)] AS (anchor UNION [ALL] recursive-term)
 *
 * - A CTE of WITH RECURSIVE is recursive only when its query reads itself
 *   (DuckDB); then it must be `anchor UNION [ALL] term` with every
 *   self-reference after the last UNION. The anchor is the Iterate's
 *   initial variable; the term its `next`, where each `t` is a FeedbackRef
 *   (view `current`: the rows the previous round added, DuckDB's working
 *   table — several references each read them) and each `recurring.t` the
 *   keyed accumulated table (view `recurring`, USING KEY only). UNION sets
 *   `distinct`, UNION ALL not.
 * - Column names: the CTE's column list, else the anchor's. Types: the
 *   anchor's, the term's columns cast to them (DuckDB); an anchor column of
 *   type NULL takes the term's type (found by binding the term once first).
 * - The tables the term reads become data inputs (recursive-lift.ts).
 * - `(RETURN | ERROR) AT RECURSION LIMIT n` after RECURSIVE sets every
 *   recursive CTE of the WITH to maxRounds n, atMaxRounds return | error;
 *   without it the environment's round cap applies (the lowering's).
 *
 * Errors (each at the offending text): INTERSECT / EXCEPT as the recursion
 * operator, ORDER BY / LIMIT / OFFSET on the recursive query or its term, a
 * self-reference in the anchor, `recurring.t` without USING KEY, an unknown
 * or repeated key column, USING KEY on a CTE that does not recurse, and a
 * recursive CTE that reads an outer query's columns.
 */
import { canCast } from '../../exec/kernels/index.js';
import { feedbackRef, iterate } from '../../relnode/iterate.js';
import * as rel from '../../relnode/rel.js';
import { cast, inputRef } from '../../relnode/rex.js';
import { field, schemaOf, type SqlType } from '../../relnode/types.js';
import type { Cte, Pos, Query, RecursionLimit, SetOpQuery } from '../ast.js';
import { sqlError, type BindContext, type CteScope } from './context.js';
import { liftRecursiveData } from './recursive-lift.js';
import { cteRefs } from './recursive-refs.js';
import { colsOf, suggest, visibleWidth, type BoundRel } from './scope.js';

/**
 * Binds CTE `c` of a WITH RECURSIVE when its query reads itself; returns
 * undefined when it does not (the caller binds it as a plain CTE). `scope`
 * holds the WITH's earlier CTEs.
 */
export function bindRecursiveCte(ctx: BindContext, scope: CteScope, c: Cte, limit: RecursionLimit | undefined): BoundRel | undefined {
  const refs = cteRefs(c.query, c.name);
  if (refs.length === 0) {
    if (c.usingKey) throw sqlError(ctx.sql, c.usingKey.pos, `USING KEY needs a recursive CTE: "${c.name}" does not read itself`);
    return undefined;
  }
  const q = recursiveUnion(ctx, c, refs[0]!.pos);
  const anchorRef = cteRefs(q.left, c.name)[0];
  if (anchorRef) {
    throw sqlError(ctx.sql, anchorRef.pos, `recursive CTE "${c.name}" reads itself in its anchor (the query before the last UNION); only the recursive term after it may`);
  }
  checkTail(ctx, q.right, 'the recursive term of a recursive CTE');
  const recurring = cteRefs(q.right, c.name).find((r) => r.recurring);
  if (recurring && !c.usingKey) {
    throw sqlError(ctx.sql, recurring.pos, `recurring.${c.name} reads the keyed table of a USING KEY CTE; add USING KEY (columns) to "${c.name}"`);
  }
  const anchor = bindAnchor(ctx, scope, c, q.left);
  const names = anchor.plan.schema.fields.map((f) => f.name);
  const keys = c.usingKey ? keyColumns(ctx, c, names) : undefined;
  const env: BindContext = { sql: ctx.sql, bindQuery: ctx.bindQuery, ctes: scope };
  // An anchor column typed NULL (`SELECT NULL`) takes the recursive term's type: bind the term once to learn it.
  let types = anchor.plan.schema.fields.map((f) => f.type);
  if (types.includes('NULL')) {
    const probe = bindTerm(env, c, q, types, names, keys !== undefined, false);
    types = types.map((t, i) => (t === 'NULL' ? probe.plan.schema.fields[i]!.type : t));
  }
  const initial = coerce(ctx, anchor.plan, types, names, q.left.pos, 'anchor');
  const term = bindTerm(env, c, q, types, names, keys !== undefined, true);
  if (rel.outerRefsOf(initial).size > 0 || rel.outerRefsOf(term.plan).size > 0) {
    throw sqlError(ctx.sql, c.pos, `recursive CTE "${c.name}" reads columns of an outer query; a recursive CTE must be self-contained (LATERAL-style correlation is not supported)`);
  }
  const data: rel.RelNode[] = [];
  const next = liftRecursiveData(term.plan, data);
  const distinct = !q.all;
  // UNION: the anchor's own duplicates go too (DuckDB returns one row for `VALUES (1), (1) UNION ...`).
  const variable = distinct && keys === undefined ? rel.distinct(initial) : initial;
  const plan = iterate({
    variables: [variable],
    data,
    next: [next],
    mode: 'accumulate',
    distinct,
    ...(keys !== undefined ? { keys: [keys] } : {}),
    ...(limit !== undefined ? { maxRounds: limit.rounds, atMaxRounds: limit.action } : {}),
  });
  return { plan, cols: colsOf(plan, c.name) };
}

/** The CTE's query as `anchor UNION [ALL] term`, or the error saying why it is not one. */
function recursiveUnion(ctx: BindContext, c: Cte, refPos: Pos): SetOpQuery {
  const q: Query = c.query;
  if (q.kind !== 'setop') {
    throw sqlError(ctx.sql, refPos, `recursive CTE "${c.name}" reads itself, so its query must be an anchor query, UNION [ALL], then the recursive term that reads "${c.name}"`);
  }
  if (q.op !== 'union') {
    throw sqlError(ctx.sql, q.pos, `${q.op.toUpperCase()} cannot join the anchor and the recursive term of recursive CTE "${c.name}"; use UNION or UNION ALL`);
  }
  checkTail(ctx, q, 'a recursive CTE');
  return q;
}

/** ORDER BY / LIMIT / OFFSET are errors on the recursive query and on its term (DuckDB, PostgreSQL). */
function checkTail(ctx: BindContext, q: Query, where: string): void {
  const at = q.orderBy?.[0]?.expr.pos ?? q.limit?.pos ?? q.offset?.pos;
  if (at === undefined) return;
  const what = q.orderBy ? 'ORDER BY' : q.limit ? 'LIMIT' : 'OFFSET';
  throw sqlError(ctx.sql, at, `${what} is not allowed in ${where}; put it on the query that reads the CTE`);
}

/** The anchor bound over the WITH's earlier CTEs, its visible columns named by the CTE's column list. */
function bindAnchor(ctx: BindContext, scope: CteScope, c: Cte, anchor: Query): BoundRel {
  const b = ctx.bindQuery({ sql: ctx.sql, bindQuery: ctx.bindQuery, ctes: scope }, anchor);
  const width = visibleWidth(b);
  if (c.columns && c.columns.length > width) throw sqlError(ctx.sql, c.pos, `CTE "${c.name}" names ${c.columns.length} columns but its query returns ${width}`);
  const fields = b.plan.schema.fields.slice(0, width);
  const names = fields.map((f, i) => c.columns?.[i] ?? f.name);
  const plan = rel.project(b.plan, fields.map((f, i) => inputRef(i, f.type, f.name)), names);
  return { plan, cols: colsOf(plan) };
}

/** USING KEY's columns as ordinals of the CTE's columns. */
function keyColumns(ctx: BindContext, c: Cte, names: readonly string[]): number[] {
  const key = c.usingKey!;
  const out: number[] = [];
  for (const k of key.columns) {
    const i = names.findIndex((n) => n.toLowerCase() === k.toLowerCase());
    if (i < 0) {
      const hint = suggest(k, names);
      throw sqlError(ctx.sql, key.pos, `USING KEY column "${k}" is not a column of CTE "${c.name}"${hint ? `; did you mean "${hint}"?` : ` (its columns: ${names.join(', ')})`}`);
    }
    if (out.includes(i)) throw sqlError(ctx.sql, key.pos, `USING KEY names column "${k}" twice`);
    out.push(i);
  }
  return out;
}

/**
 * The recursive term over FeedbackRefs of the given column types (every
 * column nullable: the term may add NULLs), cast to those types (unless
 * `coerceTypes` is false: the probe that learns the types of NULL columns).
 */
function bindTerm(env: BindContext, c: Cte, q: SetOpQuery, types: readonly SqlType[], names: readonly string[], keyed: boolean, coerceTypes: boolean): BoundRel {
  const schema = schemaOf(types.map((t, i) => field(names[i]!, t, true)));
  const self = new Map<string, BoundRel>();
  const current = feedbackRef(0, schema, 'current');
  self.set(c.name.toLowerCase(), { plan: current, cols: colsOf(current, c.name) });
  if (keyed) {
    const recurring = feedbackRef(0, schema, 'recurring');
    self.set(`recurring.${c.name.toLowerCase()}`, { plan: recurring, cols: colsOf(recurring, c.name) });
  }
  const ctes: CteScope = { ctes: self, ...(env.ctes ? { parent: env.ctes } : {}) };
  const b = env.bindQuery({ sql: env.sql, bindQuery: env.bindQuery, ctes }, q.right);
  const width = visibleWidth(b);
  if (width !== types.length) {
    throw sqlError(env.sql, q.right.pos, `the recursive term of CTE "${c.name}" returns ${width} columns but its anchor returns ${types.length}; UNION needs the same number on both sides`);
  }
  if (!coerceTypes) return b;
  const plan = coerce(env, b.plan, types, names, q.right.pos, 'recursive term');
  return { plan, cols: colsOf(plan) };
}

/** The first `types.length` columns of `p`, cast to `types` and named `names`. */
function coerce(ctx: BindContext, p: rel.RelNode, types: readonly SqlType[], names: readonly string[], pos: Pos, what: string): rel.RelNode {
  const fields = p.schema.fields;
  const exprs = types.map((t, i) => {
    const f = fields[i]!;
    if (f.type !== t && !canCast(f.type, t)) {
      throw sqlError(ctx.sql, pos, `column ${i + 1} ("${names[i]}") of the ${what} is ${f.type}, which does not convert to the CTE's ${t}; cast it`);
    }
    return cast(inputRef(i, f.type, f.name), t);
  });
  const same = fields.length === types.length && exprs.every((e, i) => e.kind === 'InputRef' && fields[i]!.name === names[i]);
  return same ? p : rel.project(p, exprs, [...names]);
}
