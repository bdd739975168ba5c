/**
 * CST → AST for queries (the rules of parser-query.ts): WITH, set
 * operations, SELECT, VALUES, FROM items and joins, ORDER BY and LIMIT.
 * ORDER BY / LIMIT / OFFSET land on the query body they follow; on a WITH
 * query they land on its body, so a WithQuery itself never carries them. A
 * body that already has its own (a parenthesised query with ORDER BY or LIMIT)
 * is wrapped in `SELECT * FROM (body)` so both apply in order.
 */
import type { CstNode, IToken } from 'chevrotain';
import type { Cte, Expr, FromItem, JoinKind, OrderItem, Pos, Query, RecursionLimit, SelectItem } from './ast.js';
import { astError, has, maybeNode, maybeToken, nameOf, node, nodePos, nodes, span, spanTo, stringOf, token, tokenPos, tokens } from './cst-access.js';
import { direction_, listItems, orderItem, toExpr, type AstContext } from './cst-expr.js';
import { sampleBody, sampleClause } from './cst-sample.js';
import { Kw, QuotedIdentifier, StringLit } from './lexer.js';
import { overClause, windowClause } from './cst-window.js';
import { groupByClause } from './cst-grouping-sets.js';
import { pivotQuery, unpivotQuery, withPivotSuffixes } from './cst-pivot.js';
import { parseTableName } from './information-schema.js';

/** A converter bound to one SQL text. */
export function astContext(text: string): AstContext {
  const cx: AstContext = { text, query: (n) => toQuery(cx, n), over: (n) => overClause(cx, n) };
  return cx;
}

interface Tail {
  readonly orderBy?: readonly OrderItem[];
  readonly limit?: Expr;
  readonly offset?: Expr;
}

/** Converts a `query` CST node. */
export function toQuery(cx: AstContext, n: CstNode): Query {
  const pos = nodePos(n);
  const orderBy = has(n, 'orderAll') ? orderByAll(cx, n, node(n, 'body')) : nodes(n, 'orderBy').map((o) => orderItem(cx, o));
  const limit = maybeNode(n, 'limit');
  const offset = maybeNode(n, 'offset');
  const tail: Tail = {
    ...(orderBy.length > 0 ? { orderBy } : {}),
    ...(limit === undefined ? {} : { limit: toExpr(cx, limit) }),
    ...(offset === undefined ? {} : { offset: toExpr(cx, offset) }),
  };
  const body = withTail(setExpression(cx, node(n, 'body')), tail, pos);
  const w = maybeNode(n, 'with');
  if (w === undefined) return body;
  const rl = maybeNode(w, 'limit');
  return {
    kind: 'with',
    recursive: has(w, 'recursive'),
    ...(rl === undefined ? {} : { recursionLimit: recursionLimit(cx, rl) }),
    ctes: nodes(w, 'ctes').map((c) => cte(cx, c)),
    body,
    pos,
  };
}

/** `((RETURN | ERROR) AT RECURSION LIMIT n)`: the words are names in the grammar, checked here. */
function recursionLimit(cx: AstContext, n: CstNode): RecursionLimit {
  const expect = (label: string, words: readonly string[]): string => {
    const t = token(n, label);
    const w = t.image.toUpperCase();
    if (!words.includes(w) || t.tokenType === QuotedIdentifier) {
      throw astError(cx.text, tokenPos(t), `unexpected "${t.image}"; expected ${words.join(' or ')} (the clause is (RETURN AT RECURSION LIMIT n) or (ERROR AT RECURSION LIMIT n))`);
    }
    return w;
  };
  const action = expect('action', ['RETURN', 'ERROR']) === 'RETURN' ? 'return' : 'error';
  expect('at', ['AT']);
  expect('recursion', ['RECURSION']);
  const r = token(n, 'rounds');
  const rounds = Number(r.image);
  if (!/^\d+$/.test(r.image) || !Number.isSafeInteger(rounds)) throw astError(cx.text, tokenPos(r), `RECURSION LIMIT needs a whole number of rounds, got ${r.image}`);
  return { rounds, action, pos: nodePos(n) };
}

/** DuckDB's ORDER BY ALL: ORDER BY 1, 2, ..., n over the output columns (which must be countable without `*`). */
function orderByAll(cx: AstContext, n: CstNode, body: CstNode): OrderItem[] {
  const width = outputWidth(setExpression(cx, body));
  const all = token(n, 'orderAll');
  if (width === undefined) throw astError(cx.text, tokenPos(all), 'ORDER BY ALL needs a select list without *; list the columns to order by');
  const direction = node(n, 'allDirection');
  return Array.from({ length: width }, (_, i) => ({
    ...direction_(direction),
    expr: { kind: 'literal', literal: 'number', value: String(i + 1), pos: tokenPos(all) },
  }));
}

/** The number of output columns of a query, when it does not depend on `*`. */
function outputWidth(q: Query): number | undefined {
  switch (q.kind) {
    case 'select':
      return q.items.some((i) => i.kind === 'star') ? undefined : q.items.length;
    case 'values':
      return q.rows[0]?.length;
    case 'setop':
      return outputWidth(q.left);
    case 'with':
      return outputWidth(q.body);
  }
}

/** Puts ORDER BY / LIMIT / OFFSET on `q` (on a WITH's body; wrapping `q` when it has its own already). */
function withTail(q: Query, tail: Tail, pos: Pos): Query {
  if (tail.orderBy === undefined && tail.limit === undefined && tail.offset === undefined) return q;
  if (q.kind === 'with') return { ...q, body: withTail(q.body, tail, pos), pos };
  if (q.orderBy === undefined && q.limit === undefined && q.offset === undefined) return { ...q, ...tail, pos };
  const from: FromItem = { kind: 'subquery', query: q, pos: q.pos };
  return { kind: 'select', distinct: false, items: [{ kind: 'star', pos: q.pos }], from: [from], ...tail, pos };
}

function cte(cx: AstContext, n: CstNode): Cte {
  const columns = maybeNode(n, 'columns');
  const key = maybeNode(n, 'key');
  return {
    name: nameOf(token(n, 'name')),
    ...(columns === undefined ? {} : { columns: names(columns) }),
    ...(key === undefined ? {} : { usingKey: { columns: names(key), pos: spanTo(tokenPos(token(n, 'using')), maybeToken(key, 'close')) } }),
    query: toQuery(cx, node(n, 'query')),
    pos: nodePos(n),
  };
}

/** Folds `a UNION b EXCEPT c` (and INTERSECT terms) left to right. */
function setExpression(cx: AstContext, n: CstNode): Query {
  const operands = nodes(n, 'operands');
  const ops = tokens(n, 'ops');
  const quantifiers = nodes(n, 'quantifiers');
  const term = (c: CstNode): Query => (c.name === 'intersectTerm' ? setExpression(cx, c) : queryPrimary(cx, c));
  let left = term(operands[0]!);
  for (let i = 0; i < ops.length; i++) {
    const right = term(operands[i + 1]!);
    const t = ops[i]!.tokenType;
    const op = t === Kw.UNION ? 'union' : t === Kw.EXCEPT ? 'except' : 'intersect';
    left = { kind: 'setop', op, all: has(quantifiers[i]!, 'all'), left, right, pos: span(left.pos, right.pos) };
  }
  return left;
}

function queryPrimary(cx: AstContext, n: CstNode): Query {
  const select = maybeNode(n, 'select');
  if (select !== undefined) return selectCore(cx, select);
  const values = maybeNode(n, 'values');
  if (values !== undefined) {
    const rows = nodes(values, 'rows').map((r) => listItems(cx, node(r, 'items')));
    return { kind: 'values', rows, pos: nodePos(values) };
  }
  const table = maybeNode(n, 'table');
  if (table !== undefined) {
    const pos = nodePos(n);
    return { kind: 'select', distinct: false, items: [{ kind: 'star', pos }], from: [{ kind: 'table', name: qualifiedName(table), pos: nodePos(table) }], pos };
  }
  const pivot = maybeNode(n, 'pivot');
  if (pivot !== undefined) return pivotQuery(cx, pivot, (t) => tableRef(cx, t));
  const unpivot = maybeNode(n, 'unpivot');
  if (unpivot !== undefined) return unpivotQuery(cx, unpivot, (t) => tableRef(cx, t));
  return toQuery(cx, node(n, 'query'));
}

/** The WINDOW and QUALIFY clauses of a `selectCore` node. */
function windowParts(cx: AstContext, n: CstNode): { windows?: ReturnType<typeof windowClause>; qualify?: Expr } {
  const windows = maybeNode(n, 'windows');
  const qualify = maybeNode(n, 'qualify');
  return { ...(windows === undefined ? {} : { windows: windowClause(cx, windows) }), ...(qualify === undefined ? {} : { qualify: toExpr(cx, qualify) }) };
}

function selectCore(cx: AstContext, n: CstNode): Query {
  const where = maybeNode(n, 'where');
  const groupBy = maybeNode(n, 'groupBy');
  const having = maybeNode(n, 'having');
  const sample = maybeNode(n, 'sample');
  // `FROM t` without SELECT (DuckDB's FROM-first form) selects `*`.
  const head = maybeNode(n, 'head');
  const distinctOn = head === undefined ? [] : nodes(head, 'distinctOn');
  const fromFirst = maybeToken(n, 'fromFirst');
  const items: SelectItem[] = head !== undefined ? toSelectItems(cx, node(head, 'items')) : [{ kind: 'star', pos: tokenPos(fromFirst!) }];
  return {
    kind: 'select',
    distinct: head !== undefined && has(head, 'distinct') && distinctOn.length === 0,
    ...(distinctOn.length === 0 ? {} : { distinctOn: distinctOn.map((x) => toExpr(cx, x)) }),
    items,
    from: nodes(n, 'from').map((f) => fromItem(cx, f)),
    ...(where === undefined ? {} : { where: toExpr(cx, where) }),
    ...(groupBy === undefined ? {} : groupByClause(cx, groupBy)),
    ...(has(n, 'groupAll') ? { groupByAll: true } : {}),
    ...(having === undefined ? {} : { having: toExpr(cx, having) }),
    ...windowParts(cx, n),
    ...(sample === undefined ? {} : { sample: sampleClause(cx, sample) }),
    pos: nodePos(n),
  };
}

/** Converts a `selectList` CST node. */
export function toSelectItems(cx: AstContext, n: CstNode): SelectItem[] {
  return nodes(n, 'items').map((item): SelectItem => {
    const pos = nodePos(item);
    if (has(item, 'star')) {
      const q = maybeToken(item, 'qualifier');
      const mods = maybeNode(item, 'modifiers');
      return { kind: 'star', ...(q === undefined ? {} : { qualifier: nameOf(q) }), pos, ...(mods === undefined ? {} : starModifiers(cx, mods)) };
    }
    const expr = toExpr(cx, node(item, 'expr'));
    const alias = maybeToken(item, 'alias');
    if (alias === undefined) return { kind: 'expr', expr, pos };
    return { kind: 'expr', expr, alias: alias.tokenType === StringLit ? stringOf(alias) : nameOf(alias), pos };
  });
}

/** The EXCLUDE and REPLACE lists of a `starModifiers` node. */
function starModifiers(cx: AstContext, n: CstNode): { exclude?: { name: string; qualifier?: string; pos: Pos }[]; replace?: { expr: Expr; name: string; pos: Pos }[] } {
  const exclude = nodes(n, 'excluded').map((c) => {
    const parts = tokens(c, 'parts').map(nameOf);
    const name = parts[parts.length - 1]!;
    return { name, ...(parts.length > 1 ? { qualifier: parts.slice(0, -1).join('.') } : {}), pos: nodePos(c) };
  });
  const names = tokens(n, 'replaced');
  const replace = nodes(n, 'replacement').map((e, i) => ({ expr: toExpr(cx, e), name: nameOf(names[i]!), pos: tokenPos(names[i]!) }));
  return { ...(exclude.length > 0 ? { exclude } : {}), ...(replace.length > 0 ? { replace } : {}) };
}

// ---------------------------------------------------------------- FROM

function fromItem(cx: AstContext, n: CstNode): FromItem {
  let left = tableRef(cx, node(n, 'first'));
  for (const j of nodes(n, 'joins')) {
    const right = tableRef(cx, node(j, 'right'));
    const pos = span(left.pos, nodePos(j));
    const type = maybeNode(j, 'type');
    const kindTok = type === undefined ? undefined : token(type, 'kind');
    const on = maybeNode(j, 'on');
    const using = maybeNode(j, 'using');
    const natural = has(j, 'natural');
    const bare = on === undefined && using === undefined && !natural;
    const written: JoinKind = has(j, 'cross') ? 'cross' : kindTok === undefined ? 'inner' : (kindTok.image.toLowerCase() as JoinKind);
    const kind: JoinKind = bare && written === 'inner' ? 'cross' : written;
    const onExpr: Expr | undefined = on !== undefined ? toExpr(cx, on) : bare && kind !== 'cross' ? { kind: 'literal', literal: 'boolean', value: 'true', pos } : undefined;
    left = {
      kind: 'join',
      join: kind,
      left,
      right,
      ...(onExpr === undefined ? {} : { on: onExpr }),
      ...(using === undefined ? {} : { using: names(using) }),
      ...(natural ? { natural: true } : {}),
      pos,
    };
  }
  return left;
}

function tableRef(cx: AstContext, n: CstNode): FromItem {
  return withPivotSuffixes(cx, sampledTableRef(cx, n), nodes(n, 'pivots'));
}

function sampledTableRef(cx: AstContext, n: CstNode): FromItem {
  const item = unsampledTableRef(cx, n);
  const s = maybeNode(n, 'sample');
  if (s === undefined) return item;
  if (item.kind === 'join' || item.kind === 'pivot' || item.kind === 'unpivot') throw astError(cx.text, nodePos(s), 'TABLESAMPLE samples a table, a subquery or a table function, not a join: sample each table, or the whole FROM clause with USING SAMPLE');
  return { ...item, sample: sampleBody(cx, s) };
}

function unsampledTableRef(cx: AstContext, n: CstNode): FromItem {
  const pos = nodePos(n);
  const a = maybeNode(n, 'alias');
  const alias = a === undefined ? {} : aliasOf(a);
  const lateralTok = maybeToken(n, 'lateral');
  const lateral = lateralTok === undefined ? {} : { lateral: true };
  const q = maybeNode(n, 'query');
  if (q !== undefined) return { kind: 'subquery', query: toQuery(cx, q), ...alias, ...lateral, pos };
  if (lateralTok !== undefined && maybeToken(n, 'fn') === undefined) {
    throw astError(cx.text, tokenPos(lateralTok), 'LATERAL must be followed by a subquery or a table function, e.g. LATERAL (SELECT ...) AS s');
  }
  const nested = maybeNode(n, 'nested');
  if (nested !== undefined) {
    const inner: FromItem = { ...fromItem(cx, nested), pos };
    if (a === undefined) return inner;
    // `(t) AS x` renames the table; `(a JOIN b) AS x` becomes `(SELECT * FROM a JOIN b) AS x`.
    if (inner.kind !== 'join' && inner.alias === undefined) return { ...inner, ...alias };
    const query: Query = { kind: 'select', distinct: false, items: [{ kind: 'star', pos }], from: [inner], pos };
    return { kind: 'subquery', query, ...alias, pos };
  }
  const path = maybeToken(n, 'path');
  if (path !== undefined) return fileTable(cx, path, a === undefined ? undefined : aliasOf(a), pos);
  const fn = maybeToken(n, 'fn');
  if (fn !== undefined) {
    const args: Expr[] = [];
    const options: { name: string; value: Expr }[] = [];
    for (const arg of nodes(n, 'args')) {
      const struct = maybeNode(arg, 'struct');
      const value = struct ? structExpr(struct) : toExpr(cx, node(arg, 'value'));
      const named = maybeToken(arg, 'name');
      if (named !== undefined) options.push({ name: nameOf(named).toLowerCase(), value });
      else if (value.kind === 'binary' && value.op === '=' && value.left.kind === 'column' && value.left.qualifier === undefined) {
        options.push({ name: value.left.name.toLowerCase(), value: value.right });
      } else if (options.length > 0) {
        throw astError(cx.text, value.pos, `positional arguments of ${fn.image}(...) come before named options (name = value)`);
      } else args.push(value);
    }
    return { kind: 'tableFunction', name: fn.image.toLowerCase(), args, options, ...alias, ...lateral, pos };
  }
  return { kind: 'table', name: qualifiedName(node(n, 'table')), ...alias, pos };
}

function aliasOf(n: CstNode): { alias: string; columnAliases?: readonly string[] } {
  const columns = maybeNode(n, 'columns');
  return { alias: nameOf(token(n, 'name')), ...(columns === undefined ? {} : { columnAliases: names(columns) }) };
}

/** File extensions (after an optional compression suffix) and the table function that reads them. */
const FILE_READERS: readonly (readonly [RegExp, string])[] = [
  [/\.parquet$/i, 'read_parquet'],
  [/\.(csv|tsv)$/i, 'read_csv'],
  [/\.(json|jsonl|ndjson)$/i, 'read_json'],
  [/\.(arrow|feather|ipc|arrows)$/i, 'read_arrow'],
];

/**
 * `FROM 'path'` (DuckDB's replacement scan): the table function the file's extension names, with the path as
 * its one argument; without an alias the table is called by the file's name without extensions (`FROM
 * 'data/trips.parquet'` is `trips`), when that is a plain name.
 */
function fileTable(cx: AstContext, tok: IToken, alias: { alias: string; columnAliases?: readonly string[] } | undefined, pos: Pos): FromItem {
  const file = stringOf(tok);
  const bare = file.replace(/\.(gz|gzip|zst|zstd|bz2)$/i, '');
  const reader = FILE_READERS.find(([re]) => re.test(bare));
  if (reader === undefined) {
    throw astError(cx.text, tokenPos(tok), `cannot tell the format of '${file}' from its extension (.parquet, .csv, .tsv, .json, .ndjson, .arrow); call read_parquet, read_csv, read_json or read_arrow`);
  }
  const stem = (bare.split(/[\\/]/).pop() ?? '').replace(/\.[^.]*$/, '');
  const named = alias ?? (/^[A-Za-z_][A-Za-z0-9_]*$/.test(stem) ? { alias: stem } : {});
  return { kind: 'tableFunction', name: reader[1], args: [{ kind: 'literal', literal: 'string', value: file, pos: tokenPos(tok) }], options: [], ...named, pos };
}

/** The names of a `nameList` node: `(a, "B", c)`. */
export function names(n: CstNode): string[] {
  return tokens(n, 'names').map(nameOf);
}

/** A `qualifiedName` as one string: `t`, `main.t`. */
export function qualifiedName(n: CstNode): string {
  return tokens(n, 'parts').map(nameOf).join('.');
}

/**
 * The name of a table a statement creates, changes or drops: `main.t` and `memory.main.t` are `t`
 * (eddy's one schema, information-schema.ts); other qualified names stay whole. FROM keeps the
 * name as written (the binder resolves it, also information_schema views).
 */
export function tableName(n: CstNode): string {
  const written = qualifiedName(n);
  const parsed = parseTableName(written);
  return parsed.schema === 'main' ? parsed.name : written;
}

/**
 * A struct literal `{'k': 'v', ...}` as the AST has no struct type: a call of the pseudo-function
 * `{}` with keys and values alternating as string literals. Only table-function options take it
 * (read_csv's columns / types); anywhere else the binder reports an unknown function.
 */
function structExpr(n: CstNode): Expr {
  const pos = nodePos(n);
  const text = (t: IToken): Expr => ({ kind: 'literal', literal: 'string', value: t.tokenType === StringLit ? stringOf(t) : nameOf(t), pos: tokenPos(t) });
  const keys = tokens(n, 'keys'), values = tokens(n, 'values');
  return { kind: 'function', name: '{}', args: keys.flatMap((k, i) => [text(k), text(values[i]!)]), distinct: false, star: false, pos };
}
