/**
 * Window calls → Window nodes, for SQL (select.ts) and the Table API
 * (src/api): `bindWindowCall` checks a call (function, arguments, constant
 * parameters, frame) and binds its expressions over the pre-window scope;
 * `buildWindows` projects the expressions the calls read, stacks one Window
 * node per distinct (PARTITION BY, ORDER BY) pair, and ends with a Project
 * whose columns are the base's, then one per call in call order.
 *
 * Result types are DuckDB's: row_number, rank, dense_rank, ntile and count
 * BIGINT; percent_rank and cume_dist DOUBLE; lag, lead, first_value,
 * last_value, nth_value, min and max their argument's type; the other
 * aggregates as in GROUP BY (aggReturnType).
 */
import { canonicalRex } from '../../relnode/digest.js';
import { aggReturnType, isMismatch, type AggFn } from '../../relnode/functions.js';
import * as rel from '../../relnode/rel.js';
import { cast, inputRef, type RexNode } from '../../relnode/rex.js';
import { sourceSpan, type SourceSpan } from '../../relnode/source-span.js';
import type { SqlType } from '../../relnode/types.js';
import { DEFAULT_ORDERED_FRAME, WHOLE_PARTITION, type FrameBound, type WindowFn, type WindowFrame } from '../../relnode/window.js';
import type { Expr, FrameBoundSpec, Pos } from '../ast.js';
import { lookupFunction } from '../functions.js';
import { sqlError, type BindContext } from './context.js';
import { bindExpr, type ExprScope } from './expr.js';
import { constantValue } from './literals.js';
import { defaultNullsFirst } from './null-order.js';
import { WINDOW_ONLY, type WindowCallExpr } from './window-extract.js';

/** A window call with its expressions bound over the pre-window scope. */
export interface BoundWindowCall {
  readonly fn: WindowFn;
  readonly args: readonly RexNode[];
  readonly param?: number;
  readonly partition: readonly RexNode[];
  readonly order: readonly { readonly expr: RexNode; readonly desc: boolean; readonly nullsFirst: boolean }[];
  readonly frame: WindowFrame;
  readonly type: SqlType;
  readonly name: string;
  /** Where the call was written (WindowCall.at). */
  readonly at?: SourceSpan;
}

const RANKING = new Set(['row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist']);

/** Binds one window call: its function, arguments, PARTITION BY, ORDER BY and frame. */
export function bindWindowCall(s: ExprScope, w: WindowCallExpr, name: string): BoundWindowCall {
  const { call, spec } = w;
  const ctx = s.ctx;
  const fname = call.name.toLowerCase();
  const partition = (spec.partitionBy ?? []).map((e) => bindExpr(s, e));
  const order = (spec.orderBy ?? []).map((o) => ({ expr: bindExpr(s, o.expr), desc: o.desc, nullsFirst: o.nullsFirst ?? defaultNullsFirst(ctx, o.desc) }));
  const frame = spec.frame ? frameOf(ctx, spec.frame) : order.length > 0 ? DEFAULT_ORDERED_FRAME : WHOLE_PARTITION;
  if (frame.mode === 'range' && [frame.start, frame.end].some((b) => b.kind === 'preceding' || b.kind === 'following')) {
    if (order.length !== 1) throw sqlError(ctx.sql, spec.frame!.pos, `a RANGE frame with an offset needs exactly one ORDER BY expression, got ${order.length}`);
    const t = order[0]!.expr.type;
    if (!(t === 'INTEGER' || t === 'BIGINT' || t === 'DOUBLE' || t === 'DATE' || t === 'NULL')) throw sqlError(ctx.sql, spec.frame!.pos, `a RANGE frame with an offset needs a numeric or DATE ORDER BY expression, got ${t}`);
  }
  const base = { partition, order, frame, name, at: sourceSpan(ctx.sql.text, call.pos) };
  const arity = (min: number, max: number): void => {
    if (call.star && fname !== 'count') throw sqlError(ctx.sql, call.pos, `${fname}(*) is not valid; write ${fname}(...)`);
    if (call.args.length < min || call.args.length > max) {
      throw sqlError(ctx.sql, call.pos, `${fname}() takes ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? '' : 's'}, got ${call.args.length}`);
    }
    if (call.distinct) throw sqlError(ctx.sql, call.pos, `DISTINCT is not supported in window function ${fname}()`);
    if (call.orderBy) throw sqlError(ctx.sql, call.pos, `ORDER BY inside ${fname}(...) is not supported in a window function; use the OVER clause's ORDER BY`);
  };
  if (RANKING.has(fname)) {
    arity(0, 0);
    const type: SqlType = fname === 'percent_rank' || fname === 'cume_dist' ? 'DOUBLE' : 'BIGINT';
    return { ...base, fn: fname as WindowFn, args: [], type };
  }
  if (fname === 'ntile') {
    arity(1, 1);
    const n = constantInt(s, call.args[0]!, 'the ntile() bucket count');
    if (n < 1) throw sqlError(ctx.sql, call.args[0]!.pos, `ntile() needs a positive bucket count, got ${n}`);
    return { ...base, fn: 'ntile', args: [], param: n, type: 'BIGINT' };
  }
  if (fname === 'lag' || fname === 'lead') {
    arity(1, 3);
    const x = bindExpr(s, call.args[0]!);
    const off = call.args.length > 1 ? constantInt(s, call.args[1]!, `the ${fname}() offset`) : 1;
    const args = [x];
    if (call.args.length > 2) {
      const d = bindExpr(s, call.args[2]!);
      args.push(d.type === x.type ? d : cast(d, x.type === 'NULL' ? d.type : x.type));
    }
    return { ...base, fn: fname, args, param: off, type: x.type };
  }
  if (fname === 'first_value' || fname === 'last_value' || fname === 'nth_value') {
    arity(fname === 'nth_value' ? 2 : 1, fname === 'nth_value' ? 2 : 1);
    const x = bindExpr(s, call.args[0]!);
    if (fname !== 'nth_value') return { ...base, fn: fname, args: [x], type: x.type };
    const n = constantInt(s, call.args[1]!, 'the nth_value() position');
    if (n < 1) throw sqlError(ctx.sql, call.args[1]!.pos, `nth_value() needs a position of at least 1, got ${n}`);
    return { ...base, fn: 'nth_value', args: [x], param: n, type: x.type };
  }
  const f = lookupFunction(fname);
  if (f?.kind !== 'aggregate') {
    const known = WINDOW_ONLY.has(fname) ? '' : ' (window functions: row_number, rank, dense_rank, percent_rank, cume_dist, ntile, lag, lead, first_value, last_value, nth_value, and every aggregate)';
    throw sqlError(ctx.sql, call.pos, `${fname}() cannot be used with OVER: it is not a window function or an aggregate${known}`);
  }
  if (call.star) {
    arity(0, 0);
    return { ...base, fn: 'count_star', args: [], type: 'BIGINT' };
  }
  arity(1, 1);
  const x = bindExpr(s, call.args[0]!);
  const fn: AggFn = f.fn;
  const type = aggReturnType(fn, x.type);
  if (isMismatch(type)) throw sqlError(ctx.sql, call.args[0]!.pos, type.error);
  return { ...base, fn, args: [x], type };
}

/**
 * A constant integer argument. Bound over the call's columns, so that one read there is refused
 * as not constant (not as a column that is "not found").
 */
function constantInt(s: ExprScope, e: Expr, what: string): number {
  const v = constantValue(s.ctx.sql, bindExpr({ ctx: s.ctx, cols: s.cols, clause: what }, e), e.pos, what);
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw sqlError(s.ctx.sql, e.pos, `${what} must be a constant integer, got ${String(v)}`);
  return n;
}

function frameOf(ctx: BindContext, f: { mode: 'rows' | 'range'; start: FrameBoundSpec; end?: FrameBoundSpec; pos: Pos }): WindowFrame {
  const bound = (b: FrameBoundSpec): FrameBound => {
    if (b.kind !== 'preceding' && b.kind !== 'following') return { kind: b.kind };
    return { kind: b.kind, offset: frameOffset(ctx, b.offset!, f.mode) };
  };
  const start = bound(f.start);
  const end: FrameBound = f.end ? bound(f.end) : { kind: 'currentRow' };
  if (start.kind === 'unboundedFollowing') throw sqlError(ctx.sql, f.start.pos, 'a window frame cannot start at UNBOUNDED FOLLOWING');
  if (end.kind === 'unboundedPreceding') throw sqlError(ctx.sql, (f.end ?? f.start).pos, 'a window frame cannot end at UNBOUNDED PRECEDING');
  if ((start.kind === 'currentRow' && end.kind === 'preceding') || (start.kind === 'following' && (end.kind === 'preceding' || end.kind === 'currentRow'))) {
    throw sqlError(ctx.sql, f.pos, 'a window frame cannot end before it starts (write the start bound first, then the end bound)');
  }
  return { mode: f.mode, start, end };
}

/** A frame offset: a constant non-negative number (an integer for ROWS), or `INTERVAL n DAY` for a DATE key. */
function frameOffset(ctx: BindContext, e: Expr, mode: 'rows' | 'range'): number {
  let v: unknown;
  if (e.kind === 'interval') {
    if (e.unit !== 'day' || mode === 'rows') throw sqlError(ctx.sql, e.pos, 'a window frame offset must be a number or, for a RANGE over a DATE, INTERVAL n DAY');
    v = e.value;
  } else {
    v = constantValue(ctx.sql, bindExpr({ ctx, cols: [], clause: 'a window frame offset' }, e), e.pos, 'a window frame offset');
  }
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) throw sqlError(ctx.sql, e.pos, `a window frame offset must be a non-negative constant, got ${String(v)}`);
  if (mode === 'rows' && !Number.isInteger(n)) throw sqlError(ctx.sql, e.pos, `a ROWS frame offset must be an integer, got ${n}`);
  return n;
}

/**
 * Window nodes over `base` for the calls (their expressions rewritten over
 * base's output by `post`): the result has base's columns, then one column
 * per call, in order.
 */
export function buildWindows(base: rel.RelNode, calls: readonly BoundWindowCall[], post: (e: RexNode) => RexNode = (e) => e): rel.RelNode {
  const bf = base.schema.fields;
  const w = bf.length;
  const comps: RexNode[] = [];
  const canon: string[] = [];
  const slot = (e0: RexNode): number => {
    const e = post(e0);
    if (e.kind === 'InputRef') return e.index;
    const c = canonicalRex(e);
    let k = canon.indexOf(c);
    if (k < 0) { comps.push(e); canon.push(c); k = comps.length - 1; }
    return w + k;
  };
  const shaped = calls.map((c) => ({
    call: { fn: c.fn, args: c.args.map(slot), ...(c.param !== undefined ? { param: c.param } : {}), frame: c.frame, type: c.type, name: c.name, ...(c.at !== undefined ? { at: c.at } : {}) } as rel.WindowCall,
    partition: c.partition.map(slot),
    order: c.order.map((o) => ({ index: slot(o.expr), desc: o.desc, nullsFirst: o.nullsFirst })),
  }));
  const refs = bf.map((f, i) => inputRef(i, f.type, f.name));
  let plan: rel.RelNode = comps.length === 0 ? base : rel.project(base, [...refs, ...comps], [...bf.map((f) => f.name), ...comps.map((_, k) => `__window_arg${k}`)]);
  // One Window per (PARTITION BY, ORDER BY): calls that share them share the sort.
  const position = new Array<number>(calls.length);
  const groups = new Map<string, number[]>();
  shaped.forEach((s, j) => {
    const key = `${s.partition.join(',')}|${s.order.map((o) => `${o.index}${o.desc ? 'd' : 'a'}${o.nullsFirst ? 'f' : 'l'}`).join(',')}`;
    const g = groups.get(key);
    if (g) g.push(j); else groups.set(key, [j]);
  });
  for (const js of groups.values()) {
    const first = shaped[js[0]!]!;
    const width = plan.schema.fields.length;
    plan = rel.window(plan, first.partition, first.order, js.map((j) => shaped[j]!.call));
    js.forEach((j, t) => { position[j] = width + t; });
  }
  const out = plan.schema.fields;
  const keep = [...refs.map((_, i) => i), ...position];
  return rel.project(plan, keep.map((i) => inputRef(i, out[i]!.type, out[i]!.name)), [...bf.map((f) => f.name), ...calls.map((c) => c.name)]);
}
