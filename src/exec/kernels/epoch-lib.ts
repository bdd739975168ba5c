/**
 * Conversions between instants and counts since the epoch (DuckDB's
 * epoch_ms, epoch_us, epoch_ns, to_timestamp, make_timestamp(us),
 * make_timestamp_ms). eddy's TIMESTAMP holds milliseconds: a count finer than
 * that (microseconds, a fraction of a millisecond in seconds) is floored to
 * the millisecond before it (as a TIMESTAMP literal's extra digits are), and
 * epoch_us / epoch_ns of an eddy value are always multiples of 1,000 /
 * 1,000,000. Decision: a TIMESTAMP made here must lie within JavaScript's
 * Date range (±8.64e15 ms, years -271821 to 275760) so every value can be
 * printed; beyond it is an error, as DuckDB errors beyond its own range.
 */
import { ExecutionError } from '../../relnode/errors.js';
import type { Call, LiteralValue } from '../../relnode/rex.js';
import { MAX_TIMESTAMP_MS, MS_PER_DAY, type SqlType } from '../../relnode/types.js';
import type { CallCompiler } from './context.js';
import { rowKernel, type RowFn } from './rowwise.js';


const INT64_MAX = (1n << 63n) - 1n;

/** A TIMESTAMP value from ms, or an error naming the function when out of range. */
function timestamp(fn: string, ms: number, shown: LiteralValue): number {
  if (!(Math.abs(ms) <= MAX_TIMESTAMP_MS)) throw new ExecutionError(`${fn}(${String(shown)}): out of range for TIMESTAMP (at most ±${MAX_TIMESTAMP_MS} ms from 1970-01-01)`);
  return ms;
}

/** Floor division of bigints (toward minus infinity). */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

/** ms of a DATE (days) or TIMESTAMP (ms) value as a bigint, scaled by `per`, checked against BIGINT's range. */
function scaled(fn: string, v: LiteralValue, t: SqlType, per: bigint): bigint {
  const ms = BigInt(t === 'DATE' ? Number(v) * MS_PER_DAY : Number(v));
  const r = ms * per;
  if (r > INT64_MAX || r < -INT64_MAX - 1n) throw new ExecutionError(`${fn}: ${ms} ms is out of range for BIGINT ${per === 1_000_000n ? 'nanoseconds' : 'microseconds'}`);
  return r;
}

function fns(types: readonly SqlType[]): Readonly<Record<string, RowFn>> {
  const t0 = types[0]!;
  return {
    epoch_ms: ([x]) => (t0 === 'BIGINT' ? timestamp('epoch_ms', Number(x), x) : scaled('epoch_ms', x, t0, 1n)),
    epoch_us: ([x]) => scaled('epoch_us', x, t0, 1000n),
    epoch_ns: ([x]) => scaled('epoch_ns', x, t0, 1_000_000n),
    // DuckDB rounds seconds × 10^6 to whole microseconds; eddy keeps the millisecond at or before that.
    to_timestamp: ([s]) => {
      const us = Math.round(Number(s) * 1e6);
      if (!Number.isFinite(us)) throw new ExecutionError(`to_timestamp(${String(s)}): epoch seconds out of range for TIMESTAMP`);
      return timestamp('to_timestamp', Math.floor(us / 1000), s);
    },
    make_timestamp_us: ([us]) => timestamp('make_timestamp', Number(floorDiv(us as bigint, 1000n)), us),
    make_timestamp_ms: ([ms]) => timestamp('make_timestamp_ms', Number(ms), ms),
  };
}

/** The ids compiled here (make_timestamp with one argument comes through date-lib.ts as make_timestamp_us). */
export const EPOCH_LIB_IDS: readonly string[] = ['epoch_ms', 'epoch_us', 'epoch_ns', 'to_timestamp', 'make_timestamp_ms'];

/** The row function of an epoch conversion, for argument types `types`. */
export function epochFn(op: string, types: readonly SqlType[]): RowFn {
  return fns(types)[op]!;
}

/** Compiles one of EPOCH_LIB_IDS. */
export const compileEpochLib: CallCompiler = (e: Call, ctx) => {
  const args = e.args.map((a) => ctx.compile(a));
  return rowKernel(args, e.type, epochFn(e.op, e.args.map((a) => a.type)));
};
