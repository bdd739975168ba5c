/**
 * Result checks before timing: every engine's result is normalised to rows of
 * plain values (numbers, strings, ISO dates) and compared with the reference
 * engine's: same columns, same row count, per-column sums and every value
 * equal to 1e-6 relative.
 */
import type { Table as ArrowTable } from 'apache-arrow';

/** A value after normalisation. */
export type Plain = number | string | null;

/** A normalised result: column names and rows in result order. */
export interface PlainResult {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly Plain[])[];
}

const DAY_MS = 86_400_000;

function isoDay(days: number): string {
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}

/** Normalises one value; `isDate` says the column is a DATE (given as Date, ms or days). */
export function plainValue(v: unknown, isDate: boolean): Plain {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return isDate ? v.toISOString().slice(0, 10) : v.getTime();
  if (typeof v === 'bigint') return isDate ? isoDay(Number(v)) : Number(v);
  if (typeof v === 'number') return isDate ? isoDay(Math.abs(v) > 1e7 ? Math.floor(v / DAY_MS) : v) : v;
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  // DuckDB value objects (e.g. DuckDBDateValue) print themselves.
  return String(v);
}

/** Normalises row objects. */
export function plainFromObjects(rows: readonly Readonly<Record<string, unknown>>[], columns: readonly string[], dateColumns: readonly string[]): PlainResult {
  const dates = columns.map((c) => dateColumns.includes(c));
  return { columns, rows: rows.map((r) => columns.map((c, i) => plainValue(r[c], dates[i]!))) };
}

/** Normalises an Arrow table (eddy's result). */
export function plainFromArrow(t: ArrowTable, dateColumns: readonly string[]): PlainResult {
  const columns = t.schema.fields.map((f) => f.name);
  const vectors = columns.map((_, i) => t.getChildAt(i)!);
  const dates = columns.map((c) => dateColumns.includes(c));
  const rows: Plain[][] = [];
  for (let r = 0; r < t.numRows; r++) rows.push(vectors.map((v, i) => plainValue(v.get(r), dates[i]!)));
  return { columns, rows };
}

function close(a: number, b: number, rel: number): boolean {
  if (a === b) return true;
  return Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b), 1e-12);
}

function same(a: Plain, b: Plain, rel: number): boolean {
  if (typeof a === 'number' && typeof b === 'number') return close(a, b, rel);
  return a === b;
}

/** Differences between `got` and the reference `want` (empty when they agree). Compares columns by name. */
export function compareResults(got: PlainResult, want: PlainResult, rel = 1e-6): string[] {
  const problems: string[] = [];
  const at = want.columns.map((c) => got.columns.indexOf(c));
  const missing = want.columns.filter((_, i) => at[i]! < 0);
  if (missing.length > 0) return [`missing columns ${missing.join(', ')} (got ${got.columns.join(', ')})`];
  if (got.rows.length !== want.rows.length) return [`row count ${got.rows.length}, expected ${want.rows.length}`];
  want.columns.forEach((c, i) => {
    const j = at[i]!;
    if (!want.rows.every((r) => typeof r[i] === 'number' || r[i] === null)) return;
    const sw = want.rows.reduce((s, r) => s + ((r[i] as number | null) ?? 0), 0);
    const sg = got.rows.reduce((s, r) => s + (typeof r[j] === 'number' ? (r[j] as number) : NaN), 0);
    if (!close(sg, sw, rel)) problems.push(`sum(${c}) = ${sg}, expected ${sw}`);
  });
  for (let r = 0; r < want.rows.length && problems.length < 5; r++) {
    want.columns.forEach((c, i) => {
      const g = got.rows[r]![at[i]!]!;
      const w = want.rows[r]![i]!;
      if (!same(g, w, rel)) problems.push(`row ${r} ${c} = ${JSON.stringify(g)}, expected ${JSON.stringify(w)}`);
    });
  }
  return problems.slice(0, 5);
}
