/**
 * Output column names of unaliased select items, printed from the AST the
 * way DuckDB names them (`(l_extendedprice * (1 - l_discount))`,
 * `count_star()`, `sum(l_quantity)`), so results line up with the oracle.
 */
import { ValidationError } from '../../relnode/errors.js';
import type { Expr, OrderItem } from '../ast.js';
import { MAX_EXPRESSION_DEPTH } from '../limits.js';
import { withinGroupName } from '../cst-agg-clauses.js';

const OPS: Readonly<Record<string, string>> = { AND: 'AND', OR: 'OR' };

/** How deep displayName is nested right now: the guard of MAX_EXPRESSION_DEPTH. */
let depth = 0;

/** The name DuckDB gives an unaliased expression. `columnName` resolves a column reference to its catalog spelling. */
export function displayName(e: Expr, columnName: (c: Extract<Expr, { kind: 'column' }>) => string = (c) => c.name): string {
  if (e.kind === 'literal' || e.kind === 'column') return nameOf(e, columnName);
  if (depth >= MAX_EXPRESSION_DEPTH) throw new ValidationError(`expression too deeply nested: nesting depth exceeds ${MAX_EXPRESSION_DEPTH} (limit: ${MAX_EXPRESSION_DEPTH} nested operators, calls and subqueries); see docs/sql-limits.md`);
  depth++;
  try {
    return nameOf(e, columnName);
  } finally {
    depth--;
  }
}

/** `(((a + b) + c) + d)` for a left-deep chain of binary operators, built along the left spine without recursion. */
function binaryName(e: Extract<Expr, { kind: 'binary' }>, p: (x: Expr) => string): string {
  const spine: Extract<Expr, { kind: 'binary' }>[] = [];
  let x: Expr = e;
  while (x.kind === 'binary') { spine.push(x); x = x.left; }
  let s = p(x);
  for (let i = spine.length - 1; i >= 0; i--) s = `(${s} ${OPS[spine[i]!.op] ?? spine[i]!.op} ${p(spine[i]!.right)})`;
  return s;
}

/** An ORDER BY key inside a call as DuckDB prints it: `x`, `x DESC`, `x ASC NULLS FIRST`. */
function orderKeyName(o: OrderItem, p: (x: Expr) => string): string {
  const nulls = o.nullsFirst === undefined ? '' : o.nullsFirst ? ' NULLS FIRST' : ' NULLS LAST';
  return `${p(o.expr)}${o.desc ? ' DESC' : nulls !== '' ? ' ASC' : ''}${nulls}`;
}

function nameOf(e: Expr, columnName: (c: Extract<Expr, { kind: 'column' }>) => string): string {
  const p = (x: Expr): string => displayName(x, columnName);
  switch (e.kind) {
    case 'column': return columnName(e);
    case 'literal':
      if (e.literal === 'string') return `'${(e.value ?? '').replace(/'/g, "''")}'`;
      if (e.literal === 'null') return 'NULL';
      if (e.literal === 'parameter') return `$${e.value}`;
      if (e.literal === 'date') return `CAST('${e.value}' AS DATE)`;
      if (e.literal === 'timestamp') return `CAST('${e.value}' AS TIMESTAMP)`;
      return String(e.value);
    case 'interval': return `to_${e.unit}s(${e.value})`;
    case 'binary': return binaryName(e, p);
    case 'unary':
      if (e.op === 'NOT') return `(NOT ${p(e.arg)})`;
      if (e.op === '-' && e.arg.kind === 'literal') return `-${p(e.arg)}`;
      return e.op === '-' ? `-(${p(e.arg)})` : p(e.arg);
    case 'isNull': return `(${p(e.arg)} IS ${e.negated ? 'NOT ' : ''}NULL)`;
    case 'between': return `(${p(e.arg)} ${e.negated ? 'NOT ' : ''}BETWEEN ${p(e.low)} AND ${p(e.high)})`;
    case 'like': return `(${p(e.arg)} ${e.negated ? 'NOT ' : ''}${e.caseInsensitive ? 'ILIKE' : 'LIKE'} ${p(e.pattern)}${e.escape ? ` ESCAPE ${p(e.escape)}` : ''})`;
    case 'inList': return `(${p(e.arg)} ${e.negated ? 'NOT ' : ''}IN (${e.list.map(p).join(', ')}))`;
    case 'inSubquery': return `(${p(e.arg)} ${e.negated ? 'NOT ' : ''}IN (SELECT ...))`;
    case 'exists': return `${e.negated ? 'NOT ' : ''}EXISTS(SELECT ...)`;
    case 'subquery': return '(SELECT ...)';
    case 'row': return `(${e.items.map(p).join(', ')})`;
    case 'case': {
      const ws = e.whens.map((w) => ` WHEN ${p(w.when)} THEN ${p(w.then)}`).join('');
      return `CASE${e.operand ? ` ${p(e.operand)}` : ''}${ws}${e.else ? ` ELSE ${p(e.else)}` : ''} END`;
    }
    case 'cast': return `CAST(${p(e.arg)} AS ${e.type.toUpperCase()})`;
    case 'function': {
      if (e.written !== undefined) return p(e.written);
      const call = e.withinGroup !== undefined ? withinGroupName(e, p)
        : e.star ? (e.name.toLowerCase() === 'count' ? 'count_star()' : `${e.name}(*)`)
        : /^grouping(_id)?$/i.test(e.name) ? `GROUPING(${e.args.map(p).join(', ')})`
        : `${e.name}(${e.distinct ? 'DISTINCT ' : ''}${e.args.map(p).join(', ')}${e.orderBy !== undefined && e.orderBy.length > 0 ? ` ORDER BY ${e.orderBy.map((o) => orderKeyName(o, p)).join(', ')}` : ''})`;
      return e.filter === undefined ? call : `${call} FILTER (WHERE ${p(e.filter)})`;
    }
  }
}
