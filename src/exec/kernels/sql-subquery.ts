/**
 * Kernels the SQL front end needs for subqueries and dates: `assert_single_row`
 * (a scalar subquery yielded at most one row per outer row, else the query
 * fails as in DuckDB) and `add_months` (DATE + calendar months, clamping the
 * day to the month's end, for `date ± INTERVAL n MONTH/YEAR`).
 */
import type { Call } from '../../relnode/rex.js';
import { ExecutionError } from '../../relnode/errors.js';
import { DATE_RANGE_TEXT, MAX_DATE_DAYS, MAX_TIMESTAMP_MS, MS_PER_DAY, TIMESTAMP_RANGE_TEXT } from '../../relnode/types.js';
import { allOnes, andValidity, validityOf } from './bitmap.js';
import { makeColumn, numbersOf } from './column.js';
import { inExpr, type CompileContext, type Kernel } from './context.js';
import { civilFromDays, daysFromCivil, formatDate, formatTimestamp } from './datetime.js';

/** assert_single_row(count): TRUE when every count is at most 1; otherwise an ExecutionError. */
export function compileAssertSingleRow(e: Call, ctx: CompileContext): Kernel {
  const arg = ctx.compile(e.args[0]!);
  return (batch) => {
    const n = batch.numRows;
    const v = numbersOf(arg(batch), n);
    for (let i = 0; i < n; i++) {
      if (v[i]! > 1) throw new ExecutionError('more than one row returned by a subquery used as an expression; make it return one row (e.g. with an aggregate or LIMIT 1)');
    }
    return makeColumn('BOOLEAN', allOnes(n), null, n);
  };
}


/** add_months(date, months): the same day `months` calendar months later, clamped to the month's last day. */
export function compileAddMonths(e: Call, ctx: CompileContext): Kernel {
  const date = ctx.compile(e.args[0]!);
  const months = ctx.compile(e.args[1]!);
  return (batch) => {
    const n = batch.numRows;
    const dd = date(batch);
    const md = months(batch);
    const d = numbersOf(dd, n);
    const m = numbersOf(md, n);
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const r = addMonths(d[i]!, m[i]!);
      // An Int32Array would wrap a day number past its range into another date.
      if (!(Math.abs(r) <= MAX_DATE_DAYS)) {
        const shown = `add_months(DATE '${formatDate(d[i]!)}', ${m[i]!})`;
        throw new ExecutionError(`date out of range: ${shown} is past the range of DATE (${DATE_RANGE_TEXT})${inExpr(shown, e, ctx)}`);
      }
      out[i] = r;
    }
    return makeColumn('DATE', out, andValidity(validityOf(dd), validityOf(md), n), n);
  };
}

/** timestamp_add(ts, months, ms): `months` calendar months later (the day clamped as add_months does), plus `ms` milliseconds. */
export function compileTimestampAdd(e: Call, ctx: CompileContext): Kernel {
  const ts = ctx.compile(e.args[0]!);
  const months = ctx.compile(e.args[1]!);
  const ms = ctx.compile(e.args[2]!);
  return (batch) => {
    const n = batch.numRows;
    const td = ts(batch);
    const md = months(batch);
    const sd = ms(batch);
    const t = numbersOf(td, n);
    const m = numbersOf(md, n);
    const s = numbersOf(sd, n);
    const out = new BigInt64Array(n);
    for (let i = 0; i < n; i++) {
      const v = t[i]!;
      let r = v + s[i]!;
      if (m[i] !== 0) {
        const day = Math.floor(v / MS_PER_DAY);
        r = addMonths(day, m[i]!) * MS_PER_DAY + (v - day * MS_PER_DAY) + s[i]!;
      }
      // As DuckDB's "Date out of range": never a TIMESTAMP past the range (nor BigInt of a non-integer).
      if (!(Math.abs(r) <= MAX_TIMESTAMP_MS)) {
        const shown = `TIMESTAMP '${formatTimestamp(v)}' ${intervalText(m[i]!, s[i]!)}`;
        throw new ExecutionError(`timestamp out of range: ${shown} is past the range of TIMESTAMP (${TIMESTAMP_RANGE_TEXT})${inExpr(shown, e, ctx)}`);
      }
      out[i] = BigInt(r);
    }
    return makeColumn('TIMESTAMP', out, andValidity(andValidity(validityOf(td), validityOf(md), n), validityOf(sd), n), n);
  };
}

/**
 * `+ INTERVAL 1 DAY` / `- INTERVAL 3 MONTH`: what timestamp_add adds (the binder's DATE/TIMESTAMP ±
 * INTERVAL), in SQL's units, for its error message; the expression as written follows it.
 */
function intervalText(months: number, ms: number): string {
  const neg = months <= 0 && ms <= 0;
  const parts: string[] = [];
  const m = neg ? -months : months;
  const t = neg ? -ms : ms;
  if (m !== 0) parts.push(m % 12 === 0 ? `${m / 12} YEAR` : `${m} MONTH`);
  if (t !== 0 || parts.length === 0) parts.push(t % MS_PER_DAY === 0 ? `${t / MS_PER_DAY} DAY` : `${t} MILLISECOND`);
  return `${neg ? '-' : '+'} ${parts.map((p) => `INTERVAL ${p}`).join(' + ')}`;
}

/** Days since the epoch plus calendar months (1995-01-31 + 1 month = 1995-02-28). */
export function addMonths(days: number, months: number): number {
  const [y, mo, d] = civilFromDays(days);
  const total = y * 12 + (mo - 1) + months;
  const ny = Math.floor(total / 12);
  const nm = total - ny * 12 + 1;
  const next = nm === 12 ? daysFromCivil(ny + 1, 1, 1) : daysFromCivil(ny, nm + 1, 1);
  const first = daysFromCivil(ny, nm, 1);
  return first + Math.min(d, next - first) - 1;
}
