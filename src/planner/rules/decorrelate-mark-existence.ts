/**
 * A mark Correlate for EXISTS (its condition TRUE) whose right side is Projects and Filters over an
 * uncorrelated input → the distinct outer values (the domain, flatten-dependent.ts) semi-joined with
 * that input on the correlated conjuncts, left-joined back onto the left rows on the domain's
 * columns (NULL-safely): the mark is whether the row's values came through.
 *
 * Why: IN / NOT IN used as a value (select list, under OR, in CASE) binds to a CASE over two such
 * EXISTS (sql/binder/row-subquery.ts): an exact one, `x = a AND y = b`, and one for "may equal",
 * `(x = a OR x IS NULL OR a IS NULL) AND ...`. decorrelate-domain computed each as an inner join of
 * the input with the domain followed by a DISTINCT; with every item nullable the second join has no
 * hash key and ran as a nested loop (domain × subquery rows). As a semi join the condition is read
 * as NOT IN's items (not-in-join.ts) and runs as the NULL-aware hash join's semi form; the exact one
 * is a semi hash join, which also needs no DISTINCT over its matches. Correlation equalities
 * (`t.k = s.k`) are plain items of the same join.
 *
 * Runs after decorrelate-existence and before decorrelate-domain, which handles the other shapes.
 */
import * as rel from '../../relnode/rel.js';
import { andAll, call, inputRef, literal, rexTransform, rexVisit, type RexNode } from '../../relnode/rex.js';
import { domainOf } from '../flatten-dependent.js';
import { joinOnKeys } from '../subquery-joins.js';
import type { Rule } from '../rule.js';
import { overJoin, pullCorrelated } from './correlate-sides.js';

function rewrite(c: rel.Correlate): rel.RelNode | undefined {
  if (c.joinType !== 'mark' || c.condition.kind !== 'Literal' || c.condition.value !== true) return undefined;
  const pulled = pullCorrelated(c.right);
  if (pulled === undefined || pulled.correlated.length === 0 || rel.outerRefsOf(pulled.below).size > 0) return undefined;
  const read = new Set<number>();
  for (const x of pulled.correlated) rexVisit(x, (y) => { if (y.kind === 'OuterRef') read.add(y.index); });
  const outer = [...read].sort((a, b) => a - b);
  const k = outer.length;
  const d = domainOf(c.left, outer);
  // The conjuncts over the domain's columns, then the input's.
  const toDomain = (e: RexNode): RexNode => rexTransform(e, (x) => (x.kind === 'OuterRef' ? { ...x, index: outer.indexOf(x.index) } : x));
  const semi = rel.join(d.node, pulled.below, 'semi', andAll(pulled.correlated.map((x) => overJoin(toDomain(x), k))));
  const df = semi.schema.fields;
  const keys = rel.project(semi, [...df.map((f, i) => inputRef(i, f.type, f.name)), literal(true, 'BOOLEAN')], [...df.map((_, i) => `__key${i}`), '__match']);
  const j = joinOnKeys(c.left, keys, 'left', literal(true, 'BOOLEAN'), outer, outer.map((_, i) => i));
  const lw = c.left.schema.fields.length;
  const lf = c.left.schema.fields;
  return rel.project(j, [...lf.map((f, i) => inputRef(i, f.type, f.name)), call('is_not_null', [inputRef(lw + k, 'BOOLEAN')], 'BOOLEAN')], [...lf.map((f) => f.name), 'mark']);
}

export const decorrelateMarkExistence: Rule = {
  name: 'decorrelate-mark-existence',
  description: 'An EXISTS mark Correlate over Projects and Filters with correlated conjuncts → the distinct outer values semi-joined on them, left-joined back; after decorrelate-existence.',
  rewrite: (node) => rel.transformUp(node, (n) => (n.kind === 'Correlate' ? rewrite(n) ?? n : n)),
};
