/**
 * CAST between eddy's types, with DuckDB's results: DOUBLE → INTEGER/BIGINT
 * rounds half to even (DuckDB's nearbyint: CAST(2.5 AS INTEGER) = 2) and a value
 * out of range is an ExecutionError; text parses as in text.ts, an invalid text
 * is an ExecutionError naming the value and the target type; every type prints
 * to VARCHAR. A dictionary VARCHAR column is parsed once per entry.
 * (INTEGER → DOUBLE and DATE ↔ TIMESTAMP are fused loops, see fused.ts.)
 */
import type * as arrow from 'apache-arrow';
import { ExecutionError, InternalError } from '../../relnode/errors.js';
import type { Cast, LiteralValue } from '../../relnode/rex.js';
import { isNumeric, MAX_TIMESTAMP_MS, MS_PER_DAY, TIMESTAMP_RANGE_TEXT, type SqlType } from '../../relnode/types.js';
import { bitAt, boolBitsOf, newBits, validityOf } from './bitmap.js';
import { constantData } from './constant-data.js';
import { isNullType, makeColumn, newValues, numbersOf } from './column.js';
import { display, type CompileContext, type Kernel } from './context.js';
import { int64ToNumbers, numbersToInt64, pairs } from './int64.js';
import { formatDate } from './datetime.js';
import { formatValue, parseText } from './text.js';
import { strView, Utf8Builder, decodeUtf8 } from './utf8.js';
import { readValue } from './value-at.js';

/** True when CAST(from AS to) is supported. */
export function canCast(from: SqlType, to: SqlType): boolean {
  if (from === to || from === 'NULL' || to === 'VARCHAR' || from === 'VARCHAR') return to !== 'NULL' || from === 'NULL';
  if ((isNumeric(from) || from === 'BOOLEAN') && (isNumeric(to) || to === 'BOOLEAN')) return true;
  return (from === 'DATE' && to === 'TIMESTAMP') || (from === 'TIMESTAMP' && to === 'DATE');
}

/**
 * What a failed cast names: the CAST as written (`in CAST(s AS INTEGER)`), or for a cast the engine
 * added, what the value was converted for (`for column a of table t`: Cast.target), not a CAST over
 * an internal column the user never wrote.
 */
function castPlace(e: Cast, ctx: CompileContext): string {
  return e.target !== undefined ? `for ${e.target}` : `in ${display(e, ctx)}`;
}

/** The largest |days| of a DATE that converts to a TIMESTAMP (relnode/types.ts: MAX_TIMESTAMP_MS). */
export const MAX_TIMESTAMP_DAYS = MAX_TIMESTAMP_MS / MS_PER_DAY;

/** The error of a DATE past the TIMESTAMP range converted to TIMESTAMP (here and in fused loops). */
export function dateToTimestampError(days: number, e: Cast, ctx: CompileContext): ExecutionError {
  const what = `could not cast DATE value ${formatDate(days)} to TIMESTAMP`;
  const why = `out of range (${TIMESTAMP_RANGE_TEXT})`;
  return new ExecutionError(e.target !== undefined ? `${what} for ${e.target}: ${why}` : `${what}: ${why}, in ${display(e, ctx)}`);
}

/** Rounds half to even (C's nearbyint in the default mode). */
function roundHalfEven(x: number): number {
  let r = Math.round(x);
  if (r - x === 0.5 && r % 2 !== 0) r -= 1;
  return r;
}

/** Compiles a Cast that is not a fused loop. */
export function compileCast(e: Cast, ctx: CompileContext): Kernel {
  const from = e.arg.type, to = e.type;
  const arg = ctx.compile(e.arg);
  if (from === to) return arg;
  if (from === 'NULL') return (batch) => constantData(null, to, batch.numRows);
  if (!canCast(from, to)) throw new InternalError(`unsupported cast from ${from} to ${to} in ${display(e, ctx)}`);
  if (to === 'VARCHAR') return toText(arg, from);
  if (from === 'VARCHAR') return fromText(e, arg, ctx);
  const fail = (v: LiteralValue): never => {
    throw new ExecutionError(e.target !== undefined
      ? `could not cast ${from} value ${String(v)} to ${to} for ${e.target}: out of range`
      : `could not cast ${from} value ${String(v)} to ${to}: out of range, in ${display(e, ctx)}`);
  };
  return (batch): arrow.Data => {
    const n = batch.numRows;
    const d = arg(batch);
    if (isNullType(d)) return constantData(null, to, n);
    const valid = validityOf(d);
    const live = (i: number): boolean => valid === null || bitAt(valid, i) === 1;
    if (from === 'BOOLEAN') {
      const bits = boolBitsOf(d);
      const ones = new Float64Array(n);
      for (let i = 0; i < n; i++) ones[i] = (bits[i >> 3]! >> (i & 7)) & 1;
      return fromNumbers(ones, to, valid, n);
    }
    if (to === 'BOOLEAN') {
      const out = newBits(n);
      if (from === 'BIGINT') { const v = d.values as BigInt64Array; for (let i = 0; i < n; i++) if (v[i] !== 0n) out[i >> 3]! |= 1 << (i & 7); }
      else { const v = numbersOf(d, n); for (let i = 0; i < n; i++) if (v[i] !== 0) out[i >> 3]! |= 1 << (i & 7); }
      return makeColumn('BOOLEAN', out, valid, n);
    }
    if (from === 'DOUBLE' && (to === 'INTEGER' || to === 'BIGINT')) {
      const v = d.values as Float64Array;
      const r = new Float64Array(n);
      const lo = to === 'INTEGER' ? -2147483648 : -9223372036854775808;
      const hi = to === 'INTEGER' ? 2147483647 : 9223372036854775807; // 2^63 as a double: the bound is exclusive below
      for (let i = 0; i < n; i++) {
        const x = roundHalfEven(v[i]!);
        if (!(x >= lo && (to === 'INTEGER' ? x <= hi : x < hi)) && live(i)) fail(v[i]!);
        r[i] = x;
      }
      return fromNumbers(r, to, valid, n);
    }
    if (from === 'BIGINT' && to === 'INTEGER') {
      const v = d.values as BigInt64Array;
      const out = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        const x = v[i]!;
        if ((x > 2147483647n || x < -2147483648n) && live(i)) fail(x);
        out[i] = Number(BigInt.asIntN(32, x));
      }
      return makeColumn('INTEGER', out, valid, n);
    }
    if (from === 'BIGINT') return fromNumbers(int64ToNumbers(d.values as BigInt64Array, n), to, valid, n);
    if (from === 'INTEGER' && to === 'BIGINT') {
      const v = d.values as Int32Array;
      const out = new BigInt64Array(n);
      const p = pairs(out, n);
      for (let i = 0; i < n; i++) { const x = v[i]!; p[2 * i] = x; p[2 * i + 1] = x >> 31; }
      return makeColumn('BIGINT', out, valid, n);
    }
    if (from === 'DATE' && to === 'TIMESTAMP') {
      const v = numbersOf(d, n);
      const r = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const x = v[i]!;
        if (!(Math.abs(x) <= MAX_TIMESTAMP_DAYS) && live(i)) throw dateToTimestampError(x, e, ctx);
        r[i] = x * MS_PER_DAY;
      }
      return fromNumbers(r, to, valid, n);
    }
    if (from === 'TIMESTAMP' && to === 'DATE') {
      const v = numbersOf(d, n);
      const r = new Float64Array(n);
      for (let i = 0; i < n; i++) r[i] = Math.floor(v[i]! / MS_PER_DAY);
      return fromNumbers(r, to, valid, n);
    }
    return fromNumbers(numbersOf(d, n), to, valid, n);
  };
}

/** A column of type `to` from integral (or, for DOUBLE, any) numbers. */
function fromNumbers(v: ArrayLike<number>, to: SqlType, valid: Uint8Array | null, n: number): arrow.Data {
  if (to === 'BIGINT' || to === 'TIMESTAMP') return makeColumn(to, numbersToInt64(v, n), valid, n);
  const out = newValues(to, n) as Int32Array | Float64Array;
  for (let i = 0; i < n; i++) out[i] = v[i]!;
  return makeColumn(to, out, valid, n);
}

function toText(arg: Kernel, from: SqlType): Kernel {
  return (batch) => {
    const n = batch.numRows;
    const d = arg(batch);
    if (isNullType(d)) return constantData(null, 'VARCHAR', n);
    const valid = validityOf(d);
    const b = new Utf8Builder(n);
    for (let i = 0; i < n; i++) {
      if (valid !== null && bitAt(valid, i) === 0) b.appendNull();
      else b.appendString(formatValue(readValue(d, i), from)!);
    }
    return b.finish();
  };
}

function fromText(e: Cast, arg: Kernel, ctx: CompileContext): Kernel {
  const to = e.type;
  const parsedDicts = new WeakMap<object, (LiteralValue | undefined)[]>();
  return (batch) => {
    const n = batch.numRows;
    const v = strView(arg(batch));
    const { bytes, offsets } = v.entries;
    const text = (k: number): string => decodeUtf8(bytes, offsets[k]!, offsets[k + 1]!);
    let perEntry: (LiteralValue | undefined)[] | null = null;
    if (v.codes !== null) {
      perEntry = parsedDicts.get(v.dictKey!) ?? null;
      if (perEntry === null) {
        perEntry = new Array<LiteralValue | undefined>(v.entries.count);
        for (let k = 0; k < perEntry.length; k++) perEntry[k] = parseText(text(k), to);
        parsedDicts.set(v.dictKey!, perEntry);
      }
    }
    const values = new Array<LiteralValue>(n);
    for (let i = 0; i < n; i++) {
      if (v.valid !== null && bitAt(v.valid, i) === 0) { values[i] = null; continue; }
      const k = v.codes === null ? i : v.codes[i]!;
      const x = perEntry === null ? parseText(text(k), to) : perEntry[k];
      if (x === undefined) throw new ExecutionError(`could not convert string '${text(k)}' to ${to} ${castPlace(e, ctx)}`);
      values[i] = x;
    }
    return fromLiterals(values, to, v.valid, n);
  };
}

/** A column from literal-convention values (NULL where `valid` says). */
function fromLiterals(values: readonly LiteralValue[], to: SqlType, valid: Uint8Array | null, n: number): arrow.Data {
  if (to === 'BOOLEAN') {
    const out = newBits(n);
    for (let i = 0; i < n; i++) if (values[i] === true) out[i >> 3]! |= 1 << (i & 7);
    return makeColumn(to, out, valid, n);
  }
  if (to === 'BIGINT') {
    const out = new BigInt64Array(n);
    for (let i = 0; i < n; i++) { const x = values[i]; if (typeof x === 'bigint') out[i] = x; }
    return makeColumn(to, out, valid, n);
  }
  const nums = new Float64Array(n);
  for (let i = 0; i < n; i++) { const x = values[i]; if (typeof x === 'number') nums[i] = x; }
  return fromNumbers(nums, to, valid, n);
}
