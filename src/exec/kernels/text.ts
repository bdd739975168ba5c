/**
 * Values to and from text, as DuckDB casts them: doubles print in the shortest
 * form that reads back (Python-repr style: `1.0`, `0.1`, `1e+16`, `1.5e-07`),
 * numbers parse with surrounding spaces, `_` digit separators, hex integers,
 * and integer targets round half away from zero ('2.5' → 3).
 */
import { formatDate, formatTimestamp, parseDateDays, parseTimestampMs } from './datetime.js';
import { roundHalfAway } from './math.js';
import type { LiteralValue } from '../../relnode/rex.js';
import type { SqlType } from '../../relnode/types.js';

const scratch = new Float64Array(1);
const scratchHi = new Uint32Array(scratch.buffer);

/** A DOUBLE as DuckDB prints it. */
export function formatDouble(x: number): string {
  if (Number.isNaN(x)) { scratch[0] = x; return (scratchHi[1]! & 0x80000000) !== 0 ? '-nan' : 'nan'; }
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mant, expText] = x.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  const sign = x < 0 ? '-' : '';
  const digits = mant.replace('-', '').replace('.', '');
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const int = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${int}.${frac === '' ? '0' : frac}`;
}

/** A value in literal convention as text of the given type (CAST(... AS VARCHAR)). */
export function formatValue(v: LiteralValue, type: SqlType): string | null {
  if (v === null) return null;
  switch (type) {
    case 'DOUBLE': return formatDouble(Number(v));
    case 'DATE': return formatDate(Number(v));
    case 'TIMESTAMP': return formatTimestamp(Number(v));
    default: return String(v);
  }
}

const DECIMAL_RE = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const INT_RE = /^[+-]?\d+$/;
const HEX_RE = /^([+-]?)0x([0-9a-f]+)$/i;
const SPECIAL_RE = /^([+-]?)(inf|infinity|nan)$/i;

function clean(text: string): string {
  const t = text.trim();
  return /\d_\d/.test(t) ? t.replace(/(?<=\d)_(?=\d)/g, '') : t;
}

/** Text → DOUBLE, or null when it is not a number. */
export function parseDouble(text: string): number | null {
  const t = clean(text);
  if (DECIMAL_RE.test(t)) return Number(t);
  const s = SPECIAL_RE.exec(t);
  if (s !== null) return s[2]!.toLowerCase() === 'nan' ? NaN : s[1] === '-' ? -Infinity : Infinity;
  return null;
}

/** Text → an integer value (bigint, exact), or null when it is not a number. Fractions round half away from zero. */
export function parseInteger(text: string): bigint | null {
  const t = clean(text);
  if (INT_RE.test(t)) return BigInt(t);
  const h = HEX_RE.exec(t);
  if (h !== null) { const v = BigInt(`0x${h[2]}`); return h[1] === '-' ? -v : v; }
  if (!DECIMAL_RE.test(t)) return null;
  const r = roundHalfAway(Number(t));
  return Number.isFinite(r) ? BigInt(r) : null;
}

/** Text → BOOLEAN (true/t/yes/y/1, false/f/no/n/0, any case), or null. */
export function parseBoolean(text: string): boolean | null {
  switch (text.toLowerCase()) {
    case 'true': case 't': case 'yes': case 'y': case '1': return true;
    case 'false': case 'f': case 'no': case 'n': case '0': return false;
    default: return null;
  }
}

/** Text → a value of type t in literal convention, or undefined when the text is not valid for t. */
export function parseText(text: string, t: SqlType): LiteralValue | undefined {
  switch (t) {
    case 'VARCHAR': return text;
    case 'DOUBLE': return parseDouble(text) ?? undefined;
    case 'BOOLEAN': return parseBoolean(text) ?? undefined;
    case 'DATE': return parseDateDays(text) ?? undefined;
    case 'TIMESTAMP': return parseTimestampMs(text) ?? undefined;
    case 'INTEGER': {
      const v = parseInteger(text);
      return v === null || v > 2147483647n || v < -2147483648n ? undefined : Number(v);
    }
    case 'BIGINT': {
      const v = parseInteger(text);
      return v === null || v !== BigInt.asIntN(64, v) ? undefined : v;
    }
    case 'NULL': return undefined;
  }
}
