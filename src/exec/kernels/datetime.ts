/**
 * Dates (days since 1970-01-01) and timestamps (ms since the epoch, UTC) on the
 * proleptic Gregorian calendar: year/month/day kernels, and text formatting and
 * parsing as DuckDB prints and reads them ('1992-01-01', '1992-01-01 10:20:30.5',
 * '0001-12-31 (BC)' for year 0).
 */
import type { Call } from '../../relnode/rex.js';
import { DATE_RANGE_TEXT, MAX_DATE_DAYS, MAX_TIMESTAMP_MS, MS_PER_DAY, TIMESTAMP_RANGE_TEXT } from '../../relnode/types.js';
import { validityOf } from './bitmap.js';
import { makeColumn, numbersOf } from './column.js';
import type { CompileContext, Kernel } from './context.js';
import { civilPart } from '../../relnode/civil-date.js';

export { civilPart };

/** Packed (year << 9 | month << 5 | day) for the days of 1900-01-01 .. 2099-12-31, built on first use. */
const TABLE_FIRST = -25567;
const TABLE_SIZE = 73049;
let civilTable: Int32Array | null = null;

function table(): Int32Array {
  if (civilTable === null) {
    civilTable = new Int32Array(TABLE_SIZE);
    for (let k = 0; k < TABLE_SIZE; k++) {
      const days = TABLE_FIRST + k;
      civilTable[k] = (civilPart(days, 0) << 9) | (civilPart(days, 1) << 5) | civilPart(days, 2);
    }
  }
  return civilTable;
}

/** civilPart by table lookup for common dates (the arithmetic costs ~10 float divisions). */
function civilPartFast(t: Int32Array, days: number, part: number): number {
  const k = days - TABLE_FIRST;
  if (k >= 0 && k < TABLE_SIZE) {
    const p = t[k]!;
    return part === 0 ? p >> 9 : part === 1 ? (p >> 5) & 15 : p & 31;
  }
  return civilPart(days, part);
}

/** Days since the epoch → [year, month (1-12), day (1-31)]. */
export function civilFromDays(days: number): [number, number, number] {
  return [civilPart(days, 0), civilPart(days, 1), civilPart(days, 2)];
}

/** [year, month, day] → days since the epoch. */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Days in month m (1-12) of year y (proleptic Gregorian). */
export function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

const pad = (v: number, w: number): string => String(v).padStart(w, '0');

function datePart(days: number): { text: string; bc: boolean } {
  const [y, m, d] = civilFromDays(days);
  const bc = y <= 0;
  return { text: `${pad(bc ? 1 - y : y, 4)}-${pad(m, 2)}-${pad(d, 2)}`, bc };
}

/** DATE days → 'YYYY-MM-DD' (with ' (BC)' for years ≤ 0). */
export function formatDate(days: number): string {
  const p = datePart(days);
  return p.bc ? `${p.text} (BC)` : p.text;
}

/** TIMESTAMP ms → 'YYYY-MM-DD HH:MM:SS[.fff]' (fraction without trailing zeros). */
export function formatTimestamp(ms: number): string {
  const days = Math.floor(ms / MS_PER_DAY);
  let rem = ms - days * MS_PER_DAY;
  const h = Math.floor(rem / 3_600_000); rem -= h * 3_600_000;
  const mi = Math.floor(rem / 60_000); rem -= mi * 60_000;
  const s = Math.floor(rem / 1000);
  const frac = rem - s * 1000;
  const p = datePart(days);
  const f = frac === 0 ? '' : `.${pad(frac, 3).replace(/0+$/, '')}`;
  // DuckDB's layout: the era follows the date (`0011-01-01 (BC) 00:00:00`).
  return `${p.text}${p.bc ? ' (BC)' : ''} ${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${f}`;
}

// The era may follow the date (DuckDB's output) or the time: `0011-01-01 (BC) 00:00:00`, `0011-01-01 00:00:00 (BC)`.
const TS_RE = /^(\d{1,9})-(\d{1,2})-(\d{1,2})( \(BC\))?(?:[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d+))?)?)?(?:\s*(?:Z|[+-]00(?::?00)?))?( \(BC\))?$/i;

/**
 * A date or timestamp text read once: ms since the epoch, the reason a text of the right shape is
 * rejected (a field out of range: "day 30 is out of range for 2020-02, which has 29 days"), or null
 * when the text does not have the shape. The reason's string is built only on that failure. A value
 * past the range of the type read (relnode/types.ts) is rejected with a reason too: a DATE past
 * Date32 would wrap into another date, a TIMESTAMP past ±8.64e15 ms would not print.
 */
function readTimestamp(text: string, to: 'DATE' | 'TIMESTAMP'): number | string | null {
  const t = TS_RE.exec(text.trim());
  if (t === null) return null;
  let y = Number(t[1]);
  const mo = Number(t[2]), d = Number(t[3]);
  if (t[4] !== undefined && t[9] !== undefined) return null;
  if (t[4] !== undefined || t[9] !== undefined) y = 1 - y;
  if (mo < 1 || mo > 12) return `month ${mo} is out of range (1 to 12)`;
  const dim = daysInMonth(y, mo);
  if (d < 1 || d > dim) return `day ${d} is out of range for ${t[1]}-${pad(mo, 2)}, which has ${dim} days`;
  const h = t[5] === undefined ? 0 : Number(t[5]);
  const mi = t[6] === undefined ? 0 : Number(t[6]);
  const s = t[7] === undefined ? 0 : Number(t[7]);
  if (h > 23) return `hour ${h} is out of range (0 to 23)`;
  if (mi > 59) return `minute ${mi} is out of range (0 to 59)`;
  if (s > 59) return `second ${s} is out of range (0 to 59)`;
  const ms = t[8] === undefined ? 0 : Number(t[8].slice(0, 3).padEnd(3, '0'));
  const days = daysFromCivil(y, mo, d);
  if (to === 'DATE' && !(Math.abs(days) <= MAX_DATE_DAYS)) return `past the range of DATE (${DATE_RANGE_TEXT})`;
  const r = days * MS_PER_DAY + h * 3_600_000 + mi * 60_000 + s * 1000 + ms;
  if (to === 'TIMESTAMP' && !(Math.abs(r) <= MAX_TIMESTAMP_MS)) return `past the range of TIMESTAMP (${TIMESTAMP_RANGE_TEXT})`;
  return r;
}

/** Parses a date or timestamp text into ms since the epoch, or null when invalid. */
export function parseTimestampMs(text: string): number | null {
  const r = readTimestamp(text, 'TIMESTAMP');
  return typeof r === 'number' ? r : null;
}

/**
 * Why parseTimestampMs rejects `text`, for an error message: a field out of range, or undefined
 * when the text does not have the shape (the caller names the expected format). `to` is the type read.
 */
export function dateTimeFieldProblem(text: string, to: 'DATE' | 'TIMESTAMP'): string | undefined {
  const r = readTimestamp(text, to);
  return typeof r === 'string' ? r : undefined;
}

/** Parses a date text (a time part is allowed and dropped, as in DuckDB) into days, or null. */
export function parseDateDays(text: string): number | null {
  const ms = readTimestamp(text, 'DATE');
  return typeof ms === 'number' ? Math.floor(ms / MS_PER_DAY) : null;
}

/** Compiles year, month, day of a DATE or TIMESTAMP (UTC). */
export function compileDatePart(e: Call, ctx: CompileContext): Kernel {
  const arg = ctx.compile(e.args[0]!);
  const fromTs = e.args[0]!.type === 'TIMESTAMP';
  const part = e.op === 'year' ? 0 : e.op === 'month' ? 1 : 2;
  return (batch) => {
    const n = batch.numRows;
    const d = arg(batch);
    const v = numbersOf(d, n);
    const out = new Int32Array(n);
    const t = table();
    if (fromTs) for (let i = 0; i < n; i++) out[i] = civilPartFast(t, Math.floor(v[i]! / MS_PER_DAY), part);
    else for (let i = 0; i < n; i++) out[i] = civilPartFast(t, v[i]!, part);
    return makeColumn('INTEGER', out, validityOf(d), n);
  };
}
