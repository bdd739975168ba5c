/**
 * Display text of expressions and column references, for EXPLAIN and error
 * messages. Plans refer to columns by ordinal; a name is printed only where
 * it says which column is meant. Where two columns of an input share a name
 * (a self-join's `a` and `a`), each is qualified: `t.a` when the field's
 * qualifier makes it unique, otherwise `a#3` (`#` + the ordinal the digest
 * uses as `$3`). Nothing here feeds the digest or structural equality.
 */
import { functionDef } from './functions.js';
import type { RelNode } from './rel.js';
import { assertNever, type LiteralValue, type RexNode } from './rex.js';

/**
 * Renders a subquery's plan on one line. EXPLAIN passes its own (explain.ts);
 * without one a subquery shows as `(subquery)` — this file cannot import the
 * plan explainer, which imports it.
 */
export type PlanText = (r: RelNode) => string;
import type { Schema } from './types.js';
import { civilDateText, civilTimestampText } from './civil-date.js';
import { spanText } from './source-span.js';

/** Renders a literal as SQL text. */
export function formatLiteral(v: LiteralValue): string {
  if (v === null) return 'NULL';
  if (typeof v === 'string') return `'${v.replace(/'/g, "''")}'`;
  if (typeof v === 'bigint') return `${v}`;
  return String(v);
}

const labelMemo = new WeakMap<Schema, readonly string[]>();

/**
 * The display label of every column of a schema: its name, qualified where the
 * name alone is ambiguous (`t.a`, or `a#3` when qualifiers do not tell them apart).
 */
export function columnLabels(s: Schema): readonly string[] {
  const hit = labelMemo.get(s);
  if (hit !== undefined) return hit;
  const count = (keys: readonly (string | undefined)[]): Map<string, number> => {
    const m = new Map<string, number>();
    for (const k of keys) if (k !== undefined) m.set(k, (m.get(k) ?? 0) + 1);
    return m;
  };
  const names = count(s.fields.map((f) => f.name));
  const qualified = s.fields.map((f) => (f.qualifier === undefined ? undefined : `${f.qualifier}.${f.name}`));
  const qcount = count(qualified);
  const labels = s.fields.map((f, i) => {
    if (names.get(f.name) === 1) return f.name;
    const q = qualified[i];
    return q !== undefined && qcount.get(q) === 1 ? q : `${f.name}#${i}`;
  });
  labelMemo.set(s, labels);
  return labels;
}

/** The display label of column `i` of `over` (`$i` when out of range). */
export function columnLabel(i: number, over: Schema): string {
  return columnLabels(over)[i] ?? `$${i}`;
}

/** IN list items shown in display text; the rest are counted (`..., 99950 more`). */
export const DISPLAY_IN_ITEMS = 50;

/** Formats an expression for display, naming columns from `over` (qualified where ambiguous). */
export function formatRex(e: RexNode, over: Schema, plan?: PlanText): string {
  const labels = columnLabels(over);
  return renderRex(e, (i) => labels[i] ?? `$${i}`, plan);
}

/**
 * Formats an expression for an error message as the user wrote it: a node whose SQL text the binder
 * kept (a span, source-span.ts) shows that text, and a conversion the engine added (a Cast with a
 * target: an argument's or an assigned value's) shows its argument — `substr('abc', 1e300)`, not `substr('abc', CAST(1e+300 AS INTEGER))`.
 * Parts without a span (the Table API, rewritten nodes) are rendered as formatRex does.
 */
export function formatRexAsWritten(e: RexNode, over: Schema): string {
  const labels = columnLabels(over);
  return renderRex(e, (i) => labels[i] ?? `$${i}`, undefined, true);
}

/** Formats an expression, naming column `i` by `label(i)`; `written`: as formatRexAsWritten. */
export function renderRex(e: RexNode, label: (i: number) => string, plan?: PlanText, written = false): string {
  const r = (x: RexNode): string => renderRex(x, label, plan, written);
  if (written && (e.kind === 'Call' || e.kind === 'Cast' || e.kind === 'Case')) {
    const text = e.at === undefined ? undefined : spanText(e.at);
    if (text !== undefined) return text;
    if (e.kind === 'Cast' && e.target !== undefined) return r(e.arg);
  }
  switch (e.kind) {
    case 'InputRef': return label(e.index);
    case 'OuterRef': return `^${e.name ?? `$${e.index}`}`;
    case 'AggRef': return e.name;
    case 'Subquery': {
      const q = plan ? `{${plan(e.rel)}}` : '(subquery)';
      if (e.mode === 'in') return `(${e.arg ? r(e.arg) : '?'} IN ${q})`;
      return e.mode === 'exists' ? `EXISTS ${q}` : `SCALAR ${q}`;
    }
    case 'Literal':
      if (e.type === 'DATE' && typeof e.value === 'number') return `DATE '${civilDateText(e.value)}'`;
      if (e.type === 'TIMESTAMP' && typeof e.value === 'number') return `TIMESTAMP '${civilTimestampText(e.value)}'`;
      return formatLiteral(e.value);
    case 'Cast': return `CAST(${r(e.arg)} AS ${e.type})`;
    case 'Case': return `CASE ${e.whens.map((w) => `WHEN ${r(w.when)} THEN ${r(w.then)}`).join(' ')} ELSE ${r(e.otherwise)} END`;
    case 'Call': {
      const d = functionDef(e.op);
      if (e.op === 'in' && e.args.length - 1 > DISPLAY_IN_ITEMS) {
        // A long IN list shows its first items and a count: display text stays short (EXPLAIN, operator details).
        const shown = e.args.slice(1, 1 + DISPLAY_IN_ITEMS).map(r).join(', ');
        return `(${r(e.args[0]!)} IN (${shown}, ... ${e.args.length - 1 - DISPLAY_IN_ITEMS} more))`;
      }
      const a = e.args.map(r);
      if (e.op === 'is_null' || e.op === 'is_not_null') return `(${a[0]} ${d.display})`;
      if (e.op === 'in') return `(${a[0]} IN (${a.slice(1).join(', ')}))`;
      if (e.op === 'neg') return `(- ${a[0]})`;
      if (e.op === 'not') return `(NOT ${a[0]})`;
      if ((e.op === 'like' || e.op === 'ilike') && a.length === 3) return `(${a[0]} ${d.display} ${a[1]} ESCAPE ${a[2]})`;
      if (d.infix) return `(${a.join(` ${d.display} `)})`;
      return `${d.display}(${a.join(', ')})`;
    }
    default: return assertNever(e, 'RexNode');
  }
}

