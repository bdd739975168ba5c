/**
 * The function library's dates and times (DuckDB semantics, UTC, proleptic
 * Gregorian): date_part / extract beyond year-month-day, date_trunc,
 * date_diff (boundaries crossed, as DuckDB's date_diff), date_sub (whole
 * parts between), last_day,
 * dayname / monthname, make_date / make_timestamp, current_date, julian,
 * the parts that are functions of their own (century(x), ...), and the
 * strftime / strptime formats (strftime-format.ts). DATE values are days,
 * TIMESTAMP values milliseconds; both go through one ms view here.
 */
import { ExecutionError } from '../../relnode/errors.js';
import { PART_FUNCTIONS } from '../../relnode/functions-library.js';
import type { Call, LiteralValue } from '../../relnode/rex.js';
import { MAX_DATE_DAYS, MAX_TIMESTAMP_MS, MS_PER_DAY, TIMESTAMP_RANGE_TEXT, type SqlType } from '../../relnode/types.js';
import { constantData } from './constant-data.js';
import type { CallCompiler } from './context.js';
import { civilFromDays, daysFromCivil, daysInMonth, formatDate, formatTimestamp } from './datetime.js';
import { epochFn } from './epoch-lib.js';
import { rowKernel, type RowFn } from './rowwise.js';
import { DAY_NAMES, formatStrftime, MONTH_NAMES, parseStrptime } from './strftime-format.js';

/** The date parts date_part/extract accept (aliases → canonical), and date_trunc / date_diff where they apply. */
export const DATE_PART_ALIASES: ReadonlyMap<string, string> = new Map([
  ...['year', 'years', 'y', 'yr', 'yrs'].map((a) => [a, 'year'] as const),
  ...['month', 'months', 'mon', 'mons'].map((a) => [a, 'month'] as const),
  ...['day', 'days', 'd', 'dayofmonth'].map((a) => [a, 'day'] as const),
  ...['quarter', 'quarters'].map((a) => [a, 'quarter'] as const),
  ...['week', 'weeks', 'w', 'weekofyear'].map((a) => [a, 'week'] as const),
  ...['dow', 'dayofweek', 'weekday'].map((a) => [a, 'dow'] as const),
  ['isodow', 'isodow'],
  ...['doy', 'dayofyear'].map((a) => [a, 'doy'] as const),
  ['isoyear', 'isoyear'], ['yearweek', 'yearweek'],
  ...['decade', 'decades', 'dec'].map((a) => [a, 'decade'] as const),
  ...['century', 'centuries', 'c'].map((a) => [a, 'century'] as const),
  ...['millennium', 'millennia', 'mil'].map((a) => [a, 'millennium'] as const),
  ...['hour', 'hours', 'h', 'hr'].map((a) => [a, 'hour'] as const),
  ...['minute', 'minutes', 'm', 'min', 'mins'].map((a) => [a, 'minute'] as const),
  ...['second', 'seconds', 's', 'sec', 'secs'].map((a) => [a, 'second'] as const),
  ...['millisecond', 'milliseconds', 'ms', 'msec'].map((a) => [a, 'millisecond'] as const),
  ...['microsecond', 'microseconds', 'us', 'usec'].map((a) => [a, 'microsecond'] as const),
  ['era', 'era'],
  ['epoch', 'epoch'],
]);

/** The canonical part name of a user's part text, or undefined. */
export function datePartName(text: string): string | undefined {
  return DATE_PART_ALIASES.get(text.trim().toLowerCase());
}

const msOf = (v: LiteralValue, t: SqlType): number => (t === 'DATE' ? Number(v) * MS_PER_DAY : Number(v));

/** Day of week, 0 = Sunday. */
const dow = (days: number): number => (((days + 4) % 7) + 7) % 7;

/** The ISO year and week of a day. */
function isoWeek(days: number): [number, number] {
  const isodow = dow(days) || 7;
  const thursday = days + 4 - isodow;
  const [y] = civilFromDays(thursday);
  return [y, Math.floor((thursday - daysFromCivil(y, 1, 1)) / 7) + 1];
}

/** One date part of a timestamp in ms (numbers; epoch in seconds). nanosecond is only a function (nanosecond(x)), as in DuckDB: date_part does not name it. */
export function datePart(part: string, ms: number): number {
  const days = Math.floor(ms / MS_PER_DAY);
  const tod = ms - days * MS_PER_DAY;
  const [y, m, d] = civilFromDays(days);
  switch (part) {
    case 'year': return y;
    case 'month': return m;
    case 'day': return d;
    case 'quarter': return Math.floor((m - 1) / 3) + 1;
    case 'week': return isoWeek(days)[1];
    case 'isoyear': return isoWeek(days)[0];
    case 'yearweek': { const [iy, w] = isoWeek(days); return iy * 100 + w; }
    case 'dow': return dow(days);
    case 'isodow': return dow(days) || 7;
    case 'doy': return days - daysFromCivil(y, 1, 1) + 1;
    // DuckDB divides the (astronomical) year toward zero: the decade of 15 BC (year -14) is -1.
    case 'decade': return Math.trunc(y / 10);
    case 'century': return y > 0 ? Math.floor((y - 1) / 100) + 1 : -Math.floor(-y / 100) - 1;
    case 'millennium': return y > 0 ? Math.floor((y - 1) / 1000) + 1 : -Math.floor(-y / 1000) - 1;
    case 'hour': return Math.floor(tod / 3_600_000);
    case 'minute': return Math.floor(tod / 60_000) % 60;
    case 'second': return Math.floor(tod / 1000) % 60;
    case 'millisecond': return tod % 60_000;
    case 'microsecond': return (tod % 60_000) * 1000;
    case 'nanosecond': return (tod % 60_000) * 1_000_000;
    case 'era': return y > 0 ? 1 : 0;
    case 'epoch': return ms / 1000;
    default: throw new ExecutionError(`unsupported date part "${part}"`);
  }
}

/** The parts date_trunc accepts. */
const TRUNC_PARTS = new Set(['millennium', 'century', 'decade', 'year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second', 'millisecond', 'microsecond']);

/** date_trunc(part, ms) in ms. */
export function dateTrunc(part: string, ms: number): number {
  const days = Math.floor(ms / MS_PER_DAY);
  const [y, m] = civilFromDays(days);
  const at = (yy: number, mm: number): number => daysFromCivil(yy, mm, 1) * MS_PER_DAY;
  switch (part) {
    case 'millennium': return at(Math.floor(y / 1000) * 1000, 1);
    case 'century': return at(Math.floor(y / 100) * 100, 1);
    case 'decade': return at(Math.trunc(y / 10) * 10, 1);
    case 'year': return at(y, 1);
    case 'quarter': return at(y, Math.floor((m - 1) / 3) * 3 + 1);
    case 'month': return at(y, m);
    case 'week': return (days - ((dow(days) + 6) % 7)) * MS_PER_DAY;
    case 'day': return days * MS_PER_DAY;
    case 'hour': return Math.floor(ms / 3_600_000) * 3_600_000;
    case 'minute': return Math.floor(ms / 60_000) * 60_000;
    case 'second': return Math.floor(ms / 1000) * 1000;
    default: return ms;
  }
}

/** date_diff(part, a, b): the number of part boundaries between a and b (DuckDB). */
export function dateDiff(part: string, a: number, b: number): number {
  const ya = datePart('year', a), yb = datePart('year', b);
  const da = Math.floor(a / MS_PER_DAY), db = Math.floor(b / MS_PER_DAY);
  switch (part) {
    case 'year': return yb - ya;
    case 'quarter': return yb * 4 + datePart('quarter', b) - (ya * 4 + datePart('quarter', a));
    case 'month': return yb * 12 + datePart('month', b) - (ya * 12 + datePart('month', a));
    case 'decade': return Math.trunc(yb / 10) - Math.trunc(ya / 10);
    case 'century': return Math.floor(yb / 100) - Math.floor(ya / 100);
    case 'millennium': return Math.floor(yb / 1000) - Math.floor(ya / 1000);
    case 'week': return Math.trunc((db - da) / 7);
    case 'day': case 'dow': case 'isodow': case 'doy': return db - da;
    case 'hour': return Math.floor(b / 3_600_000) - Math.floor(a / 3_600_000);
    case 'minute': return Math.floor(b / 60_000) - Math.floor(a / 60_000);
    case 'second': return Math.floor(b / 1000) - Math.floor(a / 1000);
    case 'millisecond': return b - a;
    case 'microsecond': return (b - a) * 1000;
    default: throw new ExecutionError(`date_diff does not support the part "${part}"`);
  }
}

/**
 * Whole months from a to b (a ≤ b), DuckDB's date_sub: the calendar months between them, less one
 * when b's day and time of day come before a's; when b is on the last day of its month, a later
 * day of a's month counts as that last day (Jan 31 → Feb 29 is a whole month).
 */
function wholeMonths(a: number, b: number): number {
  const da = Math.floor(a / MS_PER_DAY), db = Math.floor(b / MS_PER_DAY);
  const ta = a - da * MS_PER_DAY, tb = b - db * MS_PER_DAY;
  const [ya, ma, dayA] = civilFromDays(da);
  const [yb, mb, dayB] = civilFromDays(db);
  const startDay = dayB === daysInMonth(yb, mb) && dayA > dayB ? dayB : dayA;
  const months = (yb - ya) * 12 + (mb - ma);
  return dayB < startDay || (dayB === startDay && tb < ta) ? months - 1 : months;
}

/** date_sub(part, a, b): the number of whole parts from a to b (DuckDB), negative when b < a. */
export function dateSub(part: string, a: number, b: number): number {
  const months = (): number => (a <= b ? wholeMonths(a, b) : -wholeMonths(b, a));
  switch (part) {
    case 'year': case 'isoyear': return Math.trunc(months() / 12);
    case 'quarter': return Math.trunc(months() / 3);
    case 'month': return months();
    case 'decade': return Math.trunc(months() / 120);
    case 'century': return Math.trunc(months() / 1200);
    case 'millennium': return Math.trunc(months() / 12000);
    case 'week': return Math.trunc((b - a) / (7 * MS_PER_DAY));
    case 'day': case 'dow': case 'isodow': case 'doy': return Math.trunc((b - a) / MS_PER_DAY);
    case 'hour': return Math.trunc((b - a) / 3_600_000);
    case 'minute': return Math.trunc((b - a) / 60_000);
    case 'second': case 'epoch': return Math.trunc((b - a) / 1000);
    case 'millisecond': return b - a;
    case 'microsecond': return (b - a) * 1000;
    default: throw new ExecutionError(`date_sub does not support the part "${part}"`);
  }
}

function partOf(v: LiteralValue, fn: string, allowed?: ReadonlySet<string>, epoch = false): string {
  const p = datePartName(String(v));
  if (p === undefined || (p === 'epoch' && !epoch) || (allowed !== undefined && !allowed.has(p))) {
    throw new ExecutionError(`${fn}: unsupported date part "${String(v)}"`);
  }
  return p;
}

function makeDate(y: number, m: number, d: number, fn = 'make_date'): number {
  if (!Number.isInteger(y) || !Number.isInteger(m) || !Number.isInteger(d) || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) {
    throw new ExecutionError(`date out of range: ${fn}(${y}, ${m}, ${d})`);
  }
  const days = daysFromCivil(y, m, d);
  // Past Date32 an Int32Array would wrap the day number into another date.
  if (!(Math.abs(days) <= MAX_DATE_DAYS)) throw new ExecutionError(`date out of range: ${fn}(${y}, ${m}, ${d}) is past the range of DATE`);
  return days;
}

/** A TIMESTAMP made by `fn` from `shown`, or an error past the range (relnode/types.ts: MAX_TIMESTAMP_MS). */
function inTimestampRange(ms: number, fn: string, shown: () => string): number {
  if (!(Math.abs(ms) <= MAX_TIMESTAMP_MS)) throw new ExecutionError(`${fn}(${shown()}): the result is out of range (${TIMESTAMP_RANGE_TEXT})`);
  return ms;
}

/** The Julian day number of 1970-01-01. */
const JULIAN_EPOCH_DAY = 2_440_588;

const makeTimestampUs = epochFn('make_timestamp_us', []);

function fns(types: readonly SqlType[]): Readonly<Record<string, RowFn>> {
  const ms = (v: LiteralValue, i: number): number => msOf(v, types[i]!);
  return {
    date_part: ([p, x]) => BigInt(datePart(partOf(p, 'date_part'), ms(x, 1))),
    epoch: ([x]) => datePart('epoch', ms(x, 0)),
    date_trunc: ([p, x]) => inTimestampRange(dateTrunc(partOf(p, 'date_trunc', TRUNC_PARTS), ms(x, 1)), 'date_trunc', () => `'${String(p)}', ${types[1] === 'DATE' ? formatDate(Number(x)) : formatTimestamp(Number(x))}`),
    date_diff: ([p, a, b]) => BigInt(dateDiff(partOf(p, 'date_diff'), ms(a, 1), ms(b, 2))),
    date_sub: ([p, a, b]) => BigInt(dateSub(partOf(p, 'date_sub', undefined, true), ms(a, 1), ms(b, 2))),
    last_day: ([x]) => {
      const [y, m] = civilFromDays(Math.floor(ms(x, 0) / MS_PER_DAY));
      return daysFromCivil(y, m, daysInMonth(y, m));
    },
    dayname: ([x]) => DAY_NAMES[dow(Math.floor(ms(x, 0) / MS_PER_DAY))]!,
    monthname: ([x]) => MONTH_NAMES[datePart('month', ms(x, 0)) - 1]!,
    strftime: ([x, f]) => formatStrftime(f as string, ms(x, 0)),
    strptime: ([s, f]) => {
      const r = parseStrptime(s as string, f as string);
      if (r === null) throw new ExecutionError(`strptime: could not parse '${String(s)}' with the format '${String(f)}'`);
      return inTimestampRange(r, 'strptime', () => `'${String(s)}', '${String(f)}'`);
    },
    try_strptime: ([s, f]) => {
      const r = parseStrptime(s as string, f as string);
      return r === null || !(Math.abs(r) <= MAX_TIMESTAMP_MS) ? null : r;
    },
    // The Julian day number, with the time of day as its fraction (DuckDB's julian: days from noon, 4714-11-24 BC).
    julian: ([x]) => ms(x, 0) / MS_PER_DAY + JULIAN_EPOCH_DAY,
    ...Object.fromEntries(PART_FUNCTIONS.map((p) => [p, ([x]: LiteralValue[]) => BigInt(datePart(p, ms(x, 0)))])),
    make_date: ([y, m, d]) => makeDate(Number(y), Number(m), Number(d)),
    make_timestamp: (a) => {
      if (a.length === 1) return makeTimestampUs(a);
      const [y, m, d, h, mi, s] = a;
      const [hh, mm, ss] = [Number(h), Number(mi), Number(s)];
      if (hh < 0 || hh > 23 || mm < 0 || mm > 59 || ss < 0 || ss >= 60) throw new ExecutionError(`time out of range: make_timestamp(..., ${hh}, ${mm}, ${ss})`);
      const r = makeDate(Number(y), Number(m), Number(d), 'make_timestamp') * MS_PER_DAY + hh * 3_600_000 + mm * 60_000 + Math.round(ss * 1000);
      return inTimestampRange(r, 'make_timestamp', () => a.map(String).join(', '));
    },
  };
}

/** The ids compiled here. */
export const DATE_LIB_IDS: readonly string[] = [...Object.keys(fns([])), 'current_date'];

/** Compiles one of DATE_LIB_IDS. */
export const compileDateLib: CallCompiler = (e: Call, ctx) => {
  if (e.op === 'current_date') { const today = Math.floor(ctx.now / MS_PER_DAY); return (batch) => constantData(today, 'DATE', batch.numRows); }
  const args = e.args.map((a) => ctx.compile(a));
  return rowKernel(args, e.type, fns(e.args.map((a) => a.type))[e.op]!);
};
