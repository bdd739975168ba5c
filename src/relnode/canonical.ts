/**
 * Canonical expressions, for the digest and structural equality. Both read
 * one normal form: InputRefs by ordinal (display names dropped), AND/OR
 * flattened, `>`/`>=` turned into `<`/`<=` with operands swapped, operands
 * of commutative calls (and IN's list) sorted. `canonicalRex` is that form
 * as text (a digest part); `rexEquivalent` compares two forms as trees, with
 * literals compared exactly (`-0` is not `0`, `1` INTEGER is not `1` DOUBLE),
 * so a lossy rendering can never make two expressions equal.
 */
import { FUNCTIONS } from './functions.js';
import { assertNever, type LiteralValue, type RexNode } from './rex.js';

const FLIP: Readonly<Record<string, string>> = { gt: 'lt', ge: 'le' };

function flatten(op: string, args: readonly RexNode[]): RexNode[] {
  return args.flatMap((a) => (a.kind === 'Call' && a.op === op ? flatten(op, a.args) : [a]));
}

const formMemo = new WeakMap<RexNode, RexNode>();
const textMemo = new WeakMap<RexNode, string>();

/** The canonical form of an expression (memoized per node object). */
export function canonicalForm(e: RexNode): RexNode {
  const hit = formMemo.get(e);
  if (hit !== undefined) return hit;
  let out: RexNode;
  switch (e.kind) {
    case 'InputRef': out = { kind: 'InputRef', index: e.index, type: e.type }; break;
    case 'Literal': out = e; break;
    case 'Cast': out = { kind: 'Cast', arg: canonicalForm(e.arg), type: e.type }; break;
    case 'Case':
      out = { kind: 'Case', whens: e.whens.map((w) => ({ when: canonicalForm(w.when), then: canonicalForm(w.then) })), otherwise: canonicalForm(e.otherwise), type: e.type };
      break;
    case 'Call': {
      let op = e.op;
      let args: readonly RexNode[] = e.args;
      if (op === 'and' || op === 'or') args = flatten(op, args);
      const flipped = FLIP[op];
      if (flipped !== undefined && args.length === 2) { op = flipped; args = [args[1]!, args[0]!]; }
      let canon = args.map(canonicalForm);
      const byText = (x: RexNode, y: RexNode): number => { const a = canonicalText(x), b = canonicalText(y); return a < b ? -1 : a > b ? 1 : 0; };
      if (FUNCTIONS.get(op)?.commutative) canon = [...canon].sort(byText);
      else if (op === 'in') canon = [canon[0]!, ...canon.slice(1).sort(byText)];
      out = { kind: 'Call', op, args: canon, type: e.type };
      break;
    }
    default: return assertNever(e, 'RexNode');
  }
  formMemo.set(e, out);
  formMemo.set(out, out);
  return out;
}

/** A literal as digest text: the value exactly (strings quoted, `-0` kept) and its type. */
export function canonicalLiteral(v: LiteralValue, type: string): string {
  const text = typeof v === 'string' ? JSON.stringify(v) : typeof v === 'number' && Object.is(v, -0) ? '-0' : typeof v === 'bigint' ? `${v}n` : String(v);
  return `${text}:${type}`;
}

/** The text of an expression already in canonical form. */
function canonicalText(e: RexNode): string {
  const hit = textMemo.get(e);
  if (hit !== undefined) return hit;
  let s: string;
  switch (e.kind) {
    case 'InputRef': s = `$${e.index}`; break;
    case 'Literal': s = canonicalLiteral(e.value, e.type); break;
    case 'Cast': s = `CAST(${canonicalText(e.arg)}:${e.type})`; break;
    case 'Case': s = `CASE(${e.whens.map((w) => `${canonicalText(w.when)}->${canonicalText(w.then)}`).join(';')};${canonicalText(e.otherwise)}:${e.type})`; break;
    case 'Call': s = `${e.op}(${e.args.map(canonicalText).join(',')}):${e.type}`; break;
    default: return assertNever(e, 'RexNode');
  }
  textMemo.set(e, s);
  return s;
}

/** Canonical text of an expression: ordinals, sorted commutative operands, flattened AND/OR, `>`/`>=` turned into `<`/`<=`. */
export function canonicalRex(e: RexNode): string {
  return canonicalText(canonicalForm(e));
}

/** True when two literal values are the same value (`-0` differs from `0`; NaN equals NaN). */
export function sameLiteral(a: LiteralValue, b: LiteralValue): boolean {
  return typeof a === typeof b && Object.is(a, b);
}

/** Tree equality of two canonical forms. */
function formEqual(a: RexNode, b: RexNode): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || a.type !== b.type) return false;
  switch (a.kind) {
    case 'InputRef': return a.index === (b as typeof a).index;
    case 'Literal': return sameLiteral(a.value, (b as typeof a).value);
    case 'Cast': return formEqual(a.arg, (b as typeof a).arg);
    case 'Case': {
      const o = b as typeof a;
      return a.whens.length === o.whens.length && a.whens.every((w, i) => formEqual(w.when, o.whens[i]!.when) && formEqual(w.then, o.whens[i]!.then)) && formEqual(a.otherwise, o.otherwise);
    }
    case 'Call': {
      const o = b as typeof a;
      return a.op === o.op && a.args.length === o.args.length && a.args.every((x, i) => formEqual(x, o.args[i]!));
    }
    default: return assertNever(a, 'RexNode');
  }
}

/** True when two expressions have the same canonical form (equal as trees, not as text). */
export function rexEquivalent(a: RexNode, b: RexNode): boolean {
  return a === b || formEqual(canonicalForm(a), canonicalForm(b));
}
