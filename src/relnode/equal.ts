/**
 * Structural equality of plan subtrees: what confirms a cache hit once the
 * digest found a candidate. It walks the two trees side by side and compares
 * what the digest renders, but as data rather than text: kinds, every term
 * of explainTerms part by part (columns by ordinal, expressions as canonical
 * trees with exact literals, plain values as strings; display parts
 * skipped), output types, and children. Scan identity and version are a
 * term, so they are compared too. No rendering is involved, so no rendering
 * can be lossy enough to make two different plans equal.
 */
import { rexEquivalent, sameLiteral } from './canonical.js';
import { digest } from './digest.js';
import { explainTerms, type TermPart } from './explain.js';
import { inputs, type RelNode } from './rel.js';
import { assertNever } from './rex.js';

function partEqual(a: TermPart, b: TermPart): boolean {
  if (a.t !== b.t) return false;
  switch (a.t) {
    case 'text': return a.text === (b as typeof a).text;
    case 'display': return true;
    case 'col': return a.index === (b as typeof a).index;
    case 'rex': return rexEquivalent(a.rex, (b as typeof a).rex, digest, structurallyEqual);
    case 'lit': { const o = b as typeof a; return a.type === o.type && sameLiteral(a.value, o.value); }
    case 'seq': { const o = b as typeof a; return a.parts.length === o.parts.length && a.parts.every((p, i) => partEqual(p, o.parts[i]!)); }
    case 'list': { const o = b as typeof a; return a.items.length === o.items.length && a.items.every((p, i) => partEqual(p, o.items[i]!)); }
    default: return assertNever(a, 'TermPart');
  }
}

/** True when the two nodes alone (not their children) are equal: kind, terms, output types. */
function nodeEqual(a: RelNode, b: RelNode): boolean {
  if (a.kind !== b.kind) return false;
  const fa = a.schema.fields, fb = b.schema.fields;
  if (fa.length !== fb.length || fa.some((f, i) => f.type !== fb[i]!.type)) return false;
  const ta = explainTerms(a), tb = explainTerms(b);
  return ta.length === tb.length && ta.every((t, i) => t.name === tb[i]!.name && partEqual(t.value, tb[i]!.value));
}

/** True when two subtrees compute the same result by structure (see the header). */
export function structurallyEqual(a: RelNode, b: RelNode): boolean {
  if (a === b) return true;
  if (!nodeEqual(a, b)) return false;
  const ca = inputs(a), cb = inputs(b);
  return ca.length === cb.length && ca.every((c, i) => structurallyEqual(c, cb[i]!));
}
