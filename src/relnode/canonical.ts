/**
 * Canonical expressions, for the digest and structural equality. Both read
 * one normal form: InputRefs by ordinal (display names dropped), AND/OR
 * flattened, `>`/`>=` turned into `<`/`<=` with operands swapped, operands
 * of commutative calls (and IN's list) sorted. `canonicalRex` is that form
 * as text (a digest part); `rexEquivalent` compares two forms as trees, with
 * literals compared exactly (`-0` is not `0`, `1` INTEGER is not `1` DOUBLE),
 * so a lossy rendering can never make two expressions equal.
 *
 * A Subquery expression holds a plan. Rendering or comparing a plan is the
 * digest's and structural equality's job, which import this file, so the
 * caller passes them in (`RelText`, `RelEqual`) instead of this file
 * importing them back (no value-import cycle). An OuterRef is `^$i`.
 */
import { createHash } from 'node:crypto';
import { FUNCTIONS } from './functions.js';
import type { RelNode } from './rel.js';
import { assertNever, type LiteralValue, type RexNode } from './rex.js';

/** Renders a subquery's plan canonically (the digest). */
export type RelText = (r: RelNode) => string;
/** Compares two subquery plans (structural equality). */
export type RelEqual = (a: RelNode, b: RelNode) => boolean;

const FLIP: Readonly<Record<string, string>> = { gt: 'lt', ge: 'le' };

function flatten(op: string, args: readonly RexNode[]): RexNode[] {
  return args.flatMap((a) => (a.kind === 'Call' && a.op === op ? flatten(op, a.args) : [a]));
}

const formMemo = new WeakMap<RexNode, RexNode>();
const textMemo = new WeakMap<RexNode, string>();

/**
 * The canonical form of an expression (memoized per node object; `relText` orders
 * commutative operands that hold subqueries, and is always the digest).
 */
export function canonicalForm(e: RexNode, relText: RelText): RexNode {
  if (e.kind === 'Literal') return e; // its own form; not memoized (a 100k-item IN list filled the WeakMap for nothing)
  const hit = formMemo.get(e);
  if (hit !== undefined) return hit;
  const canonicalForm_ = (x: RexNode): RexNode => canonicalForm(x, relText);
  let out: RexNode;
  switch (e.kind) {
    case 'InputRef': out = { kind: 'InputRef', index: e.index, type: e.type }; break;
    case 'OuterRef': out = { kind: 'OuterRef', index: e.index, type: e.type }; break;
    case 'AggRef': out = e; break;
    case 'Subquery': out = e.arg ? { kind: 'Subquery', mode: e.mode, rel: e.rel, arg: canonicalForm_(e.arg), type: e.type } : { kind: 'Subquery', mode: e.mode, rel: e.rel, type: e.type }; break;
    // (Literal returned above)
    case 'Cast': out = { kind: 'Cast', arg: canonicalForm_(e.arg), type: e.type }; break;
    case 'Case':
      out = { kind: 'Case', whens: e.whens.map((w) => ({ when: canonicalForm_(w.when), then: canonicalForm_(w.then) })), otherwise: canonicalForm_(e.otherwise), type: e.type };
      break;
    case 'Call': {
      let op = e.op;
      let args: readonly RexNode[] = e.args;
      if (op === 'and' || op === 'or') args = flatten(op, args);
      const flipped = FLIP[op];
      if (flipped !== undefined && args.length === 2) { op = flipped; args = [args[1]!, args[0]!]; }
      let canon = args.map(canonicalForm_);
      const byText = (x: RexNode, y: RexNode): number => { const a = canonicalText(x, relText), b = canonicalText(y, relText); return a < b ? -1 : a > b ? 1 : 0; };
      if (FUNCTIONS.get(op)?.commutative) canon = [...canon].sort(byText);
      else if (op === 'in') canon = [canon[0]!, ...sortedInItems(canon, (x) => canonicalText(x, relText))];
      out = { kind: 'Call', op, args: canon, type: e.type };
      break;
    }
    default: return assertNever(e, 'RexNode');
  }
  formMemo.set(e, out);
  formMemo.set(out, out);
  return out;
}

/** The last sorted IN list per first item: a rewritten IN (new node, same item objects) is not sorted again. */
const inItemsMemo = new WeakMap<RexNode, { readonly items: readonly RexNode[]; readonly sorted: readonly RexNode[] }>();

/** IN's items (args after the first) in canonical order; O(n) when the same items were sorted before. */
function sortedInItems(canon: readonly RexNode[], textOf: (x: RexNode) => string): readonly RexNode[] {
  const first = canon[1];
  if (first === undefined) return [];
  const hit = inItemsMemo.get(first);
  if (hit !== undefined && hit.items.length === canon.length - 1 && hit.items.every((x, i) => x === canon[i + 1])) return hit.sorted;
  const items = canon.slice(1);
  // Each item's text once, then a plain string sort (a comparator computing texts cost ~0.5 s for 100k items).
  const keyed = items.map((x) => ({ x, k: textOf(x) }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  const sorted = keyed.map((e) => e.x);
  inItemsMemo.set(first, { items, sorted });
  return sorted;
}

/** A literal as digest text: the value exactly (strings quoted, `-0` kept) and its type. */
export function canonicalLiteral(v: LiteralValue, type: string): string {
  const text = typeof v === 'string' ? JSON.stringify(v) : typeof v === 'number' && Object.is(v, -0) ? '-0' : typeof v === 'bigint' ? `${v}n` : String(v);
  return `${text}:${type}`;
}

/** The text of an expression already in canonical form. */
function canonicalText(e: RexNode, relText: RelText): string {
  if (e.kind === 'Literal') return canonicalLiteral(e.value, e.type); // cheap: computed, not memoized
  const hit = textMemo.get(e);
  if (hit !== undefined) return hit;
  const t = (x: RexNode): string => canonicalText(x, relText);
  let s: string;
  switch (e.kind) {
    case 'InputRef': s = `$${e.index}`; break;
    case 'OuterRef': s = `^$${e.index}`; break;
    case 'AggRef': s = `agg#${e.call}`; break;
    case 'Subquery': s = `${e.mode}(${e.arg ? `${t(e.arg)};` : ''}${relText(e.rel)}):${e.type}`; break;
    // (Literal returned above)
    case 'Cast': s = `CAST(${t(e.arg)}:${e.type})`; break;
    case 'Case': s = `CASE(${e.whens.map((w) => `${t(w.when)}->${t(w.then)}`).join(';')};${t(e.otherwise)}:${e.type})`; break;
    case 'Call':
      s = e.op === 'in' && e.args.length > LONG_IN_ITEMS
        ? `in(${t(e.args[0]!)},${longInItemsText(e.args, t)}):${e.type}`
        : `${e.op}(${e.args.map(t).join(',')}):${e.type}`;
      break;
    default: return assertNever(e, 'RexNode');
  }
  textMemo.set(e, s);
  return s;
}

/** IN lists longer than this get a fingerprint of their items in the text instead of the items. */
const LONG_IN_ITEMS = 64;
/** The last fingerprint per first item: a rewritten IN (new node, same sorted item objects) is not hashed again. */
const inTextMemo = new WeakMap<RexNode, { readonly items: readonly RexNode[]; readonly text: string }>();

/**
 * The items of a long canonical IN list (args after the first) as a fixed-size
 * fingerprint: the count and a SHA-256 of their texts. Digests stay short, so
 * every plan node above a 100k-item IN list does not carry (and rebuild) a
 * megabyte of text; a fingerprint is a lookup key like the digest itself,
 * and structural equality still confirms a match (digest.ts).
 */
function longInItemsText(args: readonly RexNode[], t: (x: RexNode) => string): string {
  const first = args[1]!;
  const hit = inTextMemo.get(first);
  if (hit !== undefined && hit.items.length === args.length - 1 && hit.items.every((x, i) => x === args[i + 1])) return hit.text;
  const h = createHash('sha256');
  for (let i = 1; i < args.length; i++) h.update(t(args[i]!)).update(',');
  const text = `#${args.length - 1}:${h.digest('hex')}`;
  inTextMemo.set(first, { items: args.slice(1), text });
  return text;
}

/** Canonical text of an expression: ordinals, sorted commutative operands, flattened AND/OR, `>`/`>=` turned into `<`/`<=`. */
export function canonicalRexWith(e: RexNode, relText: RelText): string {
  return canonicalText(canonicalForm(e, relText), relText);
}

/** True when two literal values are the same value (`-0` differs from `0`; NaN equals NaN). */
export function sameLiteral(a: LiteralValue, b: LiteralValue): boolean {
  return typeof a === typeof b && Object.is(a, b);
}

/**
 * Tree equality of two expressions (of two canonical forms, or of any two trees: no normalization).
 * Subquery plans are compared with `relEqual`.
 */
export function formEqual(a: RexNode, b: RexNode, relEqual: RelEqual): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || a.type !== b.type) return false;
  const formEqual_ = (x: RexNode, y: RexNode): boolean => formEqual(x, y, relEqual);
  switch (a.kind) {
    case 'InputRef': return a.index === (b as typeof a).index;
    case 'OuterRef': return a.index === (b as typeof a).index;
    case 'AggRef': return a.call === (b as typeof a).call;
    case 'Subquery': {
      const o = b as typeof a;
      return a.mode === o.mode && (a.arg === undefined ? o.arg === undefined : o.arg !== undefined && formEqual_(a.arg, o.arg)) && relEqual(a.rel, o.rel);
    }
    case 'Literal': return sameLiteral(a.value, (b as typeof a).value);
    case 'Cast': return formEqual_(a.arg, (b as typeof a).arg);
    case 'Case': {
      const o = b as typeof a;
      return a.whens.length === o.whens.length && a.whens.every((w, i) => formEqual_(w.when, o.whens[i]!.when) && formEqual_(w.then, o.whens[i]!.then)) && formEqual_(a.otherwise, o.otherwise);
    }
    case 'Call': {
      const o = b as typeof a;
      return a.op === o.op && a.args.length === o.args.length && a.args.every((x, i) => formEqual_(x, o.args[i]!));
    }
    default: return assertNever(a, 'RexNode');
  }
}

/** True when two expressions have the same canonical form (equal as trees, not as text). */
export function rexEquivalent(a: RexNode, b: RexNode, relText: RelText, relEqual: RelEqual): boolean {
  return a === b || formEqual(canonicalForm(a, relText), canonicalForm(b, relText), relEqual);
}
