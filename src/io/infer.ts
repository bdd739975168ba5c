/**
 * Text value parsers and column type inference, shared by the CSV and JSON
 * sources.
 *
 * The parsers read ASCII text straight from a byte buffer (`buf[start, end)`,
 * surrounding spaces and tabs ignored) and return NaN when the text is not a
 * value of the type, so the same function decides inference and scanning: a
 * value accepted while sampling is accepted while scanning.
 */
import { ValidationError } from '../relnode/errors.js';
import { parseTypeName, type Schema, type SqlType } from '../relnode/types.js';
import { daysFromCivil, daysInMonth, parseDateDays, parseTimestampMs } from '../exec/kernels/datetime.js';

const SP = 32, TAB = 9, PLUS = 43, MINUS = 45, DOT = 46, ZERO = 48, NINE = 57, COLON = 58;

function trimStart(b: Uint8Array, s: number, e: number): number {
  while (s < e && (b[s] === SP || b[s] === TAB)) s++;
  return s;
}
function trimEnd(b: Uint8Array, s: number, e: number): number {
  while (e > s && (b[e - 1] === SP || b[e - 1] === TAB)) e--;
  return e;
}

/** Parses `[+-]digits` that fits int32; NaN otherwise. */
export function parseInt32(b: Uint8Array, s: number, e: number): number {
  s = trimStart(b, s, e); e = trimEnd(b, s, e);
  let neg = false;
  if (s < e && (b[s] === MINUS || b[s] === PLUS)) { neg = b[s] === MINUS; s++; }
  if (s === e || e - s > 10) return NaN;
  let v = 0;
  for (let i = s; i < e; i++) {
    const d = b[i]! - ZERO;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  if (neg) v = -v;
  return v >= -2147483648 && v <= 2147483647 ? v : NaN;
}

/**
 * Parses `[+-]digits` as a number when it has at most 15 digits (exact);
 * returns Infinity for a longer integer (use `parseBigInt64`), NaN for non-integers.
 */
export function parseInt64Fast(b: Uint8Array, s: number, e: number): number {
  s = trimStart(b, s, e); e = trimEnd(b, s, e);
  let neg = false;
  if (s < e && (b[s] === MINUS || b[s] === PLUS)) { neg = b[s] === MINUS; s++; }
  if (s === e) return NaN;
  let v = 0;
  for (let i = s; i < e; i++) {
    const d = b[i]! - ZERO;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  if (e - s > 15) return Infinity;
  return neg ? -v : v;
}

const INT64_MIN = -(2n ** 63n), INT64_MAX = 2n ** 63n - 1n;

/** Parses an integer as a bigint if it fits int64; undefined otherwise (slow path for > 15 digits). */
export function parseBigInt64(b: Uint8Array, s: number, e: number): bigint | undefined {
  const v = parseInt64Fast(b, s, e);
  if (v !== v) return undefined;
  s = trimStart(b, s, e); e = trimEnd(b, s, e);
  let t = '';
  for (let i = s; i < e; i++) t += String.fromCharCode(b[i]!);
  const big = BigInt(t);
  return big >= INT64_MIN && big <= INT64_MAX ? big : undefined;
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/**
 * Parses a decimal number `[+-]digits[.digits][e[+-]digits]`, `inf`,
 * `infinity` or `nan` (any case). Returns NaN for anything else; a caller that
 * gets NaN asks `isNanText` whether the text really was `nan`.
 * Up to 15 significant digits and |exponent| ≤ 22 are computed exactly
 * (one correctly rounded operation); longer numbers go through `Number()`.
 */
export function parseDouble(b: Uint8Array, s: number, e: number): number {
  s = trimStart(b, s, e); e = trimEnd(b, s, e);
  let i = s, neg = false;
  if (i < e && (b[i] === MINUS || b[i] === PLUS)) { neg = b[i] === MINUS; i++; }
  let mant = 0, digits = 0, scale = 0, any = false;
  while (i < e) {
    const d = b[i]! - ZERO;
    if (d < 0 || d > 9) break;
    any = true;
    if (mant !== 0 || d !== 0) { mant = mant * 10 + d; digits++; }
    i++;
  }
  if (i < e && b[i] === DOT) {
    i++;
    while (i < e) {
      const d = b[i]! - ZERO;
      if (d < 0 || d > 9) break;
      any = true;
      if (mant !== 0 || d !== 0) { mant = mant * 10 + d; digits++; }
      scale--;
      i++;
    }
  }
  if (!any) return parseSpecial(b, i, e, neg);
  if (i < e && (b[i] === 101 || b[i] === 69)) {
    i++;
    let eneg = false;
    if (i < e && (b[i] === MINUS || b[i] === PLUS)) { eneg = b[i] === MINUS; i++; }
    if (i === e) return NaN;
    let ex = 0;
    while (i < e) {
      const d = b[i]! - ZERO;
      if (d < 0 || d > 9) return NaN;
      if (ex < 100000) ex = ex * 10 + d;
      i++;
    }
    scale += eneg ? -ex : ex;
  }
  if (i !== e) return NaN;
  let v: number;
  if (digits <= 15 && scale >= -22 && scale <= 22) {
    v = scale < 0 ? mant / POW10[-scale]! : mant * POW10[scale]!;
  } else {
    let t = '';
    for (let k = s; k < e; k++) t += String.fromCharCode(b[k]!);
    v = Math.abs(Number(t));
  }
  return neg ? -v : v;
}

function lowerAscii(b: Uint8Array, s: number, e: number): string {
  let t = '';
  for (let i = s; i < e && i - s < 10; i++) t += String.fromCharCode(b[i]! | 0x20);
  return t;
}

function parseSpecial(b: Uint8Array, s: number, e: number, neg: boolean): number {
  const t = lowerAscii(b, s, e);
  if (e - s <= 8 && (t === 'inf' || t === 'infinity')) return neg ? -Infinity : Infinity;
  return NaN;
}

/** True when the text is a spelling of NaN (`nan`, any case, optionally signed). */
export function isNanText(b: Uint8Array, s: number, e: number): boolean {
  s = trimStart(b, s, e); e = trimEnd(b, s, e);
  if (s < e && (b[s] === MINUS || b[s] === PLUS)) s++;
  return e - s === 3 && lowerAscii(b, s, e) === 'nan';
}

/** Parses `true`/`false` (any case): 1, 0, or -1 when neither. */
export function parseBool(b: Uint8Array, s: number, e: number): number {
  s = trimStart(b, s, e); e = trimEnd(b, s, e);
  const n = e - s;
  if (n !== 4 && n !== 5) return -1;
  const t = lowerAscii(b, s, e);
  return t === 'true' ? 1 : t === 'false' ? 0 : -1;
}

function digitsAt(b: Uint8Array, i: number, n: number): number {
  let v = 0;
  for (let k = i; k < i + n; k++) {
    const d = b[k]! - ZERO;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/** Parses the 10 bytes `YYYY-MM-DD` at `s` (no trimming); days since the epoch or NaN. */
function dateAt(b: Uint8Array, s: number): number {
  if (b[s + 4] !== MINUS || b[s + 7] !== MINUS) return NaN;
  const y = digitsAt(b, s, 4), m = digitsAt(b, s + 5, 2), d = digitsAt(b, s + 8, 2);
  if (y < 0 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return NaN;
  return daysFromCivil(y, m, d);
}

/** Parses `YYYY-MM-DD` (or a far or BC date, slowTemporal): days since 1970-01-01, or NaN. */
export function parseDate(b: Uint8Array, s: number, e: number): number {
  s = trimStart(b, s, e); e = trimEnd(b, s, e);
  if (e - s === 10) return dateAt(b, s);
  return farOrBc(b, s, e) ? slowTemporal(b, s, e, 'DATE') : NaN;
}

const OPEN_PAREN = 40;

/** A text that may be a date of a 5+ digit year (`12345-06-07`) or with an era (`0044-03-15 (BC)`): a digit after 4 digits, or ` (` after 10 bytes. */
function farOrBc(b: Uint8Array, s: number, e: number): boolean {
  return e - s > 10 && ((b[s + 4]! >= ZERO && b[s + 4]! <= NINE) || (b[s + 10] === SP && b[s + 11] === OPEN_PAREN));
}

/**
 * The dates and timestamps the byte parsers leave out, as DuckDB and eddy's own writers (COPY TO)
 * write them: years of 5+ digits and years before 1 with ` (BC)` after the date. Read by the SQL
 * literal parser (exec/kernels/datetime.ts), which checks the type's range; NaN when it does not read.
 * Rare, so decoded to a string (at most 40 bytes).
 */
function slowTemporal(b: Uint8Array, s: number, e: number, to: 'DATE' | 'TIMESTAMP'): number {
  if (e - s > 40) return NaN;
  let text = '';
  for (let k = s; k < e; k++) text += String.fromCharCode(b[k]!);
  if (to === 'DATE') return /^\d+-\d+-\d+( \(BC\))?$/.test(text) ? parseDateDays(text) ?? NaN : NaN;
  return parseTimestampMs(text) ?? NaN;
}

/**
 * Parses an ISO date-time `YYYY-MM-DD[( |T)HH:MM[:SS[.fraction]]][Z|±HH[:MM]]`
 * (a bare date is midnight): milliseconds since the epoch, or NaN. Without a
 * zone the time is taken as UTC; fractions beyond milliseconds are truncated.
 */
export function parseTimestamp(b: Uint8Array, s: number, e: number): number {
  s = trimStart(b, s, e); e = trimEnd(b, s, e);
  if (e - s < 10) return NaN;
  if (farOrBc(b, s, e)) return slowTemporal(b, s, e, 'TIMESTAMP');
  const days = dateAt(b, s);
  if (days !== days) return NaN;
  let i = s + 10;
  if (i === e) return days * 86_400_000;
  if (b[i] !== 84 && b[i] !== 116 && b[i] !== SP) return NaN;
  i++;
  if (e - i < 5 || b[i + 2] !== COLON) return NaN;
  const hh = digitsAt(b, i, 2), mi = digitsAt(b, i + 3, 2);
  if (hh < 0 || hh > 23 || mi < 0 || mi > 59) return NaN;
  i += 5;
  let ss = 0, ms = 0;
  if (i < e && b[i] === COLON) {
    if (e - i < 3) return NaN;
    ss = digitsAt(b, i + 1, 2);
    if (ss < 0 || ss > 59) return NaN;
    i += 3;
    if (i < e && b[i] === DOT) {
      i++;
      let k = 0;
      while (i < e && b[i]! >= ZERO && b[i]! <= NINE) {
        if (k < 3) ms = ms * 10 + (b[i]! - ZERO);
        k++; i++;
      }
      if (k === 0) return NaN;
      for (; k < 3; k++) ms *= 10;
    }
  }
  let offset = 0;
  if (i < e) {
    const c = b[i];
    if ((c === 90 || c === 122) && i + 1 === e) i++;
    else if (c === PLUS || c === MINUS) {
      const oh = e - i >= 3 ? digitsAt(b, i + 1, 2) : -1;
      let om = 0, j = i + 3;
      if (j < e && b[j] === COLON) j++;
      if (j < e) { om = e - j === 2 ? digitsAt(b, j, 2) : -1; j += 2; }
      if (oh < 0 || oh > 23 || om < 0 || om > 59 || j !== e) return NaN;
      offset = (c === MINUS ? -1 : 1) * (oh * 60 + om) * 60_000;
      i = e;
    } else return NaN;
  }
  return days * 86_400_000 + ((hh * 60 + mi) * 60 + ss) * 1000 + ms - offset;
}

/** What a value of each type looks like, for error messages. */
export function expectedText(type: SqlType): string {
  switch (type) {
    case 'BOOLEAN': return 'true or false';
    case 'INTEGER': return 'a whole number between -2147483648 and 2147483647';
    case 'BIGINT': return 'a whole number between -9223372036854775808 and 9223372036854775807';
    case 'DOUBLE': return 'a number';
    case 'DATE': return 'a date YYYY-MM-DD';
    case 'TIMESTAMP': return 'a timestamp YYYY-MM-DD HH:MM:SS[.fff][Z|±HH:MM]';
    case 'VARCHAR': case 'NULL': return 'text';
  }
}

const BOOL = 1, INT = 2, BIG = 4, DBL = 8, DATE = 16, TS = 32, ALL = 63;
/** Candidate types from most to least specific; VARCHAR when none is left. */
const ORDER: readonly [number, SqlType][] = [[BOOL, 'BOOLEAN'], [INT, 'INTEGER'], [BIG, 'BIGINT'], [DBL, 'DOUBLE'], [DATE, 'DATE'], [TS, 'TIMESTAMP']];

const scratch = new Uint8Array(64);

/**
 * Infers one column's type from sample values: starts from every candidate
 * type and drops those a value does not parse as. The result is the most
 * specific survivor (BOOLEAN, INTEGER, BIGINT, DOUBLE, DATE, TIMESTAMP), else
 * VARCHAR; a column with no non-NULL sample value is VARCHAR.
 */
export class TypeInference {
  private mask = ALL;
  private seen = false;

  /** Observes a non-NULL text value `b[s, e)` (CSV). */
  observeText(b: Uint8Array, s: number, e: number): void {
    this.seen = true;
    let m = this.mask;
    if (m === 0) return;
    if (m & BOOL && parseBool(b, s, e) < 0) m &= ~BOOL;
    if (m & (INT | BIG)) {
      const v = parseInt64Fast(b, s, e);
      if (v !== v) m &= ~(INT | BIG);
      else {
        if (m & INT && Number.isNaN(parseInt32(b, s, e))) m &= ~INT;
        if (m & BIG && v === Infinity && parseBigInt64(b, s, e) === undefined) m &= ~BIG;
      }
    }
    if (m & DBL && Number.isNaN(parseDouble(b, s, e)) && !isNanText(b, s, e)) m &= ~DBL;
    if (m & DATE && Number.isNaN(parseDate(b, s, e))) m &= ~DATE;
    if (m & TS && Number.isNaN(parseTimestamp(b, s, e))) m &= ~TS;
    this.mask = m;
  }

  /**
   * Observes a JSON value: booleans are BOOLEAN, numbers INTEGER/BIGINT/DOUBLE,
   * strings DATE or TIMESTAMP when they parse as such (a quoted number stays
   * VARCHAR), objects and arrays VARCHAR. NULL and undefined are ignored.
   */
  observeJson(v: unknown): void {
    if (v === null || v === undefined) return;
    this.seen = true;
    if (typeof v === 'boolean') this.mask &= BOOL;
    else if (typeof v === 'number') {
      if (!Number.isInteger(v)) this.mask &= DBL;
      else if (v >= -2147483648 && v <= 2147483647) this.mask &= INT | BIG | DBL;
      else if (Math.abs(v) < 2 ** 63) this.mask &= BIG | DBL;
      else this.mask &= DBL;
    } else if (typeof v === 'bigint') {
      // An exact integer beyond 2^53 (json-exact): BIGINT when it fits int64, else DOUBLE (DuckDB: HUGEINT).
      this.mask &= v >= -(2n ** 63n) && v < 2n ** 63n ? BIG | DBL : DBL;
    } else if (typeof v === 'string') {
      if (v.length > scratch.length) { this.mask = 0; return; }
      const n = asciiInto(v, scratch);
      let m = this.mask & (DATE | TS);
      if (n < 0) m = 0;
      if (m & DATE && Number.isNaN(parseDate(scratch, 0, n))) m &= ~DATE;
      if (m & TS && Number.isNaN(parseTimestamp(scratch, 0, n))) m &= ~TS;
      this.mask = m;
    } else this.mask = 0;
  }

  /** The inferred type. */
  get type(): SqlType {
    if (!this.seen) return 'VARCHAR';
    for (const [bit, t] of ORDER) if (this.mask & bit) return t;
    return 'VARCHAR';
  }
}

/** Copies an ASCII string into `out`; returns its length, or -1 if it has non-ASCII characters or does not fit. */
export function asciiInto(s: string, out: Uint8Array): number {
  if (s.length > out.length) return -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 127) return -1;
    out[i] = c;
  }
  return s.length;
}

/** Unique, non-empty column names: blanks become column<i>, repeats get a _<k> suffix. */
export function uniqueNames(raw: readonly string[]): string[] {
  const seen = new Set<string>();
  return raw.map((r, i) => {
    const base = r.trim() === '' ? `column${i}` : r;
    let name = base;
    for (let k = 1; seen.has(name); k++) name = `${base}_${k}`;
    seen.add(name);
    return name;
  });
}

/**
 * Resolves given types: a full Schema, or per-name overrides (others undefined = to infer).
 */
export function givenTypes(what: string, names: readonly string[], schema: Schema | Readonly<Record<string, SqlType | string>> | undefined): (SqlType | undefined)[] {
  const types: (SqlType | undefined)[] = names.map(() => undefined);
  if (schema === undefined || Array.isArray((schema as Schema).fields)) return types;
  const byName = schema as Readonly<Record<string, SqlType | string>>;
  for (const [name, t] of Object.entries(byName)) {
    const i = names.indexOf(name);
    if (i < 0) throw new ValidationError(`${what}: schema names column ${JSON.stringify(name)}, which is not in the file; its columns are ${names.map((n) => JSON.stringify(n)).join(', ')}`);
    const type = parseTypeName(t);
    if (type === undefined || type === 'NULL') throw new ValidationError(`${what}: unknown type ${JSON.stringify(t)} for column ${JSON.stringify(name)}; use BOOLEAN, INTEGER, BIGINT, DOUBLE, VARCHAR, DATE or TIMESTAMP`);
    types[i] = type;
  }
  return types;
}
