/**
 * Binds the Table API's DSL trees (ExprNode, built by col()/lit()/sum()...)
 * to RexNodes against a scope (the columns of a table). The DSL tree is only
 * the DSL's data: binding goes through the SQL binder's core — one column
 * lookup (src/sql/binder/scope.ts lookupColumn), one call binder with its
 * coercions and literal typing (src/sql/binder/call.ts) — so the Table API
 * and SQL resolve, coerce and type the same way. Errors name what exists.
 */
import { ValidationError } from '../relnode/errors.js';
import { formatRex } from '../relnode/explain.js';
import { aggReturnType, isMismatch, type AggFn } from '../relnode/functions.js';
import { cast, inputRef, literal, type RexNode } from '../relnode/rex.js';
import { parseTypeName, schemaOf, type Field, SQL_TYPE_NAMES } from '../relnode/types.js';
import { canCast } from '../exec/kernels/index.js';
import { bindCall, bindCaseWhen, coerceLiteral, inferLiteralType } from '../sql/binder/call.js';
import { lookupColumn } from '../sql/binder/scope.js';
import { closest } from '../sql/binder/suggest.js';
import type { AggExtra } from '../sql/binder/aggregate.js';
import { MAX_EXPRESSION_DEPTH } from '../sql/limits.js';
import type { ExprNode } from './expr.js';

/** The columns visible to an expression: the input's fields, with optional table qualifiers. */
export type Scope = readonly Field[];

function displayCol(f: Field): string {
  return f.qualifier ? `${f.qualifier}.${f.name}` : f.name;
}

/** Resolves a column name (optionally qualified) to its ordinal, case-insensitively (the SQL binder's lookup). */
export function resolveColumn(scope: Scope, name: string, qualifier?: string): number {
  const found = lookupColumn(scope, name, qualifier);
  const full = qualifier ? `${qualifier}.${name}` : name;
  if (found.kind === 'found') return found.index;
  if (found.kind === 'ambiguous') {
    const m = found.matches;
    throw new ValidationError(`column "${full}" is ambiguous: it matches ${m.map((i) => displayCol(scope[i]!)).join(', ')}; qualify it (e.g. col('${scope[m[0]!]!.qualifier ?? 't'}.${name}')) or rename one side with .as(alias)`);
  }
  const names = scope.map(displayCol);
  const hint = closest(full, names) ?? closest(name, scope.map((f) => f.name));
  throw new ValidationError(`column "${full}" not found${hint ? `; did you mean "${hint}"?` : ''} (available: ${names.join(', ') || 'none'})`);
}

/** Options of one binding. */
export interface BindOptions {
  /** Called for each aggregate call met; returns the RexNode that stands for its result. Absent = aggregates are errors. */
  readonly onAggregate?: (fn: AggFn, arg: RexNode | undefined, distinct: boolean, node?: unknown, extra?: AggExtra) => RexNode;
  /** Where the expression is used, for error messages (e.g. 'filter'). */
  readonly where: string;
  /** Called for each window call met (the node itself); returns what stands for its result. Absent = window calls are errors. */
  readonly onWindow?: (n: Extract<ExprNode, { k: 'window' }>) => RexNode;
}

/** The children of a DSL node. */
function nodeChildren(n: ExprNode): readonly ExprNode[] {
  switch (n.k) {
    case 'col': case 'lit': return [];
    case 'alias': case 'cast': case 'sort': return [n.arg];
    case 'agg': return [...(n.arg ? [n.arg] : []), ...(n.more ?? []), ...(n.order ?? [])];
    case 'call': return n.args;
    case 'case': return [...n.whens.flatMap((w) => [w.when, w.then]), ...(n.otherwise ? [n.otherwise] : [])];
    case 'window': return [...n.args, ...n.spec.partitionBy, ...n.spec.orderBy];
  }
}

/**
 * Throws when the tree nests operators deeper than MAX_EXPRESSION_DEPTH (docs/sql-limits.md), measured with an
 * explicit stack: binding and planning recurse over the tree and would overflow the JavaScript stack.
 */
function checkDepth(node: ExprNode): void {
  const stack: [ExprNode, number][] = [[node, 0]];
  while (stack.length > 0) {
    const [n, d] = stack.pop()!;
    const ch = nodeChildren(n);
    if (ch.length > 0 && d >= MAX_EXPRESSION_DEPTH) {
      throw new ValidationError(`expression too deeply nested: nesting depth exceeds ${MAX_EXPRESSION_DEPTH} (limit: ${MAX_EXPRESSION_DEPTH} nested operators and calls); see docs/sql-limits.md`);
    }
    for (const c of ch) stack.push([c, n.k === 'alias' ? d : d + 1]);
  }
}

/** Binds an expression node to a RexNode over `scope`. */
export function bindExpr(node: ExprNode, scope: Scope, opts: BindOptions): RexNode {
  checkDepth(node);
  const s = schemaOf(scope);
  const show = (e: RexNode): string => formatRex(e, s);
  const rec = (n: ExprNode): RexNode => {
    switch (n.k) {
      case 'col': {
        const i = resolveColumn(scope, n.name, n.qualifier);
        return inputRef(i, scope[i]!.type, scope[i]!.name);
      }
      case 'lit': return literal(n.value, n.type ?? inferLiteralType(n.value));
      case 'alias': return rec(n.arg);
      case 'sort': throw new ValidationError(`a sort key (asc/desc) can only be used in orderBy, not in ${opts.where}`);
      case 'cast': {
        const t = parseTypeName(n.type);
        if (t === undefined) throw new ValidationError(`unknown type "${n.type}" in cast; use one of ${SQL_TYPE_NAMES}`);
        const a = rec(n.arg);
        const folded = coerceLiteral(a, t);
        if (folded) return folded;
        if (!canCast(a.type, t)) throw new ValidationError(`cannot cast ${a.type} to ${t} (in ${show(a)})`);
        return cast(a, t);
      }
      case 'case': {
        const whens = n.whens.map((w) => ({ when: rec(w.when), then: rec(w.then) }));
        return bindCaseWhen(whens, n.otherwise ? rec(n.otherwise) : undefined, (i, part, message) => {
          throw new ValidationError(`${message} (in ${show(part === 'when' ? whens[i]!.when : whens[i]!.then)})`);
        });
      }
      case 'agg': {
        if (!opts.onAggregate) throw new ValidationError(`aggregate function ${n.fn === 'count_star' ? 'countStar' : n.fn}() is not allowed in ${opts.where}; use groupBy(...).select(...) or select(...) with only aggregates`);
        const inner = { where: `the argument of ${n.fn}()` };
        const arg = n.arg ? bindExpr(n.arg, scope, inner) : undefined;
        const more = (n.more ?? []).map((m) => bindExpr(m, scope, inner));
        const rt = aggReturnType(n.fn, arg?.type, more.map((m) => m.type));
        if (isMismatch(rt)) throw new ValidationError(`${rt.error} (in ${n.fn}(${[arg, ...more].filter((x) => x !== undefined).map((x) => show(x)).join(', ')}))`);
        if ((n.fn === 'quantile_cont' || n.fn === 'quantile_disc') && more[0]?.kind !== 'Literal') throw new ValidationError(`${n.fn}'s fraction must be a constant, e.g. ${n.fn === 'quantile_cont' ? 'quantileCont' : 'quantileDisc'}('x', 0.5)`);
        const order = (n.order ?? []).map((o) => {
          const s = o.k === 'sort' ? o : { k: 'sort' as const, arg: o, desc: false };
          return { expr: bindExpr(s.arg, scope, inner), desc: s.desc, nullsFirst: s.nullsFirst ?? false };
        });
        return opts.onAggregate(n.fn, arg, n.distinct, undefined, { args: more, order });
      }
      case 'call': return bindCall(n.fn, n.args.map(rec), show);
      case 'window':
        if (!opts.onWindow) throw new ValidationError(`window function ${n.fn}() is not allowed in ${opts.where}; use it in select(...)`);
        return opts.onWindow(n);
    }
  };
  return rec(node);
}

export { bindCall, inferLiteralType };

/** The window calls of an expression tree, outermost first. */
export function windowCalls(node: ExprNode): Extract<ExprNode, { k: 'window' }>[] {
  const out: Extract<ExprNode, { k: 'window' }>[] = [];
  const stack: ExprNode[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.k === 'window') { out.push(n); continue; }
    for (const c of nodeChildren(n)) stack.push(c);
  }
  return out;
}

/** The default output name of an expression (its alias, column name, or its text as in DuckDB). */
export function exprName(node: ExprNode, bound: RexNode, scope: Scope): string {
  if (node.k === 'alias') return node.name;
  if (node.k === 'col') return node.name;
  if (node.k === 'window') return `${node.fn === 'count_star' ? 'count_star' : node.fn}(${node.args.map((a) => (a.k === 'col' ? a.name : argText(a, scope))).join(', ')}) OVER (...)`;
  if (node.k === 'agg') {
    if (node.fn === 'count_star') return 'count_star()';
    const text = (a: ExprNode): string => (a.k === 'col' ? a.name : argText(a, scope));
    const inner = node.arg ? [node.arg, ...(node.more ?? [])].map(text).join(', ') : '';
    return `${node.fn}(${node.distinct ? 'DISTINCT ' : ''}${inner})`;
  }
  return formatRex(bound, schemaOf(scope));
}

function argText(n: ExprNode, scope: Scope): string {
  try {
    return formatRex(bindExpr(n, scope, { where: 'a name' }), schemaOf(scope));
  } catch {
    return '?';
  }
}

/** True if the expression tree contains an aggregate call outside window calls (walked with an explicit stack: trees may be deep). */
export function hasAggregate(node: ExprNode): boolean {
  const stack: ExprNode[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.k === 'agg') return true;
    if (n.k === 'window') continue;
    for (const c of nodeChildren(n)) stack.push(c);
  }
  return false;
}

