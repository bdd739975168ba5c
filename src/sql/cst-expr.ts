/**
 * CST → AST for expressions (the rules of parser-expr.ts and parser-expr-terms.ts). Binary levels fold
 * left to right; every node's pos starts at its first token and spans to its
 * last. A few forms without an AST node of their own are rewritten here:
 * `IS [NOT] TRUE/FALSE` into coalesce, `extract(part FROM x)` into the function
 * `part(x)`, and `NOT EXISTS` into a negated exists. `IS [NOT] DISTINCT FROM` is
 * a binary operator, for scalars and rows alike (binder/row-values.ts expands it).
 */
import type { CstNode, IToken } from 'chevrotain';
import type { BinaryOp, Expr, OrderItem, Pos, Query, WindowSpec } from './ast.js';
import { astError, has, maybeNode, maybeToken, nameOf, node, nodePos, nodes, span, spanTo, stringOf, token, tokenPos, tokens } from './cst-access.js';
import { Kw, NumberLit, QuotedIdentifier, StringLit } from './lexer.js';
import type { LiteralRun } from './literal-runs.js';
import { isAggregateName } from './functions.js';
import { AggClauseError, desugarAggClauses } from './cst-agg-clauses.js';

/** What expression conversion needs from its caller: the SQL text (for errors) and the query converter (for subqueries). */
export interface AstContext {
  readonly text: string;
  readonly query: (n: CstNode) => Query;
  /** The OVER clause converter (cst-window.ts), passed in so this file need not import it. */
  readonly over: (n: CstNode) => WindowSpec;
}

const BINARY: Readonly<Record<string, BinaryOp>> = {
  '=': '=', '==': '=', '<>': '<>', '!=': '<>', '<': '<', '<=': '<=', '>': '>', '>=': '>=',
  '+': '+', '-': '-', '*': '*', '/': '/', '%': '%', '||': '||', '//': '//', '^': '^', '**': '^',
};

/** Converts an `expression` CST node (or any level below it). */
export function toExpr(cx: AstContext, n: CstNode): Expr {
  switch (n.name) {
    case 'expression':
    case 'arith':
      return climb(nodes(n, 'operands').map((o) => toExpr(cx, o)), tokens(n, 'ops'));
    case 'notExpr':
      return notExpr(cx, n);
    case 'predicate':
      return nodes(n, 'tails').reduce((left, tail) => predicateTail(cx, left, tail), toExpr(cx, node(n, 'arg')));
    case 'unary': {
      let e = nodes(n, 'types').reduce<Expr>(
        (arg, t) => ({ kind: 'cast', arg, type: typeText(t), pos: span(arg.pos, nodePos(t)) }),
        primary(cx, node(n, 'arg')),
      );
      const signs = tokens(n, 'signs');
      for (let i = signs.length - 1; i >= 0; i--) e = { kind: 'unary', op: signs[i]!.image as '-' | '+', arg: e, pos: span(tokenPos(signs[i]!), e.pos) };
      return e;
    }
    default:
      throw new Error(`not an expression CST node: ${n.name}`);
  }
}

/** Binding strength of the flat binary operators (higher binds tighter). */
// `^` binds tighter than `*` and, as in PostgreSQL and DuckDB, associates left (2 ^ 3 ^ 2 = 64); signs bind tighter still (-2 ^ 2 = 4).
const PRECEDENCE: Readonly<Record<string, number>> = { OR: 1, AND: 2, '||': 3, '+': 4, '-': 4, '*': 5, '/': 5, '//': 5, '%': 5, '^': 6 };

/** Builds left-associative binary trees from `operands[0] ops[0] operands[1] ...` by precedence climbing. */
function climb(operands: readonly Expr[], ops: readonly IToken[]): Expr {
  let next = 0;
  const opOf = (t: IToken): BinaryOp => {
    const image = t.image.toUpperCase();
    return image === 'AND' || image === 'OR' ? image : BINARY[image]!;
  };
  const parse = (minPrec: number): Expr => {
    let left = operands[next]!;
    while (next < ops.length) {
      const op = opOf(ops[next]!);
      const prec = PRECEDENCE[op]!;
      if (prec < minPrec) break;
      next++;
      const right = parse(prec + 1);
      left = { kind: 'binary', op, left, right, pos: span(left.pos, right.pos) };
    }
    return left;
  };
  return parse(0);
}

/** The items of an `expressionList` CST node: expressions, or the literals of its fast path (signs paired by position). */
export function listItems(cx: AstContext, list: CstNode): Expr[] {
  const run = maybeToken(list, 'literalRun')?.payload as LiteralRun | undefined;
  const lits = run?.literals ?? tokens(list, 'literals');
  if (lits.length === 0) return nodes(list, 'items').map((e) => toExpr(cx, e));
  const signs = run?.signs ?? tokens(list, 'signs');
  const out: Expr[] = new Array<Expr>(lits.length);
  let s = 0;
  for (let i = 0; i < lits.length; i++) {
    const t = lits[i]!;
    const e = literal(t);
    // A `-` belongs to the literal right after it (signs and literals are in text order).
    const sign = s < signs.length && signs[s]!.startOffset < t.startOffset ? signs[s++] : undefined;
    out[i] = sign === undefined ? e : { kind: 'unary', op: '-', arg: e, pos: span(tokenPos(sign), e.pos) };
  }
  return out;
}

function notExpr(cx: AstContext, n: CstNode): Expr {
  const arg = toExpr(cx, node(n, 'arg'));
  if (!has(n, 'NOT')) return arg;
  const pos = span(tokenPos(token(n, 'NOT')), arg.pos);
  if (arg.kind === 'exists') return { ...arg, negated: !arg.negated, pos };
  return { kind: 'unary', op: 'NOT', arg, pos };
}

function predicateTail(cx: AstContext, left: Expr, t: CstNode): Expr {
  const pos = span(left.pos, nodePos(t));
  const negated = has(t, 'not');
  const op = maybeToken(t, 'op');
  if (op !== undefined) {
    const right = toExpr(cx, node(t, 'right'));
    return { kind: 'binary', op: BINARY[op.image]!, left, right, pos };
  }
  const isWhat = maybeToken(t, 'isWhat');
  if (isWhat !== undefined) return isPredicate(cx, left, isWhat, t, negated, pos);
  const kind = token(t, 'kind').tokenType;
  if (kind === Kw.BETWEEN) return { kind: 'between', arg: left, low: toExpr(cx, node(t, 'low')), high: toExpr(cx, node(t, 'high')), negated, pos };
  if (kind === Kw.LIKE || kind === Kw.ILIKE) {
    const esc = maybeNode(t, 'escape');
    const like: Expr = { kind: 'like', arg: left, pattern: toExpr(cx, node(t, 'right')), negated, pos };
    return { ...like, ...(kind === Kw.ILIKE ? { caseInsensitive: true } : {}), ...(esc !== undefined ? { escape: toExpr(cx, esc) } : {}) };
  }
  const q = maybeNode(t, 'query');
  if (q !== undefined) return { kind: 'inSubquery', arg: left, query: cx.query(q), negated, pos };
  const list = maybeNode(t, 'list');
  return { kind: 'inList', arg: left, list: list === undefined ? [] : listItems(cx, list), negated, pos };
}

/** IS [NOT] NULL / TRUE / FALSE / DISTINCT FROM x. */
function isPredicate(cx: AstContext, arg: Expr, what: IToken, t: CstNode, negated: boolean, pos: Pos): Expr {
  const lit = (value: 'true' | 'false'): Expr => ({ kind: 'literal', literal: 'boolean', value, pos });
  const not = (e: Expr): Expr => ({ kind: 'unary', op: 'NOT', arg: e, pos });
  switch (what.tokenType) {
    case Kw.NULL:
      return { kind: 'isNull', arg, negated, pos };
    case Kw.TRUE:
    case Kw.FALSE: {
      // x IS TRUE ≡ coalesce(x, false); x IS FALSE ≡ coalesce(NOT x, false): never NULL.
      const test = what.tokenType === Kw.TRUE ? arg : not(arg);
      const e: Expr = { kind: 'function', name: 'coalesce', args: [test, lit('false')], distinct: false, star: false, pos };
      return negated ? not(e) : e;
    }
    default: {
      // a IS [NOT] DISTINCT FROM b: equality where NULL equals NULL, never NULL itself. An operator of its own,
      // for scalars and rows alike: the binder expands it (binder/row-values.ts compareItems).
      const other = toExpr(cx, node(t, 'right'));
      return { kind: 'binary', op: negated ? 'IS NOT DISTINCT FROM' : 'IS DISTINCT FROM', left: arg, right: other, pos };
    }
  }
}

function primary(cx: AstContext, n: CstNode): Expr {
  const lit = maybeToken(n, 'literal');
  if (lit !== undefined) return literal(lit);
  const param = maybeToken(n, 'param');
  // Numbered by parse.ts before parsing (`payload`): `$n` is n, each `?` one more than the highest number before it.
  if (param !== undefined) return { kind: 'literal', literal: 'parameter', value: String(param.payload as number), pos: tokenPos(param) };
  const child = n.children;
  if (child.typed) {
    const t = node(n, 'typed');
    const type = token(t, 'type').tokenType === Kw.DATE ? 'date' : 'timestamp';
    return { kind: 'literal', literal: type, value: stringOf(token(t, 'value')), pos: nodePos(t) };
  }
  if (child.interval) return interval(cx, node(n, 'interval'));
  if (child.caseExpr) return caseExpr(cx, node(n, 'caseExpr'));
  if (child.castExpr) {
    const c = node(n, 'castExpr');
    const tryCast = c.children['try'] !== undefined;
    return { kind: 'cast', arg: toExpr(cx, node(c, 'arg')), type: typeText(node(c, 'type')), pos: nodePos(c), ...(tryCast ? { try: true } : {}) };
  }
  if (child.subquery) {
    const sq = node(n, 'subquery');
    const query = cx.query(node(sq, 'query'));
    const exists = maybeToken(n, 'exists');
    if (exists !== undefined) return { kind: 'exists', query, negated: false, pos: span(tokenPos(exists), nodePos(sq)) };
    return { kind: 'subquery', query, pos: nodePos(sq) };
  }
  if (child.inner) {
    // A parenthesised expression keeps its node; its pos widens to the parentheses.
    const inner = toExpr(cx, node(n, 'inner'));
    const pos = spanTo(tokenPos(token(n, 'open')), token(n, 'close'));
    const more = nodes(n, 'rowItems');
    if (more.length > 0) return { kind: 'row', items: [inner, ...more.map((x) => toExpr(cx, x))], pos };
    return { ...inner, pos };
  }
  if (child.call) return functionCall(cx, node(n, 'call'));
  if (child.position) {
    // position(needle IN haystack) is strpos(haystack, needle), as in DuckDB.
    const c = node(n, 'position');
    return { kind: 'function', name: 'strpos', args: [toExpr(cx, node(c, 'haystack')), toExpr(cx, node(c, 'needle'))], distinct: false, star: false, pos: nodePos(c) };
  }
  return columnRef(node(n, 'column'));
}

function literal(t: IToken): Expr {
  const pos = tokenPos(t);
  if (t.tokenType === NumberLit) return { kind: 'literal', literal: 'number', value: t.image, pos };
  if (t.tokenType === StringLit) return { kind: 'literal', literal: 'string', value: stringOf(t), pos };
  if (t.tokenType === Kw.NULL) return { kind: 'literal', literal: 'null', value: null, pos };
  return { kind: 'literal', literal: 'boolean', value: t.tokenType === Kw.TRUE ? 'true' : 'false', pos };
}

/** INTERVAL units (a Map: the unit is user text, `INTERVAL '1 constructor'` must be an unknown unit). */
const INTERVAL_UNITS: ReadonlyMap<string, readonly ['day' | 'month' | 'year' | 'ms', number]> = new Map(Object.entries({
  millisecond: ['ms', 1], milliseconds: ['ms', 1], ms: ['ms', 1],
  second: ['ms', 1000], seconds: ['ms', 1000], sec: ['ms', 1000], secs: ['ms', 1000], s: ['ms', 1000],
  minute: ['ms', 60_000], minutes: ['ms', 60_000], min: ['ms', 60_000], mins: ['ms', 60_000], m: ['ms', 60_000],
  hour: ['ms', 3_600_000], hours: ['ms', 3_600_000], h: ['ms', 3_600_000],
  day: ['day', 1], days: ['day', 1], d: ['day', 1], week: ['day', 7], weeks: ['day', 7],
  month: ['month', 1], months: ['month', 1], quarter: ['month', 3], quarters: ['month', 3],
  year: ['year', 1], years: ['year', 1],
} as const));

/** INTERVAL '90' DAY / INTERVAL 3 MONTH / INTERVAL '2 years'. */
function interval(cx: AstContext, n: CstNode): Expr {
  const pos = nodePos(n);
  const v = token(n, 'value');
  let text = v.tokenType === StringLit ? stringOf(v).trim() : v.image;
  let unitTok = maybeToken(n, 'unit');
  let unitText = unitTok === undefined ? undefined : unitTok.image;
  if (unitText === undefined) {
    const m = /^([-+]?\d+(?:\.\d+)?)\s*([A-Za-z]+)$/.exec(text);
    if (m === null) throw astError(cx.text, pos, `INTERVAL needs a unit: write INTERVAL '${text}' DAY, MONTH or YEAR`);
    text = m[1]!;
    unitText = m[2]!;
  }
  const unit = INTERVAL_UNITS.get(unitText.toLowerCase());
  if (unit === undefined) {
    throw astError(cx.text, unitTok === undefined ? pos : tokenPos(unitTok), `unsupported INTERVAL unit "${unitText}"; use MILLISECOND, SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER or YEAR`);
  }
  const value = Number(text) * (has(n, 'minus') ? -1 : 1);
  if (!Number.isFinite(value)) throw astError(cx.text, tokenPos(v), `INTERVAL value "${text}" is not a number`);
  return { kind: 'interval', value: value * unit[1], unit: unit[0], pos };
}

function caseExpr(cx: AstContext, n: CstNode): Expr {
  const thens = nodes(n, 'thens');
  const operand = maybeNode(n, 'operand');
  const otherwise = maybeNode(n, 'else');
  return {
    kind: 'case',
    ...(operand === undefined ? {} : { operand: toExpr(cx, operand) }),
    whens: nodes(n, 'whens').map((w, i) => ({ when: toExpr(cx, w), then: toExpr(cx, thens[i]!) })),
    ...(otherwise === undefined ? {} : { else: toExpr(cx, otherwise) }),
    pos: nodePos(n),
  };
}

function functionCall(cx: AstContext, n: CstNode): Expr {
  const pos = nodePos(n);
  const nameTok = token(n, 'name');
  const name = nameTok.tokenType === QuotedIdentifier ? nameOf(nameTok) : nameTok.image.toLowerCase();
  const argList = maybeNode(n, 'args');
  const args = argList === undefined ? [] : listItems(cx, argList);
  const distinct = has(n, 'distinct');
  if (name === 'row' && nameTok.tokenType !== QuotedIdentifier) {
    // ROW(a, ...): a row value (also with one item), as `(a, b)`; the binder decides where it may stand.
    if (args.length === 0 || distinct || has(n, 'star') || has(n, 'from') || has(n, 'orderBy') || has(n, 'over') || has(n, 'filter') || has(n, 'within')) {
      throw astError(cx.text, pos, 'ROW(...) takes one or more values, e.g. ROW(a, b)');
    }
    return { kind: 'row', items: args, pos };
  }
  const from = maybeNode(n, 'from');
  const forLen = maybeNode(n, 'for');
  if (from !== undefined || forLen !== undefined) {
    const where = tokenPos(token(n, from !== undefined ? 'FROM' : 'FOR'));
    if (args.length !== 1) throw astError(cx.text, where, `${name}(... FROM ...) takes one argument before FROM`);
    if (name === 'extract' && from !== undefined && forLen === undefined) {
      const part = args[0]!;
      const partName = part.kind === 'column' && part.qualifier === undefined ? part.name : part.kind === 'literal' && part.literal === 'string' ? part.value : null;
      if (partName === null) throw astError(cx.text, part.pos, 'extract(part FROM x) needs a date part such as year, month or day');
      // extract(part FROM x) is date_part('part', x): the binder checks the part (special-functions.ts).
      const partLit: Expr = { kind: 'literal', literal: 'string', value: partName.toLowerCase(), pos: part.pos };
      return { kind: 'function', name: 'date_part', args: [partLit, toExpr(cx, from)], distinct: false, star: false, pos };
    }
    if (name === 'substring' || name === 'substr') {
      const start: Expr = from !== undefined ? toExpr(cx, from) : { kind: 'literal', literal: 'number', value: '1', pos: where };
      const all = forLen === undefined ? [args[0]!, start] : [args[0]!, start, toExpr(cx, forLen)];
      return { kind: 'function', name, args: all, distinct: false, star: false, pos };
    }
    throw astError(cx.text, where, `FROM/FOR inside a call is only valid in substring(s FROM a FOR b) and extract(part FROM x), not in ${name}(...)`);
  }
  const orderBy = maybeToken(n, 'orderBy');
  if (orderBy !== undefined && !isAggregateName(name)) {
    throw astError(cx.text, tokenPos(orderBy), `ORDER BY inside ${name}(...) is only allowed in aggregate functions`);
  }
  const order = orderBy === undefined ? {} : { orderBy: nodes(n, 'order').map((o) => orderItem(cx, o)) };
  const over = maybeNode(n, 'over');
  const filterWhere = maybeNode(n, 'filterWhere');
  const within = has(n, 'within') ? { withinGroup: nodes(n, 'withinOrder').map((o) => orderItem(cx, o)) } : {};
  const call: Extract<Expr, { kind: 'function' }> = {
    kind: 'function', name, args, distinct, star: has(n, 'star'), ...order, ...(over === undefined ? {} : { over: cx.over(over) }), pos,
    ...(filterWhere === undefined ? {} : { filter: toExpr(cx, filterWhere) }), ...within,
  };
  try {
    return desugarAggClauses(call, isAggregateName(name));
  } catch (e) {
    if (e instanceof AggClauseError) throw astError(cx.text, e.pos, e.message);
    throw e;
  }
}


/** Converts an `orderItem` CST node. */
export function orderItem(cx: AstContext, n: CstNode): OrderItem {
  return { expr: toExpr(cx, node(n, 'expr')), ...direction_(node(n, 'direction')) };
}

/** `[ASC | DESC] [NULLS FIRST | LAST]`. */
export function direction_(n: CstNode): { desc: boolean; nullsFirst?: boolean } {
  return { desc: has(n, 'desc'), ...(has(n, 'NULLS') ? { nullsFirst: has(n, 'nullsFirst') } : {}) };
}

/** `a`, `t.a`, `s.t.a` (qualifier `s.t`). */
function columnRef(n: CstNode): Expr {
  const parts = tokens(n, 'parts');
  const last = parts[parts.length - 1]!;
  const pos = nodePos(n);
  const name = nameOf(last);
  if (parts.length === 1) {
    const lower = last.tokenType === QuotedIdentifier ? '' : name.toLowerCase();
    if (lower === 'current_date' || lower === 'current_timestamp') return { kind: 'function', name: lower, args: [], distinct: false, star: false, pos };
    return { kind: 'column', name, pos };
  }
  return { kind: 'column', name, qualifier: parts.slice(0, -1).map(nameOf).join('.'), pos };
}

/** A type as written: `INTEGER`, `VARCHAR(25)`, `DECIMAL(15,2)`, `DOUBLE PRECISION`. */
export function typeText(n: CstNode): string {
  const words = tokens(n, 'words').map((t) => t.image).join(' ');
  const params = tokens(n, 'params');
  return params.length === 0 ? words : `${words}(${params.map((t) => t.image).join(',')})`;
}
