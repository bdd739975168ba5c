/**
 * round, sqrt, ln, exp, power, random. round is DuckDB's: half away from zero,
 * `round(x * 10^d) / 10^d` for DOUBLE (x when that is not finite), and for
 * INTEGER/BIGINT only negative digits change the value. sqrt of a negative and
 * ln of zero or a negative are ExecutionErrors, as in DuckDB.
 */
import type * as arrow from 'apache-arrow';
import { ExecutionError } from '../../relnode/errors.js';
import type { Call } from '../../relnode/rex.js';
import { andValidity, bitAt, validityOf } from './bitmap.js';
import { makeColumn, numbersOf } from './column.js';
import { display, inExpr, type CompileContext, type Kernel } from './context.js';

/** Rounds half away from zero (C's round()). */
export function roundHalfAway(v: number): number {
  return v < 0 ? -Math.round(-v) : Math.round(v);
}

/** DuckDB's round(x, d) on doubles. */
export function roundDouble(x: number, d: number): number {
  if (d < 0) {
    const m = Math.pow(10, -d);
    const r = roundHalfAway(x / m) * m;
    return Number.isFinite(r) ? r : 0;
  }
  const m = Math.pow(10, d);
  const r = roundHalfAway(x * m) / m;
  return Number.isFinite(r) ? r : x;
}

function roundBigint(x: bigint, d: number): bigint {
  if (d >= 0) return x;
  if (d < -18) return 0n;
  const m = 10n ** BigInt(-d);
  let q = x / m;
  const rem = x % m;
  if (2n * (rem < 0n ? -rem : rem) >= m) q += x < 0n ? -1n : 1n;
  return q * m;
}

/** Compiles round(x[, digits]). */
export function compileRound(e: Call, ctx: CompileContext): Kernel {
  const kx = ctx.compile(e.args[0]!);
  const kd = e.args.length > 1 ? ctx.compile(e.args[1]!) : null;
  const type = e.type;
  return (batch): arrow.Data => {
    const n = batch.numRows;
    const dx = kx(batch);
    const dd = kd === null ? null : kd(batch);
    const valid = andValidity(validityOf(dx), dd === null ? null : validityOf(dd), n);
    const digits = dd === null ? null : (dd.values as Int32Array);
    if (type === 'DOUBLE') {
      const x = dx.values as Float64Array;
      const out = new Float64Array(n);
      if (digits === null) for (let i = 0; i < n; i++) out[i] = roundHalfAway(x[i]!);
      else for (let i = 0; i < n; i++) out[i] = roundDouble(x[i]!, digits[i]!);
      return makeColumn(type, out, valid, n);
    }
    if (digits === null) return dx;
    if (type === 'BIGINT') {
      const x = dx.values as BigInt64Array;
      const out = new BigInt64Array(n);
      for (let i = 0; i < n; i++) {
        if (valid !== null && bitAt(valid, i) === 0) continue;
        const r = roundBigint(x[i]!, digits[i]!);
        if (r !== BigInt.asIntN(64, r)) throw new ExecutionError(`integer overflow: round(${x[i]}, ${digits[i]}) is out of range for BIGINT in ${display(e, ctx)}`);
        out[i] = r;
      }
      return makeColumn(type, out, valid, n);
    }
    const x = dx.values as Int32Array;
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const d = digits[i]!;
      if (d >= 0) { out[i] = x[i]!; continue; }
      const m = Math.pow(10, -d);
      const r = d < -10 ? 0 : roundHalfAway(x[i]! / m) * m;
      if ((r > 2147483647 || r < -2147483648) && (valid === null || bitAt(valid, i) === 1)) {
        throw new ExecutionError(`integer overflow: round(${x[i]}, ${d}) is out of range for ${type} in ${display(e, ctx)}`);
      }
      out[i] = r;
    }
    return makeColumn(type, out, valid, n);
  };
}

/** Compiles sqrt, ln, exp (DOUBLE results from any numeric argument). */
export function compileUnaryDouble(e: Call, ctx: CompileContext): Kernel {
  const kx = ctx.compile(e.args[0]!);
  const op = e.op;
  const f = op === 'sqrt' ? Math.sqrt : op === 'ln' ? Math.log : Math.exp;
  return (batch) => {
    const n = batch.numRows;
    const dx = kx(batch);
    const x = numbersOf(dx, n);
    const valid = validityOf(dx);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = x[i]!;
      if ((op === 'sqrt' ? v < 0 : op === 'ln' ? v <= 0 : false) && (valid === null || bitAt(valid, i) === 1)) {
        const what = op === 'sqrt' ? 'take square root of a negative number' : v === 0 ? 'take logarithm of zero' : 'take logarithm of a negative number';
        throw new ExecutionError(`cannot ${what}: ${op}(${v})${inExpr(`${op}(${v})`, e, ctx)}`);
      }
      out[i] = f(v);
    }
    return makeColumn('DOUBLE', out, valid, n);
  };
}

/**
 * C's pow, which DuckDB calls: as Math.pow, but 1 to any power, NaN included, is 1, and so is -1 to
 * ±infinity (Math.pow gives NaN for both).
 */
export function cPow(x: number, y: number): number {
  return x === 1 || (x === -1 && (y === Infinity || y === -Infinity)) ? 1 : Math.pow(x, y);
}

/** Compiles power(x, y). */
export function compilePower(e: Call, ctx: CompileContext): Kernel {
  const kx = ctx.compile(e.args[0]!), ky = ctx.compile(e.args[1]!);
  return (batch) => {
    const n = batch.numRows;
    const dx = kx(batch), dy = ky(batch);
    const x = numbersOf(dx, n), y = numbersOf(dy, n);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = cPow(x[i]!, y[i]!);
    return makeColumn('DOUBLE', out, andValidity(validityOf(dx), validityOf(dy), n), n);
  };
}

/** random(): a fresh uniform [0, 1) double per row. */
export function compileRandom(): Kernel {
  return (batch) => {
    const n = batch.numRows;
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = Math.random();
    return makeColumn('DOUBLE', out, null, n);
  };
}
