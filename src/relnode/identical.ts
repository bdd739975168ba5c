/**
 * Identity of two plan trees: structurally equal (equal.ts: same result) AND
 * equal in everything displayed — output names, qualifiers, nullability, the
 * display parts of explainTerms (a scan's table name), expressions as written
 * (operand order, column display names, the SQL position a runtime error
 * quotes), not canonicalized.
 *
 * Why a second equality: the digest and `structurallyEqual` name nothing on
 * purpose (a cache entry answers any query computing the same rows, whatever
 * its names). A planned query kept for reuse by structure (api/physical-plans.ts:
 * Table API trees are new objects on every call) carries its tree's names into
 * EXPLAIN ANALYZE and anything else that reads the plan, so reusing it needs
 * the stronger relation: two trees that differ only in a column name, or in
 * the order of `a + b`, must not share a plan.
 */
import { sameLiteral } from './canonical.js';
import { explainTerms, type TermPart } from './explain.js';
import { inputs, type RelNode } from './rel.js';
import { assertNever, type RexNode } from './rex.js';
import type { SourceSpan } from './source-span.js';
import type { Schema } from './types.js';

/**
 * True when the two trees compute the same rows and display alike (see the header). One walk
 * compares what `structurallyEqual` compares, only stricter: kinds, output types (and names),
 * every term part (display parts too), expressions as trees without canonicalizing them (equal
 * trees have equal canonical forms), children — so `identical` implies `structurallyEqual`.
 */
export function identical(a: RelNode, b: RelNode): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || !sameSchema(a.schema, b.schema)) return false;
  const ta = explainTerms(a), tb = explainTerms(b);
  if (ta.length !== tb.length || !ta.every((t, i) => t.name === tb[i]!.name && partIdentical(t.value, tb[i]!.value))) return false;
  if (!sameCallSpans(a, b)) return false;
  const ca = inputs(a), cb = inputs(b);
  return ca.length === cb.length && ca.every((c, i) => identical(c, cb[i]!));
}

/** An Aggregate's or Window's calls written at the same places (their spans are not explain terms: display-only). */
function sameCallSpans(a: RelNode, b: RelNode): boolean {
  const calls = (n: RelNode): readonly { readonly at?: SourceSpan }[] => (n.kind === 'Aggregate' ? n.aggCalls : n.kind === 'Window' ? n.calls : []);
  const ca = calls(a), cb = calls(b);
  return ca.length === cb.length && ca.every((c, i) => sameSpan(c.at, cb[i]!.at));
}

function sameSchema(a: Schema, b: Schema): boolean {
  const fa = a.fields, fb = b.fields;
  return fa.length === fb.length && fa.every((f, i) => {
    const g = fb[i]!;
    return f.name === g.name && f.type === g.type && f.nullable === g.nullable && f.qualifier === g.qualifier;
  });
}

function partIdentical(a: TermPart, b: TermPart): boolean {
  if (a.t !== b.t) return false;
  switch (a.t) {
    case 'text': return a.text === (b as typeof a).text;
    case 'display': return a.text === (b as typeof a).text;
    case 'col': return a.index === (b as typeof a).index;
    case 'rex': return rexIdentical(a.rex, (b as typeof a).rex);
    case 'lit': { const o = b as typeof a; return a.type === o.type && sameLiteral(a.value, o.value); }
    case 'seq': { const o = b as typeof a; return a.parts.length === o.parts.length && a.parts.every((p, i) => partIdentical(p, o.parts[i]!)); }
    case 'list': { const o = b as typeof a; return a.items.length === o.items.length && a.items.every((p, i) => partIdentical(p, o.items[i]!)); }
    default: return assertNever(a, 'TermPart');
  }
}

/** Same place in the same SQL line (what a runtime error quotes: a reused plan must quote its own query). */
function sameSpan(a: SourceSpan | undefined, b: SourceSpan | undefined): boolean {
  if (a === b) return true;
  return a !== undefined && b !== undefined && a.line === b.line && a.column === b.column && a.length === b.length && a.lineStart === b.lineStart && a.lineText === b.lineText;
}

/** Expressions as written: same tree, same literals, same display names of column references. */
function rexIdentical(a: RexNode, b: RexNode): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || a.type !== b.type) return false;
  switch (a.kind) {
    case 'InputRef': case 'OuterRef': { const o = b as typeof a; return a.index === o.index && a.name === o.name; }
    case 'AggRef': { const o = b as typeof a; return a.call === o.call && a.name === o.name; }
    case 'Subquery': {
      const o = b as typeof a;
      return a.mode === o.mode && sameSpan(a.at, o.at) && (a.arg === undefined ? o.arg === undefined : o.arg !== undefined && rexIdentical(a.arg, o.arg)) && identical(a.rel, o.rel);
    }
    case 'Literal': return sameLiteral(a.value, (b as typeof a).value);
    case 'Cast': return sameSpan(a.at, (b as typeof a).at) && a.target === (b as typeof a).target && rexIdentical(a.arg, (b as typeof a).arg);
    case 'Case': {
      const o = b as typeof a;
      return sameSpan(a.at, o.at) && a.whens.length === o.whens.length && a.whens.every((w, i) => rexIdentical(w.when, o.whens[i]!.when) && rexIdentical(w.then, o.whens[i]!.then)) && rexIdentical(a.otherwise, o.otherwise);
    }
    case 'Call': {
      const o = b as typeof a;
      return a.op === o.op && sameSpan(a.at, o.at) && a.args.length === o.args.length && a.args.every((x, i) => rexIdentical(x, o.args[i]!));
    }
    default: return assertNever(a, 'RexNode');
  }
}
