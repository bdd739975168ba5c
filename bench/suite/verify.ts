/**
 * The suite's answer check, on top of lib/verify.ts: a query's ORDER BY is
 * often not total (ties), so rows are compared as a multiset (both sides
 * sorted on every column, then value by value with 1e-6 relative tolerance
 * for numbers), and separately the sequence of the ORDER BY columns is
 * compared row by row. Any difference makes the engine's answer WRONG.
 */
import { compareResults, type Plain, type PlainResult } from '../lib/verify.js';

const sortKey = (v: Plain): string => (v === null ? '\u0000' : typeof v === 'number' ? `n${v.toPrecision(9)}` : `s${v}`);

function cmpPlain(a: Plain, b: Plain): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') {
    const ka = Number(a.toPrecision(9));
    const kb = Number(b.toPrecision(9));
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  }
  const sa = sortKey(a);
  const sb = sortKey(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** `r`'s rows sorted on every column (numbers at 9 significant digits, so near-equal values sort alike). */
export function sortedRows(r: PlainResult): PlainResult {
  const rows = [...r.rows].sort((x, y) => {
    for (let i = 0; i < x.length; i++) {
      const c = cmpPlain(x[i]!, y[i]!);
      if (c !== 0) return c;
    }
    return 0;
  });
  return { columns: r.columns, rows };
}

/** `r` with its columns in `order` (columns it lacks are left out). */
function reorder(r: PlainResult, order: readonly string[]): PlainResult {
  const at = order.map((c) => r.columns.indexOf(c));
  if (at.some((i) => i < 0)) return r;
  return { columns: order, rows: r.rows.map((row) => at.map((i) => row[i]!)) };
}

function close(a: Plain, b: Plain, rel: number): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b || Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b), 1e-12);
  return a === b;
}

/**
 * Differences between `got` and the reference `want` (empty: the same answer). `orderKeys` are the
 * ORDER BY columns whose sequence must match; at most `limit` differences are listed.
 */
export function verifyAnswer(got: PlainResult, want: PlainResult, orderKeys: readonly string[], rel = 1e-6, limit = 5): string[] {
  const missing = want.columns.filter((c) => !got.columns.includes(c));
  if (missing.length > 0) return [`missing columns ${missing.join(', ')} (got ${got.columns.join(', ')}; expected ${want.columns.join(', ')})`];
  if (got.rows.length !== want.rows.length) return [`${got.rows.length} rows, expected ${want.rows.length}`];
  const g = reorder(got, want.columns);
  const problems = compareResults(sortedRows(g), sortedRows(want), rel).map((p) => `as a set of rows: ${p}`);
  const keys = orderKeys.filter((k) => want.columns.includes(k)).map((k) => want.columns.indexOf(k));
  for (let r = 0; r < want.rows.length && problems.length < limit; r++) {
    for (const i of keys) {
      if (!close(g.rows[r]![i]!, want.rows[r]![i]!, rel)) {
        problems.push(`order: row ${r} ${want.columns[i]} = ${JSON.stringify(g.rows[r]![i])}, expected ${JSON.stringify(want.rows[r]![i])}`);
        break;
      }
    }
  }
  return problems.slice(0, limit);
}
