/**
 * The PIVOT / UNPIVOT CST (parser-pivot.ts) to the AST's `pivot` and `unpivot` FROM items. A simplified
 * statement (`PIVOT t ON ...`, `UNPIVOT t ON ...`) becomes `SELECT * FROM <item>`, so ORDER BY, LIMIT, set
 * operations, CTEs and subqueries take it like any query; a standard-form suffix (`t PIVOT (...)`) wraps the
 * FROM item it follows. The clause words NAME, VALUE, INCLUDE and EXCLUDE are identifiers in the grammar
 * and are checked here. Defaults are DuckDB's: USING count(*), INTO NAME name VALUE value, NULLs excluded.
 */
import type { CstNode, IToken } from 'chevrotain';
import type { Expr, FromItem, PivotItem, PivotOn, Pos, Query, UnpivotEntry, UnpivotItem } from './ast.js';
import { astError, has, maybeNode, maybeToken, nameOf, node, nodePos, nodes, stringOf, token, tokenPos, tokens } from './cst-access.js';
import { toExpr, type AstContext } from './cst-expr.js';
import { QuotedIdentifier, StringLit } from './lexer.js';

/** Converts a FROM item's CST node (cst-to-ast.ts passes its converter in, so this file need not import it). */
export type TableRefConverter = (n: CstNode) => FromItem;

/** `PIVOT t ON ... USING ... GROUP BY ...` as `SELECT * FROM <pivot>`. */
export function pivotQuery(cx: AstContext, n: CstNode, tableRef: TableRefConverter): Query {
  const pos = nodePos(n);
  const on = nodes(n, 'on').map((o) => pivotOn(cx, o));
  const groupNode = maybeNode(n, 'groupBy');
  if (on.length === 0 && !has(n, 'using') && groupNode === undefined) {
    throw astError(cx.text, tokenPos(token(n, 'word')), 'PIVOT needs at least one of ON, USING and GROUP BY, e.g. PIVOT t ON year USING sum(amount) GROUP BY region');
  }
  const item: PivotItem = {
    kind: 'pivot',
    source: tableRef(node(n, 'source')),
    on,
    using: usingItems(cx, n, pos),
    ...(groupNode === undefined ? {} : { groupBy: groupNames(groupNode) }),
    pos,
  };
  return starFrom(item, pos);
}

/** `UNPIVOT t ON ... [INTO NAME n VALUE v, ...]` as `SELECT * FROM <unpivot>`. */
export function unpivotQuery(cx: AstContext, n: CstNode, tableRef: TableRefConverter): Query {
  const pos = nodePos(n);
  let nameColumn = 'name';
  let valueColumns = ['value'];
  if (has(n, 'into')) {
    clauseWord(cx, token(n, 'nameWord'), 'NAME', 'INTO NAME name_column VALUE value_column');
    clauseWord(cx, token(n, 'valueWord'), 'VALUE', 'INTO NAME name_column VALUE value_column');
    nameColumn = nameOf(token(n, 'name'));
    valueColumns = tokens(n, 'values').map(nameOf);
  }
  const item: UnpivotItem = {
    kind: 'unpivot',
    source: tableRef(node(n, 'source')),
    entries: nodes(n, 'on').map((e) => unpivotEntry(cx, e)),
    nameColumn,
    valueColumns,
    includeNulls: false,
    pos,
  };
  return starFrom(item, pos);
}

/** `item PIVOT (...) UNPIVOT (...) ...`: the standard-form suffixes of a FROM item, applied left to right. */
export function withPivotSuffixes(cx: AstContext, item: FromItem, suffixes: readonly CstNode[]): FromItem {
  let out = item;
  for (const s of suffixes) out = has(s, 'pivot') ? pivotSuffix(cx, out, s) : unpivotSuffix(cx, out, s);
  return out;
}

function pivotSuffix(cx: AstContext, source: FromItem, n: CstNode): PivotItem {
  const pos = nodePos(n);
  const groupNode = maybeNode(n, 'groupBy');
  const alias = maybeToken(n, 'alias');
  return {
    kind: 'pivot',
    source,
    on: nodes(n, 'on').map((o) => pivotOn(cx, o)),
    using: usingItems(cx, n, pos),
    ...(groupNode === undefined ? {} : { groupBy: groupNames(groupNode) }),
    ...(alias === undefined ? {} : { alias: nameOf(alias) }),
    pos,
  };
}

function unpivotSuffix(cx: AstContext, source: FromItem, n: CstNode): UnpivotItem {
  const nulls = maybeToken(n, 'nulls');
  let includeNulls = false;
  if (nulls !== undefined) {
    const w = nulls.tokenType === QuotedIdentifier ? '' : nulls.image.toLowerCase();
    if (w !== 'include' && w !== 'exclude') throw astError(cx.text, tokenPos(nulls), `unexpected "${nulls.image}"; expected INCLUDE NULLS or EXCLUDE NULLS after UNPIVOT`);
    includeNulls = w === 'include';
  }
  const alias = maybeToken(n, 'alias');
  return {
    kind: 'unpivot',
    source,
    entries: nodes(n, 'items').map((e) => unpivotEntry(cx, e)),
    nameColumn: nameOf(token(n, 'name')),
    valueColumns: tokens(n, 'values').map(nameOf),
    includeNulls,
    ...(alias === undefined ? {} : { alias: nameOf(alias) }),
    pos: nodePos(n),
  };
}

function pivotOn(cx: AstContext, n: CstNode): PivotOn {
  const values = nodes(n, 'values').map((v) => {
    const a = maybeNode(v, 'alias');
    return { value: toExpr(cx, node(v, 'value')), ...(a === undefined ? {} : { alias: aliasText(a) }), pos: nodePos(v) };
  });
  return { expr: toExpr(cx, node(n, 'expr')), ...(has(n, 'close') ? { values } : {}), pos: nodePos(n) };
}

/** The USING aggregates, or DuckDB's default `count(*)`. */
function usingItems(cx: AstContext, n: CstNode, pos: Pos): PivotItem['using'] {
  const items = nodes(n, 'using').map((u) => {
    const a = maybeNode(u, 'alias');
    const bare = maybeToken(u, 'bareAlias');
    const alias = a !== undefined ? aliasText(a) : bare !== undefined ? nameOf(bare) : undefined;
    return { expr: toExpr(cx, node(u, 'expr')), ...(alias === undefined ? {} : { alias }), pos: nodePos(u) };
  });
  if (items.length > 0) return items;
  const countStar: Expr = { kind: 'function', name: 'count', args: [], distinct: false, star: true, pos };
  return [{ expr: countStar, pos }];
}

function unpivotEntry(cx: AstContext, n: CstNode): UnpivotEntry {
  const a = maybeNode(n, 'alias');
  return { exprs: nodes(n, 'exprs').map((e) => toExpr(cx, e)), ...(a === undefined ? {} : { alias: aliasText(a) }), pos: nodePos(n) };
}

function groupNames(n: CstNode): { name: string; pos: Pos }[] {
  return tokens(n, 'names').map((t) => ({ name: nameOf(t), pos: tokenPos(t) }));
}

/** The name of a `pivotAlias` node: `AS name` or `AS 'name'`. */
function aliasText(n: CstNode): string {
  const t = token(n, 'name');
  return t.tokenType === StringLit ? stringOf(t) : nameOf(t);
}

function clauseWord(cx: AstContext, t: IToken, word: string, form: string): void {
  if (t.tokenType === QuotedIdentifier || t.image.toUpperCase() !== word) throw astError(cx.text, tokenPos(t), `unexpected "${t.image}"; expected ${word} (the clause is ${form})`);
}

function starFrom(item: FromItem, pos: Pos): Query {
  return { kind: 'select', distinct: false, items: [{ kind: 'star', pos }], from: [item], pos };
}
