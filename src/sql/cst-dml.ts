/**
 * CST → AST for the rules of parser-dml.ts: UPDATE, DELETE, COPY, DESCRIBE
 * and SUMMARIZE. Kept apart from cst-statement.ts so the statement visitor
 * only dispatches here.
 */
import type { CstNode } from 'chevrotain';
import type { Assignment, CopyOption, Pos, Statement } from './ast.js';
import { has, maybeNode, nameOf, node, nodePos, nodes, stringOf, token, tokenPos } from './cst-access.js';
import { toExpr, type AstContext } from './cst-expr.js';
import { names, tableName, toQuery } from './cst-to-ast.js';
import { Kw, NumberLit, StringLit } from './lexer.js';

/** UPDATE t SET ... [WHERE ...]. */
export function updateStatement(cx: AstContext, s: CstNode, pos: Pos): Statement {
  const sets = nodes(s, 'sets').map((a): Assignment => ({ column: nameOf(token(a, 'column')), value: toExpr(cx, node(a, 'value')), pos: nodePos(a) }));
  const where = maybeNode(s, 'where');
  return { kind: 'update', table: tableName(node(s, 'table')), sets, ...(where ? { where: toExpr(cx, where) } : {}), pos };
}

/** DELETE FROM t [WHERE ...]. */
export function deleteStatement(cx: AstContext, s: CstNode, pos: Pos): Statement {
  const where = maybeNode(s, 'where');
  return { kind: 'delete', table: tableName(node(s, 'table')), ...(where ? { where: toExpr(cx, where) } : {}), pos };
}

/** COPY ... TO | FROM 'path' (options). */
export function copyStatement(cx: AstContext, s: CstNode, pos: Pos): Statement {
  const q = maybeNode(s, 'query');
  const t = maybeNode(s, 'table');
  const columns = maybeNode(s, 'columns');
  const options = nodes(s, 'options').map((o): CopyOption => {
    const name = token(o, 'name');
    const v = o.children.value?.[0];
    let value: string | number | boolean = true;
    if (v !== undefined && 'image' in v) {
      if (v.tokenType === StringLit) value = stringOf(v);
      else if (v.tokenType === NumberLit) value = Number(v.image) * (has(o, 'minus') ? -1 : 1);
      else if (v.tokenType === Kw.TRUE) value = true;
      else if (v.tokenType === Kw.FALSE) value = false;
      else value = nameOf(v);
    }
    return { name: nameOf(name), value, pos: tokenPos(name) };
  });
  return {
    kind: 'copy',
    direction: has(s, 'to') ? 'to' : 'from',
    ...(t ? { table: tableName(t) } : {}),
    ...(columns ? { columns: names(columns) } : {}),
    ...(q ? { query: toQuery(cx, q) } : {}),
    path: stringOf(token(s, 'path')),
    options,
    pos,
  };
}

/** DESCRIBE / SUMMARIZE of a table or a query. */
export function inspectStatement(cx: AstContext, kind: 'describe' | 'summarize', s: CstNode, pos: Pos): Statement {
  const t = maybeNode(s, 'table');
  if (t) return { kind, name: tableName(t), pos };
  return { kind, name: '', query: toQuery(cx, node(s, 'query')), pos };
}
