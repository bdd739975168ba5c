/**
 * CST → AST for window specifications (the rules of parser-window.ts): OVER
 * clauses, frames and the WINDOW clause. Frame offsets stay expressions; the
 * binder requires them to be constants.
 */
import type { CstNode } from 'chevrotain';
import type { FrameBoundSpec, WindowSpec } from './ast.js';
import { has, maybeNode, nameOf, node, nodePos, nodes, token, tokens } from './cst-access.js';
import { Kw } from './lexer.js';
import { orderItem, toExpr, type AstContext } from './cst-expr.js';

/** Converts an `overClause` CST node. */
export function overClause(cx: AstContext, n: CstNode): WindowSpec {
  const spec = maybeNode(n, 'spec');
  if (spec === undefined) return { base: nameOf(token(n, 'name')), pos: nodePos(n) };
  return windowSpec(cx, spec);
}

/** Converts a `windowSpec` CST node. */
export function windowSpec(cx: AstContext, n: CstNode): WindowSpec {
  const base = tokens(n, 'base')[0];
  const partition = nodes(n, 'partition');
  const order = nodes(n, 'order');
  const frame = maybeNode(n, 'frame');
  return {
    ...(base !== undefined ? { base: nameOf(base) } : {}),
    ...(partition.length > 0 ? { partitionBy: partition.map((p) => toExpr(cx, p)) } : {}),
    ...(order.length > 0 ? { orderBy: order.map((o) => orderItem(cx, o)) } : {}),
    ...(frame !== undefined ? { frame: frameClause(cx, frame) } : {}),
    pos: nodePos(n),
  };
}

function frameClause(cx: AstContext, n: CstNode): NonNullable<WindowSpec['frame']> {
  const mode = token(n, 'mode').tokenType === Kw.ROWS ? 'rows' : 'range';
  const end = maybeNode(n, 'end');
  return { mode, start: frameBound(cx, node(n, 'start')), ...(end !== undefined ? { end: frameBound(cx, end) } : {}), pos: nodePos(n) };
}

function frameBound(cx: AstContext, n: CstNode): FrameBoundSpec {
  const pos = nodePos(n);
  if (has(n, 'current')) return { kind: 'currentRow', pos };
  const preceding = has(n, 'preceding');
  if (has(n, 'unbounded')) return { kind: preceding ? 'unboundedPreceding' : 'unboundedFollowing', pos };
  return { kind: preceding ? 'preceding' : 'following', offset: toExpr(cx, node(n, 'offset')), pos };
}

/** Converts a `windowClause` CST node: the named windows, in order. */
export function windowClause(cx: AstContext, n: CstNode): { name: string; spec: WindowSpec }[] {
  const specs = nodes(n, 'specs');
  return tokens(n, 'names').map((t, i) => ({ name: nameOf(t), spec: windowSpec(cx, specs[i]!) }));
}
