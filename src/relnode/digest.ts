/**
 * The canonical digest of a plan subtree: kind, explainTerms rendered with
 * ordinals and canonical expressions, and the child digests. Equal digests mean
 * equal results (scans carry source identity and version). The hash is only a
 * bucket key; `sameDigest` confirms a hit by comparing the full strings.
 */
import { createHash } from 'node:crypto';
import { explainTerms } from './explain.js';
import { FUNCTIONS } from './functions.js';
import { inputs, visit, type RelNode } from './rel.js';
import { assertNever, rexVisit, type RexNode } from './rex.js';

const FLIP: Readonly<Record<string, string>> = { gt: 'lt', ge: 'le' };

/** Canonical text of an expression: ordinals, sorted commutative operands, flattened AND/OR, `>`/`>=` turned into `<`/`<=`. */
export function canonicalRex(e: RexNode): string {
  switch (e.kind) {
    case 'InputRef': return `$${e.index}`;
    case 'OuterRef': return `^$${e.index}`;
    case 'Subquery': return `${e.mode}(${e.arg ? `${canonicalRex(e.arg)};` : ''}${digest(e.rel)}):${e.type}`;
    case 'Literal': return `${typeof e.value === 'string' ? JSON.stringify(e.value) : String(e.value)}:${e.type}`;
    case 'Cast': return `CAST(${canonicalRex(e.arg)}:${e.type})`;
    case 'Case': return `CASE(${e.whens.map((w) => `${canonicalRex(w.when)}->${canonicalRex(w.then)}`).join(';')};${canonicalRex(e.otherwise)}:${e.type})`;
    case 'Call': {
      let op = e.op;
      let args = e.args;
      if (op === 'and' || op === 'or') args = flatten(op, args);
      const flipped = FLIP[op];
      if (flipped !== undefined) { op = flipped; args = [args[1]!, args[0]!]; }
      let parts = args.map(canonicalRex);
      if (FUNCTIONS.get(op)?.commutative) parts = [...parts].sort();
      else if (op === 'in') parts = [parts[0]!, ...parts.slice(1).sort()];
      return `${op}(${parts.join(',')}):${e.type}`;
    }
    default: return assertNever(e, 'RexNode');
  }
}

function flatten(op: string, args: readonly RexNode[]): RexNode[] {
  return args.flatMap((a) => (a.kind === 'Call' && a.op === op ? flatten(op, a.args) : [a]));
}

const memo = new WeakMap<RelNode, string>();

/** The full canonical digest string of a subtree (memoized per node object). */
export function digest(n: RelNode): string {
  const hit = memo.get(n);
  if (hit !== undefined) return hit;
  const terms = explainTerms(n).map((t) => ('value' in t ? `${t.name}=${t.value}` : `${t.name}=${t.rex.map(canonicalRex).join('&')}`));
  const types = n.schema.fields.map((f) => f.type).join(',');
  const d = `${n.kind}[${terms.join(';')}]<${types}>(${inputs(n).map(digest).join(',')})`;
  memo.set(n, d);
  return d;
}

/** A short hex hash of the digest: a bucket key, never proof of equality. */
export function digestHash(n: RelNode): string {
  return createHash('sha256').update(digest(n)).digest('hex').slice(0, 16);
}

/** Structural equality, via full digest comparison. */
export function sameDigest(a: RelNode, b: RelNode): boolean {
  return a === b || digest(a) === digest(b);
}

/** True when every expression in the subtree is deterministic (the subtree may be cached or folded). */
export function isDeterministic(n: RelNode): boolean {
  let ok = true;
  const checkRex = (e: RexNode): void => rexVisit(e, (x) => {
    if (x.kind === 'Call' && FUNCTIONS.get(x.op)?.deterministic === false) ok = false;
    if (x.kind === 'Subquery' && !isDeterministic(x.rel)) ok = false;
  });
  visit(n, (m) => {
    for (const t of explainTerms(m)) if ('rex' in t) t.rex.forEach(checkRex);
  });
  return ok;
}
