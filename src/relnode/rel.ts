/**
 * Relational plan nodes (RelNode): a closed union of immutable nodes, each
 * built by a checking constructor that derives its output schema once.
 */
import { ValidationError } from './errors.js';
import type { AggFn } from './functions.js';
import { assertNever, inputRef, rexInputs, rexVisit, type LiteralValue, type RexNode } from './rex.js';
import type { SourceSpan } from './source-span.js';
import { field, schemaOf, type Field, type Schema, type SqlType } from './types.js';
import { window, type Window } from './window.js';
import { tableFunction, type TableFunction } from './table-function.js';
import { iterateChildren, iterateWithChildren, registerChildren, type DataRef, type FeedbackRef, type Iterate } from './iterate.js';
import { distinct, setOp, union, type Distinct, type SetOp, type Union } from './set-ops.js';
import { cacheSink, type CacheSink, type CacheSource } from './cache-nodes.js';

export * from './window.js';
export * from './iterate.js';
export * from './table-function.js';
export * from './set-ops.js';
export * from './cache-nodes.js';

/**
 * The identity of a scanned source. `id` and `version` enter the digest; `handle`
 * is an opaque object the layers above use to open the data (never digested).
 */
export interface TableRef {
  readonly id: string;
  readonly name: string;
  readonly version: number;
  readonly schema: Schema;
  readonly handle: object;
}

export interface Scan {
  readonly kind: 'Scan';
  readonly table: TableRef;
  /** Ordinals of table.schema the scan outputs, in order (undefined = all). */
  readonly projection?: readonly number[];
  /** Conjuncts over the *table* schema the source may use to skip data; the scan still guarantees nothing (a Filter above re-checks). */
  readonly pushedFilters?: readonly RexNode[];
  readonly schema: Schema;
}

export interface Values {
  readonly kind: 'Values';
  readonly rows: readonly (readonly LiteralValue[])[];
  readonly schema: Schema;
}

export interface Filter {
  readonly kind: 'Filter';
  readonly input: RelNode;
  readonly condition: RexNode;
  readonly schema: Schema;
}

export interface Project {
  readonly kind: 'Project';
  readonly input: RelNode;
  readonly exprs: readonly RexNode[];
  readonly schema: Schema;
}

export interface AggCall {
  readonly fn: AggFn;
  /** Input ordinals (empty for count_star). */
  readonly args: readonly number[];
  readonly distinct: boolean;
  readonly type: SqlType;
  readonly name: string;
  /** agg(x ORDER BY k...): the directions of the sort keys, which are the last `order.length` args. */
  readonly order?: readonly { readonly desc: boolean; readonly nullsFirst: boolean }[];
  /**
   * Where the call was written in SQL (display-only, as a RexNode's span: relnode/source-span.ts): a
   * runtime error of its state (sum overflowing BIGINT) quotes it. The calls the planner derives from
   * it (a partial and final split, a roll-up) carry it on (`withCallSpan`).
   */
  readonly at?: SourceSpan;
}

/** `calls`, each carrying `at` unless it has a span of its own (the calls the planner derives from one SQL call). */
export function withCallSpan<C extends { readonly at?: SourceSpan }>(calls: readonly C[], at: SourceSpan | undefined): C[] {
  return at === undefined ? [...calls] : calls.map((c) => (c.at === undefined ? { ...c, at } : c));
}

export interface Aggregate {
  readonly kind: 'Aggregate';
  readonly input: RelNode;
  /** Input ordinals of the grouping keys; the output is the keys then one column per aggCall. */
  readonly groupKeys: readonly number[];
  readonly aggCalls: readonly AggCall[];
  readonly schema: Schema;
}

export type JoinType = 'inner' | 'left' | 'right' | 'full' | 'semi' | 'anti' | 'cross';

export interface Join {
  readonly kind: 'Join';
  readonly left: RelNode;
  readonly right: RelNode;
  readonly joinType: JoinType;
  /** Over the concatenation of left and right fields (left ordinals first). TRUE for a cross join. */
  readonly condition: RexNode;
  readonly schema: Schema;
}

export interface SortKey {
  readonly index: number;
  readonly desc: boolean;
  readonly nullsFirst: boolean;
}

export interface Sort {
  readonly kind: 'Sort';
  readonly input: RelNode;
  readonly keys: readonly SortKey[];
  /** A top-k limit (set by limit pushdown); undefined = all rows. */
  readonly fetch?: number;
  readonly offset?: number;
  readonly schema: Schema;
}

export interface Limit {
  readonly kind: 'Limit';
  readonly input: RelNode;
  readonly fetch: number;
  readonly offset: number;
  readonly schema: Schema;
}

/**
 * At most `fetch` rows (after skipping `offset`) per distinct value of the
 * `keys` columns, NULLs equal, in input order: a LIMIT inside a correlated
 * subquery, once decorrelated (one limit per outer value).
 */
export interface GroupLimit {
  readonly kind: 'GroupLimit';
  readonly input: RelNode;
  readonly keys: readonly number[];
  readonly fetch: number;
  readonly offset: number;
  readonly schema: Schema;
}

/**
 * How a Correlate joins each left row with the rows its right side gives for
 * it: semi / anti keep the left row when some / no right row satisfies the
 * condition ([NOT] EXISTS, [NOT] IN in WHERE); single appends the right
 * side's one row, or NULLs when it has none, and fails the query on more (a
 * scalar subquery); mark appends a BOOLEAN `mark` column: TRUE if some right
 * row satisfies the condition, else NULL if for some it is NULL, else FALSE
 * (EXISTS / IN used as values). inner / left are LATERAL joins: each left
 * row with every right row its right side gives for it that satisfies the
 * condition (left also keeps a left row without one, NULL-extended).
 */
export type CorrelateType = 'semi' | 'anti' | 'single' | 'mark' | 'inner' | 'left';

/**
 * A dependent join: `right` is evaluated for each row of `left` and may read
 * it through OuterRefs (ordinals of left). Built from Subquery expressions
 * and from LATERAL in FROM (src/sql/binder/lateral.ts), removed by the
 * decorrelation rules; it never reaches lowering.
 */
export interface Correlate {
  readonly kind: 'Correlate';
  readonly left: RelNode;
  readonly right: RelNode;
  readonly joinType: CorrelateType;
  /** Over left's fields then right's (TRUE when every right row counts). */
  readonly condition: RexNode;
  readonly schema: Schema;
  /** Where a scalar subquery ('single') was written in SQL: its "more than one row" error points there (display only, not a term). */
  readonly at?: SourceSpan;
}

export type RelNode = Scan | Values | Filter | Project | Aggregate | Join | Sort | Limit | Union | SetOp | Distinct | CacheSource | CacheSink | Correlate | GroupLimit | Window | Iterate | FeedbackRef | DataRef | TableFunction;
export type RelKind = RelNode['kind'];

// ---------------------------------------------------------------- constructors

function check(cond: boolean, msg: string): asserts cond {
  if (!cond) throw new ValidationError(msg);
}

function checkRefs(e: RexNode, width: number, where: string): void {
  for (const i of rexInputs(e)) check(i >= 0 && i < width, `internal error: ${where} refers to column $${i} of an input with ${width} columns`);
}

export function scan(table: TableRef, projection?: readonly number[], pushedFilters?: readonly RexNode[]): Scan {
  const all = table.schema.fields;
  if (projection) for (const i of projection) check(i >= 0 && i < all.length, `internal error: scan projection $${i} out of range`);
  const schema = projection ? schemaOf(projection.map((i) => all[i]!)) : table.schema;
  const node: Scan = { kind: 'Scan', table, schema };
  return {
    ...node,
    ...(projection ? { projection } : {}),
    ...(pushedFilters && pushedFilters.length > 0 ? { pushedFilters } : {}),
  };
}

export function values(rows: readonly (readonly LiteralValue[])[], schema: Schema): Values {
  for (const r of rows) check(r.length === schema.fields.length, `VALUES row has ${r.length} values, expected ${schema.fields.length}`);
  return { kind: 'Values', rows, schema };
}

export function filter(input: RelNode, condition: RexNode): Filter {
  check(condition.type === 'BOOLEAN' || condition.type === 'NULL', `filter condition must be BOOLEAN, got ${condition.type}`);
  checkRefs(condition, input.schema.fields.length, 'filter');
  return { kind: 'Filter', input, condition, schema: input.schema };
}

/** A Project of input columns `ordinals`, in that order, named `names` (default: the input columns' names). */
export function projectOrdinals(input: RelNode, ordinals: readonly number[], names?: readonly string[]): Project {
  const f = input.schema.fields;
  return project(input, ordinals.map((i) => inputRef(i, f[i]!.type, f[i]!.name)), names ?? ordinals.map((i) => f[i]!.name));
}

export function project(input: RelNode, exprs: readonly RexNode[], names: readonly string[]): Project {
  check(exprs.length === names.length, 'internal error: project names/exprs length mismatch');
  const inF = input.schema.fields;
  for (const e of exprs) checkRefs(e, inF.length, 'project');
  const fields = exprs.map((e, i) => {
    if (e.kind === 'InputRef') {
      const f = inF[e.index]!;
      return names[i] === f.name ? f : field(names[i]!, f.type, f.nullable, f.qualifier);
    }
    return field(names[i]!, e.type, e.kind === 'Literal' ? e.value === null : true);
  });
  return { kind: 'Project', input, exprs, schema: schemaOf(fields) };
}

export function aggregate(input: RelNode, groupKeys: readonly number[], aggCalls: readonly AggCall[]): Aggregate {
  const inF = input.schema.fields;
  for (const k of groupKeys) check(k >= 0 && k < inF.length, `internal error: group key $${k} out of range`);
  for (const a of aggCalls) for (const k of a.args) check(k >= 0 && k < inF.length, `internal error: aggregate argument $${k} out of range`);
  const fields: Field[] = groupKeys.map((k) => inF[k]!);
  for (const a of aggCalls) fields.push(field(a.name, a.type, !(a.fn === 'count' || a.fn === 'count_star')));
  return { kind: 'Aggregate', input, groupKeys, aggCalls, schema: schemaOf(fields) };
}

export function join(left: RelNode, right: RelNode, joinType: JoinType, condition: RexNode): Join {
  const lf = left.schema.fields;
  const rf = right.schema.fields;
  checkRefs(condition, lf.length + rf.length, 'join condition');
  check(condition.type === 'BOOLEAN' || condition.type === 'NULL', `join condition must be BOOLEAN, got ${condition.type}`);
  const nullable = (f: Field): Field => (f.nullable ? f : { ...f, nullable: true });
  let fields: Field[];
  switch (joinType) {
    case 'inner': case 'cross': fields = [...lf, ...rf]; break;
    case 'left': fields = [...lf, ...rf.map(nullable)]; break;
    case 'right': fields = [...lf.map(nullable), ...rf]; break;
    case 'full': fields = [...lf.map(nullable), ...rf.map(nullable)]; break;
    case 'semi': case 'anti': fields = [...lf]; break;
    default: return assertNever(joinType, 'join type');
  }
  return { kind: 'Join', left, right, joinType, condition, schema: schemaOf(fields) };
}

export function correlate(left: RelNode, right: RelNode, joinType: CorrelateType, condition: RexNode, at?: SourceSpan): Correlate {
  const lf = left.schema.fields;
  const rf = right.schema.fields;
  checkRefs(condition, lf.length + rf.length, 'correlate condition');
  check(condition.type === 'BOOLEAN' || condition.type === 'NULL', `correlate condition must be BOOLEAN, got ${condition.type}`);
  for (const i of outerRefsOf(right)) check(i >= 0 && i < lf.length, `internal error: a correlated subquery refers to outer column $${i} of an input with ${lf.length} columns`);
  let fields: Field[];
  switch (joinType) {
    case 'semi': case 'anti': fields = [...lf]; break;
    case 'inner': fields = [...lf, ...rf]; break;
    case 'single': case 'left': fields = [...lf, ...rf.map((f) => (f.nullable ? f : { ...f, nullable: true }))]; break;
    case 'mark': fields = [...lf, field('mark', 'BOOLEAN', true)]; break;
    default: return assertNever(joinType, 'correlate type');
  }
  const c: Correlate = { kind: 'Correlate', left, right, joinType, condition, schema: schemaOf(fields) };
  return at === undefined ? c : { ...c, at };
}

export function sort(input: RelNode, keys: readonly SortKey[], fetch?: number, offset?: number): Sort {
  for (const k of keys) check(k.index >= 0 && k.index < input.schema.fields.length, `internal error: sort key $${k.index} out of range`);
  const node: Sort = { kind: 'Sort', input, keys, schema: input.schema };
  return { ...node, ...(fetch !== undefined ? { fetch } : {}), ...(offset ? { offset } : {}) };
}

export function limit(input: RelNode, fetch: number, offset = 0): Limit {
  check(Number.isInteger(fetch) && fetch >= 0, `limit must be a non-negative integer, got ${fetch}`);
  check(Number.isInteger(offset) && offset >= 0, `offset must be a non-negative integer, got ${offset}`);
  return { kind: 'Limit', input, fetch, offset, schema: input.schema };
}

export function groupLimit(input: RelNode, keys: readonly number[], fetch: number, offset = 0): GroupLimit {
  for (const k of keys) check(k >= 0 && k < input.schema.fields.length, `internal error: group limit key $${k} out of range`);
  check(Number.isInteger(fetch) && fetch >= 0, `limit must be a non-negative integer, got ${fetch}`);
  check(Number.isInteger(offset) && offset >= 0, `offset must be a non-negative integer, got ${offset}`);
  return { kind: 'GroupLimit', input, keys, fetch, offset, schema: input.schema };
}

// ---------------------------------------------------------------- structure

/** The children of a node, in order. */
export function inputs(n: RelNode): readonly RelNode[] {
  switch (n.kind) {
    case 'Scan': case 'Values': case 'CacheSource': case 'FeedbackRef': case 'DataRef': return [];
    case 'Iterate': return iterateChildren(n);
    case 'TableFunction': return n.inputs;
    case 'Filter': case 'Project': case 'Aggregate': case 'Sort': case 'Limit': case 'Distinct': case 'CacheSink': case 'GroupLimit': case 'Window': return [n.input];
    case 'Join': case 'SetOp': case 'Correlate': return [n.left, n.right];
    case 'Union': return n.inputs;
    default: return assertNever(n, 'RelNode');
  }
}

/**
 * The same node over new children. Schemas are re-derived by the checking
 * constructors, so a child whose schema changed shape is caught here.
 */
export function withInputs(n: RelNode, ins: readonly RelNode[]): RelNode {
  const cur = inputs(n);
  if (cur.length === ins.length && cur.every((c, i) => c === ins[i])) return n;
  check(cur.length === ins.length, `internal error: ${n.kind} takes ${cur.length} inputs, got ${ins.length}`);
  const a = ins[0]!;
  switch (n.kind) {
    case 'Scan': case 'Values': case 'CacheSource': case 'FeedbackRef': case 'DataRef': return n;
    case 'Iterate': return iterateWithChildren(n, ins);
    case 'TableFunction': return tableFunction(n.name, ins, n.args, n.schema, n.impl, n.deterministic, n.columnsPassThrough === true);
    case 'Filter': return filter(a, n.condition);
    case 'Project': return project(a, n.exprs, n.schema.fields.map((f) => f.name));
    case 'Aggregate': return aggregate(a, n.groupKeys, n.aggCalls);
    case 'Sort': return sort(a, n.keys, n.fetch, n.offset);
    case 'Limit': return limit(a, n.fetch, n.offset);
    case 'GroupLimit': return groupLimit(a, n.keys, n.fetch, n.offset);
    case 'Distinct': return distinct(a);
    case 'Window': return window(a, n.partitionKeys, n.orderKeys, n.calls);
    case 'CacheSink': return cacheSink(a, n.entryId);
    case 'Join': return join(a, ins[1]!, n.joinType, n.condition);
    case 'SetOp': return setOp(n.op, a, ins[1]!, n.all);
    case 'Correlate': return correlate(a, ins[1]!, n.joinType, n.condition, n.at);
    case 'Union': return union(ins, n.all);
    default: return assertNever(n, 'RelNode');
  }
}

registerChildren(inputs);

/** Result of a traversal step: the (possibly new) node and whether anything changed. */
export interface Transformed {
  readonly node: RelNode;
  readonly changed: boolean;
}

/** Rewrites bottom-up: children first, then `f` on the node with rewritten children. */
export function transformUp(n: RelNode, f: (n: RelNode) => RelNode): RelNode {
  const ch = inputs(n);
  const nch = ch.map((c) => transformUp(c, f));
  const rebuilt = nch.some((c, i) => c !== ch[i]) ? withInputs(n, nch) : n;
  return f(rebuilt);
}

/** Rewrites top-down: `f` on the node first; if it returns a different node, recursion continues into the new node's children. */
export function transformDown(n: RelNode, f: (n: RelNode) => RelNode): RelNode {
  const m = f(n);
  const ch = inputs(m);
  const nch = ch.map((c) => transformDown(c, f));
  return nch.some((c, i) => c !== ch[i]) ? withInputs(m, nch) : m;
}

/** Visits every node, parents before children. */
export function visit(n: RelNode, f: (n: RelNode) => void): void {
  f(n);
  for (const c of inputs(n)) visit(c, f);
}

/** The expressions a node holds, all over its input(s) (Scan and CacheSource filters, over the source, have no outer references and are left out). */
export function nodeRexes(n: RelNode): readonly RexNode[] {
  switch (n.kind) {
    case 'Filter': return [n.condition];
    case 'Project': return n.exprs;
    case 'Join': case 'Correlate': return [n.condition];
    default: return [];
  }
}

/**
 * The outer ordinals a subquery plan reads: its OuterRefs, also inside
 * nested Subquery arguments, but not those inside a nested Correlate's right
 * side or a nested Subquery's plan (they belong to that inner subquery).
 */
export function outerRefsOf(n: RelNode, into: Set<number> = new Set()): Set<number> {
  for (const e of nodeRexes(n)) rexVisit(e, (x) => { if (x.kind === 'OuterRef') into.add(x.index); });
  if (n.kind === 'Correlate') outerRefsOf(n.left, into);
  else for (const c of inputs(n)) outerRefsOf(c, into);
  return into;
}
