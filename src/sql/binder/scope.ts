/**
 * Name resolution for SQL: the columns a clause can see (with table aliases as
 * qualifiers), case-insensitive lookup, `*` expansion, and the errors for
 * unknown and ambiguous names with "did you mean" suggestions.
 */
import { closest } from './suggest.js';
import type { RelNode } from '../../relnode/rel.js';
import type { Field, SqlType } from '../../relnode/types.js';

/** One column visible to name resolution, aligned by ordinal with the plan's output. */
export interface ScopeColumn {
  readonly name: string;
  /** Table name or alias that qualifies it (`o.o_orderkey`). */
  readonly qualifier?: string;
  readonly type: SqlType;
  readonly nullable: boolean;
  /** Left out of `*` and of unqualified lookups when another column has the name (the right copy of a USING column). */
  readonly hidden?: boolean;
  /** Never found by name: helper columns the binder adds (aggregate outputs, sort keys). */
  readonly internal?: boolean;
}

/** A bound relation: a plan and the scope of its output columns (same order). */
export interface BoundRel {
  readonly plan: RelNode;
  readonly cols: readonly ScopeColumn[];
}

/** A bound query: its plan and output scope (a correlated subquery's plan reads the outer query through OuterRefs). */
export type BoundQuery = BoundRel;

/** The number of leading columns that are not internal (a query's visible outputs). */
export function visibleWidth(r: BoundRel): number {
  let n = 0;
  while (n < r.cols.length && !r.cols[n]!.internal) n++;
  return n;
}

/** The scope of a plan's output, every column qualified by `qualifier` (when given). */
export function colsOf(plan: RelNode, qualifier?: string): ScopeColumn[] {
  return plan.schema.fields.map((f) => scopeColumn(f, qualifier));
}

/** A scope column from a field. */
export function scopeColumn(f: Field, qualifier?: string): ScopeColumn {
  return qualifier === undefined ? { name: f.name, type: f.type, nullable: f.nullable } : { name: f.name, qualifier, type: f.type, nullable: f.nullable };
}

/** The result of looking a name up. */
export type Lookup =
  | { readonly kind: 'found'; readonly index: number }
  | { readonly kind: 'ambiguous'; readonly matches: readonly number[] }
  | { readonly kind: 'notFound' };

const eq = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** Looks up `[qualifier.]name` among the columns (case-insensitive). */
export function lookupColumn(cols: readonly ScopeColumn[], name: string, qualifier?: string): Lookup {
  const matches: number[] = [];
  cols.forEach((c, i) => {
    if (c.internal || !eq(c.name, name)) return;
    if (qualifier !== undefined && (c.qualifier === undefined || !eq(c.qualifier, qualifier))) return;
    matches.push(i);
  });
  const pool = matches;
  if (pool.length === 1) return { kind: 'found', index: pool[0]! };
  if (pool.length === 0) return { kind: 'notFound' };
  const visible = pool.filter((i) => !cols[i]!.hidden);
  if (visible.length === 1) return { kind: 'found', index: visible[0]! };
  return { kind: 'ambiguous', matches: pool };
}

/** `q.name` or `name`. */
export function displayColumn(c: ScopeColumn): string {
  return c.qualifier ? `${c.qualifier}.${c.name}` : c.name;
}

/** A close name for a misspelt one: edit distance first, then an abbreviation (`qty` → `l_quantity`). */
export function suggest(name: string, names: readonly string[]): string | undefined {
  const hit = closest(name, names);
  if (hit !== undefined) return hit;
  const n = name.toLowerCase();
  if (n.length < 2) return undefined;
  let best: string | undefined;
  for (const cand of names) {
    const c = cand.toLowerCase();
    if (!isAbbreviation(n, c)) continue;
    if (best === undefined || cand.length < best.length) best = cand;
  }
  return best;
}

/** True if `abbr` is a subsequence of `full` starting at the beginning of one of its `_`-separated words. */
function isAbbreviation(abbr: string, full: string): boolean {
  for (let start = 0; start < full.length; start++) {
    if (start > 0 && full[start - 1] !== '_') continue;
    if (full[start] !== abbr[0]) continue;
    let j = 1;
    for (let i = start + 1; i < full.length && j < abbr.length; i++) if (full[i] === abbr[j]) j++;
    if (j === abbr.length) return true;
  }
  return false;
}

/** The message for a name that was not found (suggestion, or the columns that exist). */
export function notFoundMessage(cols: readonly ScopeColumn[], name: string, qualifier?: string): string {
  const visible = cols.filter((c) => !c.internal);
  const full = qualifier ? `${qualifier}.${name}` : name;
  if (qualifier !== undefined && !visible.some((c) => c.qualifier !== undefined && eq(c.qualifier, qualifier))) {
    const quals = [...new Set(visible.map((c) => c.qualifier).filter((q): q is string => q !== undefined))];
    const hint = suggest(qualifier, quals);
    return `column "${full}" not found: no table or alias "${qualifier}" in FROM${hint ? `; did you mean "${hint}.${name}"?` : ''}${quals.length > 0 ? ` (tables: ${quals.join(', ')})` : ''}`;
  }
  const pool = qualifier !== undefined ? visible.filter((c) => c.qualifier !== undefined && eq(c.qualifier, qualifier)) : visible;
  const names = [...new Set(pool.map((c) => c.name))];
  const hint = suggest(name, names);
  if (hint !== undefined) return `column "${full}" not found; did you mean "${qualifier ? `${qualifier}.` : ''}${hint}"?`;
  const shown = names.length > 40 ? `${names.slice(0, 40).join(', ')}, ...` : names.join(', ');
  return `column "${full}" not found; available columns: ${shown || 'none'}`;
}

/** The message for an ambiguous name. */
export function ambiguousMessage(cols: readonly ScopeColumn[], matches: readonly number[], name: string): string {
  return `column reference "${name}" is ambiguous: it matches ${matches.map((i) => displayColumn(cols[i]!)).join(', ')}; qualify it with a table name or alias`;
}

/** The columns `*` (or `q.*`) expands to, as ordinals. */
export function starColumns(cols: readonly ScopeColumn[], qualifier?: string): number[] {
  const out: number[] = [];
  cols.forEach((c, i) => {
    if (c.internal) return;
    if (qualifier === undefined) { if (!c.hidden) out.push(i); return; }
    if (c.qualifier !== undefined && eq(c.qualifier, qualifier)) out.push(i);
  });
  return out;
}
