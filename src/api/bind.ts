/**
 * Binds Table API expressions to RexNodes against a scope (the columns of a
 * table): resolves names to ordinals, coerces argument types through the
 * function catalog, and reports clear errors (unknown columns with the
 * closest match and the available ones, type errors naming the expression).
 */
import { ValidationError } from '../relnode/errors.js';
import { formatRex } from '../relnode/explain.js';
import { aggReturnType, FUNCTIONS, isMismatch, type AggFn } from '../relnode/functions.js';
import { call, caseWhen, cast, inputRef, literal, type LiteralValue, type RexNode } from '../relnode/rex.js';
import { commonType, parseTypeName, schemaOf, type Field, type SqlType } from '../relnode/types.js';
import type { ExprNode } from './expr.js';

/** The columns visible to an expression: the input's fields, with optional table qualifiers. */
export type Scope = readonly Field[];

/** Edit distance, for "did you mean" suggestions. */
function distance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0]!;
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j]!;
      dp[j] = Math.min(dp[j]! + 1, dp[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length]!;
}

/** The closest name to `name` among `names` (for suggestions), if reasonably close. */
export function closest(name: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  const lower = name.toLowerCase();
  for (const n of names) {
    const l = n.toLowerCase();
    const d = l.includes(lower) || lower.includes(l) ? Math.min(1, distance(lower, l)) : distance(lower, l);
    if (d < bestD) { bestD = d; best = n; }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(name.length / 2)) ? best : undefined;
}

function displayCol(f: Field): string {
  return f.qualifier ? `${f.qualifier}.${f.name}` : f.name;
}

/** Resolves a column name (optionally qualified) to its ordinal. Exact match first, then case-insensitive. */
export function resolveColumn(scope: Scope, name: string, qualifier?: string): number {
  const candidates = (exact: boolean): number[] => {
    const out: number[] = [];
    scope.forEach((f, i) => {
      const nameOk = exact ? f.name === name : f.name.toLowerCase() === name.toLowerCase();
      const qualOk = qualifier === undefined || (exact ? f.qualifier === qualifier : f.qualifier?.toLowerCase() === qualifier.toLowerCase());
      if (nameOk && qualOk) out.push(i);
    });
    return out;
  };
  let found = candidates(true);
  if (found.length === 0) found = candidates(false);
  const full = qualifier ? `${qualifier}.${name}` : name;
  if (found.length === 1) return found[0]!;
  if (found.length > 1) {
    throw new ValidationError(`column "${full}" is ambiguous: it matches ${found.map((i) => displayCol(scope[i]!)).join(', ')}; qualify it (e.g. col('${scope[found[0]!]!.qualifier ?? 't'}.${name}')) or rename one side with .as(alias)`);
  }
  const names = scope.map(displayCol);
  const hint = closest(full, names) ?? closest(name, scope.map((f) => f.name));
  throw new ValidationError(`column "${full}" not found${hint ? `; did you mean "${hint}"?` : ''} (available: ${names.join(', ') || 'none'})`);
}

/** Options of one binding. */
export interface BindOptions {
  /** Called for each aggregate call met; returns the RexNode that stands for its result. Absent = aggregates are errors. */
  readonly onAggregate?: (fn: AggFn, arg: RexNode | undefined, distinct: boolean, node: ExprNode) => RexNode;
  /** Where the expression is used, for error messages (e.g. 'filter'). */
  readonly where: string;
}

/** Literal as a value of another type, for implicit coercion of string literals to DATE/TIMESTAMP. */
function coerceLiteral(e: RexNode, to: SqlType): RexNode | undefined {
  if (e.kind !== 'Literal' || e.type !== 'VARCHAR' || typeof e.value !== 'string') return undefined;
  if (to === 'DATE' && /^\d{4}-\d{2}-\d{2}$/.test(e.value)) return literal(Math.round(Date.parse(`${e.value}T00:00:00Z`) / 86_400_000), 'DATE');
  if (to === 'TIMESTAMP') {
    const ms = Date.parse(e.value.includes('T') || e.value.length <= 10 ? `${e.value}${e.value.length <= 10 ? 'T00:00:00' : ''}Z` : `${e.value.replace(' ', 'T')}Z`);
    if (!Number.isNaN(ms)) return literal(ms, 'TIMESTAMP');
  }
  return undefined;
}

/** Binds an expression node to a RexNode over `scope`. */
export function bindExpr(node: ExprNode, scope: Scope, opts: BindOptions): RexNode {
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
        if (t === undefined) throw new ValidationError(`unknown type "${n.type}" in cast; use one of BOOLEAN, INTEGER, BIGINT, DOUBLE, VARCHAR, DATE, TIMESTAMP`);
        const a = rec(n.arg);
        return coerceLiteral(a, t) ?? cast(a, t);
      }
      case 'case': {
        const whens = n.whens.map((w) => {
          const c = rec(w.when);
          if (c.type !== 'BOOLEAN' && c.type !== 'NULL') throw new ValidationError(`CASE WHEN condition ${show(c)} is ${c.type}, expected BOOLEAN`);
          return { when: c, then: rec(w.then) };
        });
        const other = n.otherwise ? rec(n.otherwise) : literal(null, 'NULL');
        let t: SqlType = other.type;
        for (const w of whens) {
          const c = commonType(t, w.then.type);
          if (c === undefined) throw new ValidationError(`CASE branches have incompatible types ${t} and ${w.then.type} (in ${show(w.then)}); cast one of them`);
          t = c;
        }
        return caseWhen(whens.map((w) => ({ when: w.when, then: cast(w.then, t) })), cast(other, t), t);
      }
      case 'agg': {
        if (!opts.onAggregate) throw new ValidationError(`aggregate function ${n.fn === 'count_star' ? 'countStar' : n.fn}() is not allowed in ${opts.where}; use groupBy(...).select(...) or select(...) with only aggregates`);
        const arg = n.arg ? bindExpr(n.arg, scope, { where: `the argument of ${n.fn}()` }) : undefined;
        const rt = aggReturnType(n.fn, arg?.type);
        if (isMismatch(rt)) throw new ValidationError(`${rt.error} (in ${n.fn}(${arg ? show(arg) : ''}))`);
        return opts.onAggregate(n.fn, arg, n.distinct, n);
      }
      case 'call': return bindCall(n.fn, n.args.map(rec), show);
    }
  };
  return rec(node);
}

/** Binds a function call over already-bound arguments, inserting casts the catalog asks for. */
export function bindCall(fn: string, args: RexNode[], show: (e: RexNode) => string): RexNode {
  const def = FUNCTIONS.get(fn);
  if (!def) throw new ValidationError(`unknown function "${fn}"`);
  const text = (): string => show(call(fn, args, 'NULL'));
  if (args.length < def.minArgs || args.length > def.maxArgs) {
    throw new ValidationError(`${def.display} takes ${def.minArgs === def.maxArgs ? def.minArgs : `${def.minArgs} to ${def.maxArgs === Infinity ? 'any number of' : def.maxArgs}`} arguments, got ${args.length} in ${text()}`);
  }
  // String literals next to DATE/TIMESTAMP operands become typed literals ('1995-01-01' < l_shipdate).
  const temporal = args.find((a) => a.type === 'DATE' || a.type === 'TIMESTAMP')?.type;
  if (temporal) args = args.map((a) => coerceLiteral(a, temporal) ?? a);
  let typed = args;
  if (def.argTypes) {
    const want = def.argTypes(args.map((a) => a.type));
    if (isMismatch(want)) throw new ValidationError(`${want.error} (in ${text()})`);
    typed = args.map((a, i) => (want[i] && want[i] !== a.type && want[i] !== 'NULL' ? cast(a, want[i]!) : a));
  }
  const rt = def.returnType(typed.map((a) => a.type));
  if (isMismatch(rt)) throw new ValidationError(`${rt.error} (in ${text()})`);
  return call(fn, typed, rt);
}

/** The SQL type of a JS literal value. */
export function inferLiteralType(v: LiteralValue): SqlType {
  if (v === null) return 'NULL';
  if (typeof v === 'bigint') return 'BIGINT';
  if (typeof v === 'boolean') return 'BOOLEAN';
  if (typeof v === 'string') return 'VARCHAR';
  return Number.isInteger(v) && Math.abs(v) <= 2147483647 ? 'INTEGER' : 'DOUBLE';
}

/** The default output name of an expression (its alias, column name, or its text as in DuckDB). */
export function exprName(node: ExprNode, bound: RexNode, scope: Scope): string {
  if (node.k === 'alias') return node.name;
  if (node.k === 'col') return node.name;
  if (node.k === 'agg') {
    if (node.fn === 'count_star') return 'count_star()';
    const inner = node.arg ? (node.arg.k === 'col' ? node.arg.name : argText(node.arg, scope)) : '';
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

/** True if the expression tree contains an aggregate call. */
export function hasAggregate(n: ExprNode): boolean {
  switch (n.k) {
    case 'agg': return true;
    case 'col': case 'lit': return false;
    case 'alias': case 'cast': case 'sort': return hasAggregate(n.arg);
    case 'call': return n.args.some(hasAggregate);
    case 'case': return n.whens.some((w) => hasAggregate(w.when) || hasAggregate(w.then)) || (n.otherwise ? hasAggregate(n.otherwise) : false);
  }
}
