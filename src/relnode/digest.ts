/**
 * The canonical digest of a plan subtree: kind, explainTerms rendered with
 * ordinals and canonical expressions, the output types, and the child
 * digests. It names nothing: a column is `$i`, display parts (output names,
 * table names) are left out, so two columns called `id` never look alike
 * and a rename does not change it. Scans carry source identity and version.
 * The digest is a lookup key and its hash a bucket key; neither proves a hit:
 * `structurallyEqual` (equal.ts) confirms one.
 */
import { createHash } from 'node:crypto';
import { canonicalLiteral, canonicalRexWith } from './canonical.js';
import { explainTerms, termExpressions, type TermPart } from './explain.js';
import { FUNCTIONS } from './functions.js';
import { inputs, visit, type RelNode } from './rel.js';
import { assertNever, rexVisit, type RexNode } from './rex.js';

/** Canonical text of an expression (see canonical.ts); a Subquery's plan is rendered by its digest. */
export function canonicalRex(e: RexNode): string {
  return canonicalRexWith(e, digest);
}

/** A term part as digest text; undefined for display-only parts. */
function digestPart(p: TermPart): string | undefined {
  switch (p.t) {
    case 'text': return p.text;
    case 'display': return undefined;
    case 'col': return `$${p.index}`;
    case 'rex': return canonicalRex(p.rex);
    case 'lit': return canonicalLiteral(p.value, p.type);
    case 'seq': return p.parts.map(digestPart).filter((s) => s !== undefined).join('');
    case 'list': return `[${p.items.map((x) => digestPart(x) ?? '').join(',')}]`;
    default: return assertNever(p, 'TermPart');
  }
}

const memo = new WeakMap<RelNode, string>();

/** The full canonical digest string of a subtree (memoized per node object). */
export function digest(n: RelNode): string {
  const hit = memo.get(n);
  if (hit !== undefined) return hit;
  const terms: string[] = [];
  for (const t of explainTerms(n)) {
    const v = digestPart(t.value);
    if (v !== undefined) terms.push(`${t.name}=${v}`);
  }
  const types = n.schema.fields.map((f) => f.type).join(',');
  const d = `${n.kind}[${terms.join(';')}]<${types}>(${inputs(n).map(digest).join(',')})`;
  memo.set(n, d);
  return d;
}

/** A short hex hash of the digest: a bucket key, never proof of equality. */
export function digestHash(n: RelNode): string {
  return createHash('sha256').update(digest(n)).digest('hex').slice(0, 16);
}

/** True when every expression in the subtree is deterministic (the subtree may be cached or folded). */
export function isDeterministic(n: RelNode): boolean {
  let ok = true;
  const checkRex = (e: RexNode): void => rexVisit(e, (x) => {
    if (x.kind === 'Call' && FUNCTIONS.get(x.op)?.deterministic === false) ok = false;
    if (x.kind === 'Subquery' && !isDeterministic(x.rel)) ok = false;
  });
  visit(n, (m) => {
    if (m.kind === 'TableFunction' && !m.deterministic) ok = false;
    termExpressions(m).forEach(checkRex);
  });
  return ok;
}
