/**
 * Comparing a query's actual result with a record's expected block: sort
 * modes, md5 hashing, SQLite's exact string comparison, and the DuckDB-style
 * comparison (numbers compare after casting, true/false equal 1/0, rows in
 * any order for unordered results).
 */
import { createHash } from 'node:crypto';
import type { SortMode } from './records.js';
import { renderByLetter, renderNatural, type ColumnKind, type Value } from './render.js';

/** A query result as the runner sees it. */
export interface ResultRows {
  readonly kinds: readonly ColumnKind[];
  readonly rows: readonly (readonly Value[])[];
}

/** The outcome of a comparison: `ok`, or a one-line reason. */
export type Verdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const OK: Verdict = { ok: true };

/** Compares strings by UTF-16 code units (strcmp order for ASCII). */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareRows(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = byCodeUnits(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/**
 * Applies a sort mode to rendered rows and flattens them to the value list
 * (SQLite: rowsort sorts rows by their rendered strings, valuesort sorts all
 * values; sorting happens after rendering, so "10" < "9").
 */
export function sortValues(rows: readonly (readonly string[])[], mode: SortMode): string[] {
  if (mode === 'rowsort') return [...rows].sort(compareRows).flat();
  const flat = rows.flat();
  return mode === 'valuesort' ? flat.sort(byCodeUnits) : flat;
}

/** md5 (lowercase hex) of every value followed by `\n`. */
export function md5Values(values: readonly string[]): string {
  const h = createHash('md5');
  for (const v of values) h.update(`${v}\n`);
  return h.digest('hex');
}

const HASH_LINE = /^(\d+) values hashing to ([0-9a-f]{32})$/;

/** Parses an expected block that is exactly `N values hashing to <md5>`. */
export function parseHashBlock(expected: readonly string[]): { count: number; hash: string } | undefined {
  if (expected.length !== 1) return undefined;
  const m = HASH_LINE.exec(expected[0]!.trim());
  return m ? { count: Number(m[1]), hash: m[2]! } : undefined;
}

/** Renders every row by the declared type letters (SQLite rules). */
export function renderRowsByLetter(result: ResultRows, types: string): string[][] {
  return result.rows.map((r) => r.map((v, c) => renderByLetter(v, types[c] ?? '?', result.kinds[c] ?? 'other')));
}

/**
 * SQLite-style comparison: values rendered by letter, sorted by `sort`, then
 * compared as exact strings or by md5 when the expected block is a hash line.
 * Expected values may be one per line or one row per line (tab separated).
 */
export function compareExact(expected: readonly string[], result: ResultRows, types: string, sort: SortMode): Verdict {
  const values = sortValues(renderRowsByLetter(result, types), sort);
  const hashed = parseHashBlock(expected);
  if (hashed) {
    if (hashed.count !== values.length) return { ok: false, reason: `expected ${hashed.count} values, got ${values.length}` };
    const got = md5Values(values);
    return got === hashed.hash ? OK : { ok: false, reason: `hash mismatch: expected ${hashed.hash}, got ${got}` };
  }
  const want = expectedValues(expected, types.length, result.rows.length);
  if (want.length !== values.length) return { ok: false, reason: `expected ${want.length} values, got ${values.length}` };
  for (let i = 0; i < want.length; i++) {
    if (want[i] !== values[i]) return { ok: false, reason: `value ${i + 1} (row ${Math.floor(i / Math.max(1, types.length)) + 1}): expected "${want[i]}", got "${values[i]}"` };
  }
  return OK;
}

/** The expected block as a flat value list: one value per line, or rows split on tabs. */
function expectedValues(expected: readonly string[], cols: number, rows: number): string[] {
  if (cols > 1 && expected.length === rows && expected.length * cols !== expected.length) {
    const split = expected.map((l) => l.split('\t'));
    if (split.every((s) => s.length === cols)) return split.flat();
  }
  return [...expected];
}

// ---------------------------------------------------------------- DuckDB-style comparison

/** Options of the DuckDB-style comparison. */
export interface FuzzyOptions {
  /** How expected rows separate values: DuckDB uses tabs, DataFusion spaces. */
  readonly separator: 'tab' | 'space';
  /** Compare rows in order (`ordered`), or as a multiset (`unordered`). */
  readonly order: 'ordered' | 'unordered';
  /** Relative tolerance for doubles (DuckDB's runner allows 1%). */
  readonly tolerance: number;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const TRUE_WORDS = new Set(['true', '1', 't']);
const FALSE_WORDS = new Set(['false', '0', 'f']);

/** True if one expected string matches one actual value (numbers after casting; true/false = 1/0). */
export function valueMatches(expected: string, v: Value, kind: ColumnKind, tolerance: number): boolean {
  // Exact text first (values may carry meaningful spaces); numbers compare trimmed.
  if (v === null) return expected.trim() === 'NULL';
  if (typeof v === 'string') return expected === (v === '' ? '(empty)' : v);
  const e = expected.trim();
  if (e === 'NULL') return false;
  const rendered = renderNatural(v, kind);
  if (e === rendered) return true;
  if (typeof v === 'boolean') return v ? TRUE_WORDS.has(e.toLowerCase()) : FALSE_WORDS.has(e.toLowerCase());
  const lower = e.toLowerCase();
  if (lower === 'true' || lower === 'false') return Number(v) === (lower === 'true' ? 1 : 0);
  if (typeof v === 'number' && Number.isNaN(v)) return lower === 'nan';
  if (lower === 'inf' || lower === 'infinity' || lower === '-inf' || lower === '-infinity') return Number(v) === (lower.startsWith('-') ? -Infinity : Infinity);
  if (!NUMBER.test(e)) return false;
  if (typeof v === 'bigint' && /^[+-]?\d+$/.test(e)) return BigInt(e) === v;
  const x = Number(e);
  const y = Number(v);
  if (x === y) return true;
  if (kind !== 'float') return false;
  return Math.abs(x - y) <= Math.abs(x) * tolerance + 1e-8;
}

/** One expected row: split values, or the whole line when it did not split into the column count. */
type ExpectedRow = { readonly values: readonly string[] } | { readonly line: string };

function splitExpectedRows(expected: readonly string[], cols: number, rows: number, sep: 'tab' | 'space'): ExpectedRow[] {
  // Value-wise layout (one value per line, as SQLite writes): rows * cols lines.
  if (cols > 1 && expected.length === rows * cols && expected.length !== rows) {
    const out: ExpectedRow[] = [];
    for (let r = 0; r < rows; r++) out.push({ values: expected.slice(r * cols, (r + 1) * cols) });
    return out;
  }
  return expected.map((line) => {
    if (cols === 1) return { values: [line] };
    const byTab = line.split('\t');
    if (byTab.length === cols) return { values: byTab };
    const bySpace = line.trim().split(/\s+/);
    if (bySpace.length === cols && (sep === 'space' || byTab.length === 1)) return { values: bySpace };
    return { line };
  });
}

function rowMatches(e: ExpectedRow, actual: readonly Value[], kinds: readonly ColumnKind[], opts: FuzzyOptions): boolean {
  if ('line' in e) {
    const joined = actual.map((v, c) => renderNatural(v, kinds[c] ?? 'other')).join(opts.separator === 'tab' ? '\t' : ' ');
    return joined.trim().replace(/\s+/g, ' ') === e.line.trim().replace(/\s+/g, ' ');
  }
  if (e.values.length !== actual.length) return false;
  for (let c = 0; c < actual.length; c++) {
    if (!valueMatches(e.values[c]!, actual[c]!, kinds[c] ?? 'other', opts.tolerance)) return false;
  }
  return true;
}

function showRow(e: ExpectedRow): string {
  return 'line' in e ? e.line : e.values.join('\t');
}

/** Renders actual rows for messages, tab separated. */
export function showActual(result: ResultRows): string[] {
  return result.rows.map((r) => r.map((v, c) => renderNatural(v, result.kinds[c] ?? 'other')).join('\t'));
}

/**
 * DuckDB-style comparison of a whole result. `valuesort` compares the values
 * as a multiset; `rowsort` and unordered results compare rows as a multiset;
 * ordered results compare row by row.
 */
export function compareFuzzy(expected: readonly string[], result: ResultRows, cols: number, sort: SortMode, opts: FuzzyOptions): Verdict {
  const { rows, kinds } = result;
  if (sort === 'valuesort') {
    const flat = rows.flatMap((r) => r.map((v, c) => ({ v, kind: kinds[c] ?? 'other' })));
    const want = expected.flatMap((l) => (l.includes('\t') ? l.split('\t') : [l])).sort(byCodeUnits);
    if (want.length !== flat.length) return { ok: false, reason: `expected ${want.length} values, got ${flat.length}` };
    flat.sort((a, b) => byCodeUnits(renderNatural(a.v, a.kind), renderNatural(b.v, b.kind)));
    return multisetMatch(want, flat, (e, a) => valueMatches(e, a.v, a.kind, opts.tolerance), (e) => e);
  }
  const want = splitExpectedRows(expected, cols, rows.length, opts.separator);
  if (want.length !== rows.length) return { ok: false, reason: `expected ${want.length} rows, got ${rows.length}` };
  if (sort === 'nosort' && opts.order === 'ordered') {
    for (let r = 0; r < rows.length; r++) {
      if (!rowMatches(want[r]!, rows[r]!, kinds, opts)) {
        const same = compareFuzzy(expected, result, cols, sort, { ...opts, order: 'unordered' }).ok ? 'the same rows in another order; ' : '';
        return { ok: false, reason: `${same}row ${r + 1}: expected "${showRow(want[r]!)}", got "${showActual({ kinds, rows: [rows[r]!] })[0]}"` };
      }
    }
    return OK;
  }
  // Sort both sides by their rendering so equal rows usually line up.
  const wantSorted = [...want].sort((a, b) => byCodeUnits(showRow(a), showRow(b)));
  const shown = showActual(result);
  const order = rows.map((_, i) => i).sort((a, b) => byCodeUnits(shown[a]!, shown[b]!));
  return multisetMatch(wantSorted, order.map((i) => rows[i]!), (e, a) => rowMatches(e, a, kinds, opts), showRow);
}

/**
 * Matches every expected item to a distinct actual item. Tries identical
 * positions after sorting both sides first (the common case), then a greedy
 * search for the rest.
 */
function multisetMatch<E, A>(want: readonly E[], got: readonly A[], eq: (e: E, a: A) => boolean, show: (e: E) => string): Verdict {
  const used = new Uint8Array(got.length);
  const pending: number[] = [];
  for (let i = 0; i < want.length; i++) {
    if (i < got.length && !used[i] && eq(want[i]!, got[i]!)) used[i] = 1;
    else pending.push(i);
  }
  for (const i of pending) {
    let found = -1;
    for (let j = 0; j < got.length; j++) {
      if (!used[j] && eq(want[i]!, got[j]!)) { found = j; break; }
    }
    if (found < 0) return { ok: false, reason: `expected row "${show(want[i]!)}" not found in the result` };
    used[found] = 1;
  }
  return OK;
}
