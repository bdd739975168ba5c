/**
 * Output column names of unaliased select items, printed from the AST the
 * way DuckDB names them (`(l_extendedprice * (1 - l_discount))`,
 * `count_star()`, `sum(l_quantity)`), so results line up with the oracle.
 */
import type { Expr } from '../ast.js';

const OPS: Readonly<Record<string, string>> = { AND: 'AND', OR: 'OR' };

/** The name DuckDB gives an unaliased expression. `columnName` resolves a column reference to its catalog spelling. */
export function displayName(e: Expr, columnName: (c: Extract<Expr, { kind: 'column' }>) => string = (c) => c.name): string {
  const p = (x: Expr): string => displayName(x, columnName);
  switch (e.kind) {
    case 'column': return columnName(e);
    case 'literal':
      if (e.literal === 'string') return `'${(e.value ?? '').replace(/'/g, "''")}'`;
      if (e.literal === 'null') return 'NULL';
      if (e.literal === 'date') return `CAST('${e.value}' AS DATE)`;
      if (e.literal === 'timestamp') return `CAST('${e.value}' AS TIMESTAMP)`;
      return String(e.value);
    case 'interval': return `to_${e.unit}s(${e.value})`;
    case 'binary': return `(${p(e.left)} ${OPS[e.op] ?? e.op} ${p(e.right)})`;
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
    case 'case': {
      const ws = e.whens.map((w) => ` WHEN ${p(w.when)} THEN ${p(w.then)}`).join('');
      return `CASE${e.operand ? ` ${p(e.operand)}` : ''}${ws}${e.else ? ` ELSE ${p(e.else)}` : ''} END`;
    }
    case 'cast': return `CAST(${p(e.arg)} AS ${e.type.toUpperCase()})`;
    case 'function':
      if (e.star) return e.name.toLowerCase() === 'count' ? 'count_star()' : `${e.name}(*)`;
      return `${e.name}(${e.distinct ? 'DISTINCT ' : ''}${e.args.map(p).join(', ')})`;
  }
}
