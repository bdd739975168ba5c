/**
 * Table equality for differential tests: both sides are normalised to a
 * `ResultSet` (column names, coarse column kinds, rows of plain JS values),
 * then compared as multisets (default) or in order.
 *
 * Normalisation: Int32/Int64/HUGEINT → number (bigint kept only beyond 2^53),
 * typed-array values → plain numbers, DATE → 'YYYY-MM-DD', TIMESTAMP → ms,
 * dictionaries → strings, NULL/undefined → null. Floats compare to 1e-9
 * relative (absolute 1e-9 below magnitude 1); `int` columns compare exactly.
 */
import { DataType, Type, type Table as ArrowTable } from 'apache-arrow';
import { civilDateText } from '../../src/relnode/civil-date.js';

/** Coarse column kinds: what a test cares about (INTEGER vs BIGINT is not distinguished). */
export type Kind = 'int' | 'float' | 'string' | 'bool' | 'date' | 'timestamp' | 'null' | 'other';

/** A normalised result. */
export interface ResultSet {
  readonly names: string[];
  readonly kinds: Kind[];
  readonly rows: unknown[][];
}

/** Options of `compareResults`. */
export interface CompareOptions {
  /** Compare rows in order (use for orderBy with a total order). Default false: multiset. */
  readonly ordered?: boolean;
  /**
   * With a sort that is not total: these columns (names) must appear in the same
   * sequence on both sides; whole rows are still compared as multisets.
   */
  readonly orderKeys?: readonly string[];
  /** Check column names (default true). */
  readonly names?: boolean;
  /** Check column kinds (int vs float vs string ...; default true). */
  readonly kinds?: boolean;
  /** Relative float tolerance (default 1e-9). */
  readonly tolerance?: number;
}

const DAY_MS = 86_400_000;

// JS Date stops at ±8.64e15 ms (year 275760); DATE goes on to year 5881580 (relnode/civil-date.ts).
const JS_DATE_DAYS = 100_000_000;

function isoDay(days: number): string {
  return Math.abs(days) <= JS_DATE_DAYS ? new Date(days * DAY_MS).toISOString().slice(0, 10) : civilDateText(days);
}

/** The coarse kind of an Arrow type. */
export function arrowKind(t: DataType): Kind {
  switch (t.typeId) {
    case Type.Int: return 'int';
    case Type.Float: return 'float';
    case Type.Utf8: case Type.LargeUtf8: return 'string';
    case Type.Dictionary: return arrowKind((t as unknown as { dictionary: DataType }).dictionary);
    case Type.Bool: return 'bool';
    case Type.Date: return 'date';
    case Type.Timestamp: return 'timestamp';
    case Type.Null: return 'null';
    default: return 'other';
  }
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

// Differential tests normalise millions of values (TPC-H has three DATE columns in lineitem); a date's
// ISO string is made once per distinct day.
const isoDays = new Map<number, string>();
function isoDayCached(days: number): string {
  let s = isoDays.get(days);
  if (s === undefined) {
    s = isoDay(days);
    if (isoDays.size < 100_000) isoDays.set(days, s);
  }
  return s;
}

/** Normalises one value of a column of the given kind. */
export function normalizeValue(v: unknown, kind: Kind): unknown {
  if (v === null || v === undefined) return null;
  switch (kind) {
    case 'int': {
      if (typeof v === 'number') {
        const t = Math.trunc(v);
        if (Number.isSafeInteger(t)) return t + 0; // + 0: -0 becomes 0
      }
      const b = typeof v === 'bigint' ? v : BigInt(Math.trunc(Number(v)));
      return b >= MIN_SAFE && b <= MAX_SAFE ? Number(b) : b;
    }
    case 'float': return Number(v);
    case 'date': {
      if (v instanceof Date) {
        const ms = v.getTime();
        return ms % DAY_MS === 0 ? isoDayCached(ms / DAY_MS) : v.toISOString().slice(0, 10);
      }
      // Arrow DateDay.get returns epoch milliseconds.
      return isoDayCached(Math.floor(Number(v) / DAY_MS));
    }
    case 'timestamp': return v instanceof Date ? v.getTime() : Number(v);
    case 'string': return String(v);
    case 'bool': return Boolean(v);
    default: return v;
  }
}

/** Normalises an Arrow table (eddy's result). */
export function fromArrow(table: ArrowTable): ResultSet {
  const names = table.schema.fields.map((f) => f.name);
  const kinds = table.schema.fields.map((f) => arrowKind(f.type));
  const rows: unknown[][] = [];
  for (const batch of table.batches) {
    const cols = names.map((_, i) => batch.getChildAt(i)!);
    for (let r = 0; r < batch.numRows; r++) {
      const row = new Array<unknown>(cols.length);
      for (let i = 0; i < cols.length; i++) row[i] = normalizeValue(cols[i]!.get(r), kinds[i]!);
      rows.push(row);
    }
  }
  return { names, kinds, rows };
}

/** Builds a ResultSet from already-plain values with known kinds. */
export function fromRows(names: string[], kinds: Kind[], rows: readonly (readonly unknown[])[]): ResultSet {
  return { names, kinds, rows: rows.map((r) => r.map((v, i) => normalizeValue(v, kinds[i]!))) };
}

function floatEq(a: number, b: number, tol: number): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  if (a === b) return true;
  return Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));
}

function valueEq(a: unknown, b: unknown, tol: number): boolean {
  if (a === null || b === null) return a === b;
  if (typeof a === 'number' && typeof b === 'number') return floatEq(a, b, tol);
  if (typeof a === 'bigint' || typeof b === 'bigint') return String(a) === String(b);
  return a === b;
}

function rowEq(a: readonly unknown[], b: readonly unknown[], tol: number): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!valueEq(a[i], b[i], tol)) return false;
  return true;
}

function show(v: unknown): string {
  if (v === null) return 'NULL';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'bigint') return `${v}n`;
  return String(v);
}

/** Formats rows for an error message. */
export function formatRows(rows: readonly (readonly unknown[])[], max = 12): string {
  const lines = rows.slice(0, max).map((r) => `  (${r.map(show).join(', ')})`);
  if (rows.length > max) lines.push(`  ... ${rows.length - max} more`);
  return lines.join('\n');
}

/**
 * One value's part of a row's exact key: distinct values give distinct parts, and no part contains the
 * separator \u0001 (a string holding one is JSON-escaped, under a prefix of its own). Cheaper than show().
 */
function keyPart(v: unknown): string {
  if (typeof v === 'string') return v.includes('\u0001') ? `'${JSON.stringify(v)}` : `"${v}`;
  if (typeof v === 'number') return String(v);
  return show(v);
}

/** Exact key of the non-float part of a row (floats compare with tolerance later). */
function exactKey(r: readonly unknown[], kinds: readonly Kind[]): string {
  const parts = new Array<string>(r.length);
  for (let i = 0; i < r.length; i++) parts[i] = kinds[i] === 'float' ? '' : keyPart(r[i]);
  return parts.join('\u0001');
}

function cmpValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : 1;
  const sa = show(a);
  const sb = show(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function cmpRows(a: readonly unknown[], b: readonly unknown[]): number {
  for (let i = 0; i < a.length; i++) {
    const c = cmpValues(a[i], b[i]);
    if (c !== 0) return c;
  }
  return 0;
}

/** Matches two multisets of rows (same exact key) with float tolerance; returns unmatched rows of each. */
function matchGroup(a: unknown[][], b: unknown[][], tol: number): { onlyA: unknown[][]; onlyB: unknown[][] } {
  if (a.length === 1 && b.length === 1 && rowEq(a[0]!, b[0]!, tol)) return { onlyA: [], onlyB: [] }; // the usual case
  const sa = [...a].sort(cmpRows);
  const sb = [...b].sort(cmpRows);
  if (sa.length === sb.length && sa.every((r, i) => rowEq(r, sb[i]!, tol))) return { onlyA: [], onlyB: [] };
  // Greedy fallback (values near each other may sort differently on the two sides).
  const used = new Array<boolean>(sb.length).fill(false);
  const onlyA: unknown[][] = [];
  for (const r of sa) {
    const j = sb.findIndex((x, k) => !used[k] && rowEq(r, x, tol));
    if (j < 0) onlyA.push(r); else used[j] = true;
  }
  return { onlyA, onlyB: sb.filter((_, k) => !used[k]) };
}

/**
 * Whether two row multisets are equal, the quick way: both sorted (exact values), then compared pairwise
 * with float tolerance. Equal pairs prove equal multisets; a false answer may only mean that values
 * within tolerance sorted differently, so the caller then matches rows group by group.
 */
function sortedPairsEqual(a: readonly unknown[][], b: readonly unknown[][], tol: number): boolean {
  if (a.length !== b.length) return false;
  const sa = [...a].sort(cmpRows);
  const sb = [...b].sort(cmpRows);
  for (let i = 0; i < sa.length; i++) if (!rowEq(sa[i]!, sb[i]!, tol)) return false;
  return true;
}

/** The differences between two row multisets (floats with tolerance), as problem lines. */
function multisetProblems(actual: unknown[][], expected: unknown[][], kinds: readonly Kind[], tol: number): string[] {
  if (sortedPairsEqual(actual, expected, tol)) return [];
  const groups = new Map<string, { a: unknown[][]; b: unknown[][] }>();
  const add = (r: unknown[], side: 'a' | 'b'): void => {
    const k = exactKey(r, kinds);
    let g = groups.get(k);
    if (!g) { g = { a: [], b: [] }; groups.set(k, g); }
    g[side].push(r);
  };
  for (const r of actual) add(r, 'a');
  for (const r of expected) add(r, 'b');
  const onlyA: unknown[][] = [];
  const onlyB: unknown[][] = [];
  for (const g of groups.values()) {
    const m = matchGroup(g.a, g.b, tol);
    onlyA.push(...m.onlyA);
    onlyB.push(...m.onlyB);
  }
  const problems: string[] = [];
  if (onlyA.length > 0) problems.push(`${onlyA.length} row(s) only in the actual result:\n${formatRows(onlyA.sort(cmpRows))}`);
  if (onlyB.length > 0) problems.push(`${onlyB.length} row(s) only in the expected result:\n${formatRows(onlyB.sort(cmpRows))}`);
  return problems;
}

/** Compares two results; returns a description of the differences, or undefined when equal. */
export function diffResults(actual: ResultSet, expected: ResultSet, opts: CompareOptions = {}): string | undefined {
  const tol = opts.tolerance ?? 1e-9;
  const problems: string[] = [];
  if (actual.names.length !== expected.names.length) {
    return `column count differs: got [${actual.names.join(', ')}], expected [${expected.names.join(', ')}]`;
  }
  if (opts.names !== false && actual.names.join('|').toLowerCase() !== expected.names.join('|').toLowerCase()) {
    problems.push(`column names differ: got [${actual.names.join(', ')}], expected [${expected.names.join(', ')}]`);
  }
  if (opts.kinds !== false) {
    const bad = actual.kinds.map((k, i) => [k, expected.kinds[i]!, actual.names[i]!] as const)
      .filter(([a, e]) => a !== e && a !== 'null' && e !== 'null');
    if (bad.length > 0) problems.push(`column kinds differ: ${bad.map(([a, e, n]) => `${n}: got ${a}, expected ${e}`).join('; ')}`);
  }
  // Float columns on either side compare with tolerance.
  const kinds = actual.kinds.map((k, i) => (k === 'float' || expected.kinds[i] === 'float' ? 'float' : k));
  if (actual.rows.length !== expected.rows.length) problems.push(`row count differs: got ${actual.rows.length}, expected ${expected.rows.length}`);
  if (opts.ordered) {
    const n = Math.min(actual.rows.length, expected.rows.length);
    for (let i = 0; i < n; i++) {
      if (!rowEq(actual.rows[i]!, expected.rows[i]!, tol)) {
        problems.push(`first difference at row ${i}:\n  got      (${actual.rows[i]!.map(show).join(', ')})\n  expected (${expected.rows[i]!.map(show).join(', ')})`);
        break;
      }
    }
  } else {
    problems.push(...multisetProblems(actual.rows, expected.rows, kinds, tol));
    if (opts.orderKeys && opts.orderKeys.length > 0) {
      const idx = opts.orderKeys.map((n) => {
        const i = expected.names.findIndex((x) => x.toLowerCase() === n.toLowerCase());
        if (i < 0) throw new Error(`orderKeys: no column "${n}" in [${expected.names.join(', ')}]`);
        return i;
      });
      const proj = (rows: unknown[][]): unknown[][] => rows.map((r) => idx.map((i) => r[i]));
      const pa = proj(actual.rows);
      const pb = proj(expected.rows);
      const n = Math.min(pa.length, pb.length);
      for (let i = 0; i < n; i++) {
        if (!rowEq(pa[i]!, pb[i]!, tol)) {
          problems.push(`sort order differs at row ${i} on [${opts.orderKeys.join(', ')}]: got (${pa[i]!.map(show).join(', ')}), expected (${pb[i]!.map(show).join(', ')})`);
          break;
        }
      }
    }
  }
  if (problems.length === 0) return undefined;
  return `${problems.join('\n')}\n-- actual (${actual.rows.length} rows):\n${formatRows(actual.rows, 8)}\n-- expected (${expected.rows.length} rows):\n${formatRows(expected.rows, 8)}`;
}

/** Throws an Error describing the differences unless the results are equal. */
export function expectSameResult(actual: ResultSet, expected: ResultSet, opts: CompareOptions = {}): void {
  const d = diffResults(actual, expected, opts);
  if (d !== undefined) throw new Error(d);
}
