/**
 * simplify-expressions: folds deterministic calls and casts over literals (with the kernels'
 * evaluateConstant), simplifies AND/OR/NOT/CASE around literals, and removes Filter(TRUE).
 * Runs first so merge-filters and push-down-filter see flat conjunct lists, and
 * remove-empty-relations sees Filter(FALSE).
 */
import { evaluateConstant } from '../../exec/kernels/index.js';
import { canonicalRex } from '../../relnode/digest.js';
import { cacheSource, filter, join, project, scan, transformUp, type RelNode } from '../../relnode/rel.js';
import { assertNever, caseWhen, call, literal, rexTransform, type Call, type Case, type Literal, type RexNode } from '../../relnode/rex.js';
import { isDeterministicRex, isLiteralValue, withType, type Rule } from '../rule.js';
import type { SqlType } from '../../relnode/types.js';

/** Folds and simplifies every expression of the plan; drops filters whose condition became TRUE. */
export const simplifyExpressions: Rule = {
  name: 'simplify-expressions',
  description: 'Constant-folds deterministic expressions and simplifies AND/OR/NOT/CASE; runs first so merge-filters, push-down-filter and remove-empty-relations see literals.',
  rewrite(root) {
    return transformUp(root, (n) => {
      const m = mapExpressions(n, simplifyRex);
      return m.kind === 'Filter' && isLiteralValue(m.condition, true) ? m.input : m;
    });
  },
};

/** Simplifies one expression bottom-up; returns the same object when nothing changed. */
export function simplifyRex(e: RexNode): RexNode {
  return rexTransform(e, simplifyNode);
}

function simplifyNode(e: RexNode): RexNode {
  switch (e.kind) {
    case 'InputRef': case 'OuterRef': case 'AggRef': case 'Literal': case 'Subquery': return e;
    case 'Cast': return e.arg.kind === 'Literal' ? widenLiteral(e.arg, e.type) ?? fold(e) : e;
    case 'Case': return simplifyCase(e);
    case 'Call': {
      if (e.op === 'and' || e.op === 'or') return simplifyJunction(e);
      const only = e.args[0];
      if (e.op === 'not' && only?.kind === 'Call' && only.op === 'not') return withType(only.args[0]!, e.type);
      // Zero-argument calls (random(), now()) are never folded: folding needs literal inputs.
      if (e.args.length > 0 && e.args.every((a) => a.kind === 'Literal') && isDeterministicRex(e)) return fold(e);
      return e;
    }
    default: return assertNever(e, 'RexNode');
  }
}

/**
 * The exact widenings of a literal (NULL to any type, INTEGER to BIGINT or DOUBLE) without the kernels:
 * the binder coerces every item of an IN list, and folding 100k casts through evaluateConstant
 * (a kernel and a batch each) took ~0.75 s per query. Anything else goes through `fold`.
 */
function widenLiteral(lit: Literal, type: SqlType): RexNode | undefined {
  const v = lit.value;
  if (v === null) return literal(null, type);
  if (lit.type !== 'INTEGER' || typeof v !== 'number' || !Number.isInteger(v)) return undefined;
  if (type === 'BIGINT') return literal(BigInt(v), type);
  if (type === 'DOUBLE') return literal(v, type);
  return undefined;
}

/** Evaluates a constant expression; an expression the kernels reject (overflow, bad cast) stays as written. */
function fold(e: RexNode): RexNode {
  try {
    return literal(evaluateConstant(e), e.type);
  } catch {
    return e;
  }
}

/**
 * AND/OR: flattens nested calls of the same operator, drops the identity (TRUE for AND,
 * FALSE for OR), collapses to the absorbing value when present, and removes duplicate
 * deterministic operands. NULL operands stay (NULL AND x is not x), deduplicated.
 */
function simplifyJunction(e: Call): RexNode {
  const identity = e.op === 'and';
  const flat = e.args.flatMap((a) => (a.kind === 'Call' && a.op === e.op ? a.args : [a]));
  const seen = new Set<string>();
  const kept: RexNode[] = [];
  for (const a of flat) {
    if (isLiteralValue(a, !identity)) return literal(!identity, e.type);
    if (isLiteralValue(a, identity)) continue;
    if (isDeterministicRex(a)) {
      const key = canonicalRex(a);
      if (seen.has(key)) continue;
      seen.add(key);
    }
    kept.push(a);
  }
  if (kept.length === e.args.length && kept.every((a, i) => a === e.args[i])) return e;
  if (kept.length === 0) return literal(identity, e.type);
  if (kept.length === 1) return withType(kept[0]!, e.type);
  return call(e.op, kept, e.type);
}

/** CASE: drops WHEN branches whose condition is FALSE or NULL; a TRUE condition ends the CASE with its THEN. */
function simplifyCase(e: Case): RexNode {
  const whens: { when: RexNode; then: RexNode }[] = [];
  let otherwise = e.otherwise;
  let changed = false;
  for (const w of e.whens) {
    if (isLiteralValue(w.when, false) || isLiteralValue(w.when, null)) { changed = true; continue; }
    if (isLiteralValue(w.when, true)) { otherwise = w.then; changed = true; break; }
    whens.push(w);
  }
  if (!changed) return e;
  if (whens.length === 0) return withType(otherwise, e.type);
  return caseWhen(whens, otherwise, e.type);
}

/** The node with `f` applied to each of its own expressions (not its inputs'); the same node when none changed. */
function mapExpressions(n: RelNode, f: (e: RexNode) => RexNode): RelNode {
  switch (n.kind) {
    case 'Filter': {
      const c = f(n.condition);
      return c === n.condition ? n : filter(n.input, c);
    }
    case 'Project': {
      const exprs = n.exprs.map((e) => withType(f(e), e.type));
      return exprs.every((e, i) => e === n.exprs[i]) ? n : project(n.input, exprs, n.schema.fields.map((x) => x.name));
    }
    case 'Join': {
      const c = f(n.condition);
      return c === n.condition ? n : join(n.left, n.right, n.joinType, c);
    }
    case 'Scan': {
      const pf = mapPushed(n.pushedFilters, f);
      return pf === n.pushedFilters ? n : scan(n.table, n.projection, pf);
    }
    case 'CacheSource': {
      const pf = mapPushed(n.pushedFilters, f);
      return pf === n.pushedFilters ? n : cacheSource(n.entryId, n.original, n.projection, pf);
    }
    default:
      return n;
  }
}

/** Simplifies pushed-down source filters, dropping those that became TRUE. */
function mapPushed(pf: readonly RexNode[] | undefined, f: (e: RexNode) => RexNode): readonly RexNode[] | undefined {
  if (pf === undefined) return pf;
  const out = pf.map(f);
  if (out.every((e, i) => e === pf[i])) return pf;
  return out.filter((e) => !isLiteralValue(e, true));
}
