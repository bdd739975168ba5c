/**
 * The function library's math: greatest/least (NULL arguments are skipped,
 * as DuckDB), sign, trunc, logarithms, trigonometry and hyperbolic
 * functions, pi, isnan / isinf / isfinite / signbit, even, nextafter,
 * round_even, gamma / lgamma (gamma.ts). Logarithms of zero or a negative
 * number, asin/acos/atanh outside [-1, 1] and gamma/lgamma of 0 are
 * ExecutionErrors, as in DuckDB (never a silent NaN).
 */
import { ExecutionError } from '../../relnode/errors.js';
import type { Call, LiteralValue } from '../../relnode/rex.js';
import type { CallCompiler } from './context.js';
import { gamma, lgamma } from './gamma.js';
import { roundDouble } from './math.js';
import { rowKernel, type RowFn } from './rowwise.js';

const num = (v: LiteralValue): number => Number(v);

function log(name: string, f: (x: number) => number): RowFn {
  return ([x]) => {
    const v = num(x);
    if (v === 0) throw new ExecutionError(`cannot take logarithm of zero: ${name}(0)`);
    if (v < 0) throw new ExecutionError(`cannot take logarithm of a negative number: ${name}(${v})`);
    return f(v);
  };
}

function unitRange(name: string, f: (x: number) => number): RowFn {
  return ([x]) => {
    const v = num(x);
    if (v < -1 || v > 1) throw new ExecutionError(`${name}(${v}) is undefined outside [-1, 1]`);
    return f(v);
  };
}

/** Greater-than on values of one SqlType (numbers, bigints, strings by code point, booleans). */
function greater(a: LiteralValue, b: LiteralValue): boolean {
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b) > 0;
  return (a as number) > (b as number);
}

/** Code-point order of two strings (UTF-8 byte order, DuckDB's string order). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!, y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

function extreme(max: boolean): RowFn {
  return (vals) => {
    let best: LiteralValue = null;
    for (const v of vals) if (v !== null && (best === null || (max ? greater(v, best) : greater(best, v)))) best = v;
    return best;
  };
}

/** even(x): rounded away from zero to the next even integer (DuckDB's EvenOperator). */
function even(x: number): number {
  let v = x >= 0 ? Math.ceil(x) : -Math.ceil(-x);
  if (Math.floor(v / 2) * 2 !== v) v += x >= 0 ? 1 : -1;
  return v + 0;
}

const f64 = new Float64Array(1);
const i64 = new BigInt64Array(f64.buffer);

/** The next double after x toward y (C's nextafter). */
function nextAfter(x: number, y: number): number {
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (x === y) return y;
  if (x === 0) return y > 0 ? Number.MIN_VALUE : -Number.MIN_VALUE;
  f64[0] = x;
  i64[0]! += (y > x) === (x > 0) ? 1n : -1n;
  return f64[0]!;
}

/** round_even(x, n): DuckDB's macro, half to even where the digit after the n-th is 5 (CASE (abs(x) * 10^(n+1)) % 10 WHEN 5 ...). */
function roundEven(x: number, n: number): number {
  return (Math.abs(x) * 10 ** (n + 1)) % 10 === 5 ? roundDouble(x / 2, n) * 2 : roundDouble(x, n);
}

const FNS: Readonly<Record<string, RowFn>> = {
  sign: ([x]) => (typeof x === 'bigint' ? (x > 0n ? 1 : x < 0n ? -1 : 0) : Math.sign(num(x)) || 0),
  trunc: ([x]) => (typeof x === 'bigint' ? x : Math.trunc(num(x))),
  log10: log('log10', Math.log10),
  // log(x) as the user wrote it (the binder's one-argument log; errors name log, not log10).
  log: log('log', Math.log10),
  log2: log('log2', Math.log2),
  // The base is checked as DuckDB does: 0 or negative cannot be a logarithm's base, and 1 divides by zero.
  log_base: ([b, x]) => {
    const bv = num(b), xv = num(x);
    // The message's text is built only on a failure (this runs per row).
    if (xv > 0 && bv > 0 && bv !== 1) return Math.log(xv) / Math.log(bv);
    const shown = `log(${bv}, ${xv})`;
    if (xv === 0 || bv === 0) throw new ExecutionError(`cannot take logarithm of zero: ${shown}`);
    if (xv < 0 || bv < 0) throw new ExecutionError(`cannot take logarithm of a negative number: ${shown}`);
    if (bv === 1) throw new ExecutionError(`division by zero in a logarithm to base 1: ${shown}`);
    return Math.log(xv) / Math.log(bv); // NaN operands
  },
  cbrt: ([x]) => Math.cbrt(num(x)),
  sin: ([x]) => Math.sin(num(x)),
  cos: ([x]) => Math.cos(num(x)),
  tan: ([x]) => Math.tan(num(x)),
  cot: ([x]) => 1 / Math.tan(num(x)),
  asin: unitRange('asin', Math.asin),
  acos: unitRange('acos', Math.acos),
  atan: ([x]) => Math.atan(num(x)),
  atan2: ([y, x]) => Math.atan2(num(y), num(x)),
  degrees: ([x]) => (num(x) * 180) / Math.PI,
  radians: ([x]) => (num(x) * Math.PI) / 180,
  pi: () => Math.PI,
  isnan: ([x]) => Number.isNaN(num(x)),
  isinf: ([x]) => num(x) === Infinity || num(x) === -Infinity,
  isfinite: ([x]) => Number.isFinite(num(x)),
  signbit: ([x]) => num(x) < 0 || Object.is(num(x), -0),
  sinh: ([x]) => Math.sinh(num(x)),
  cosh: ([x]) => Math.cosh(num(x)),
  tanh: ([x]) => Math.tanh(num(x)),
  asinh: ([x]) => Math.asinh(num(x)),
  acosh: ([x]) => Math.acosh(num(x)),
  atanh: ([x]) => {
    const v = num(x);
    if (v < -1 || v > 1) throw new ExecutionError(`atanh(${v}) is undefined outside [-1, 1]`);
    return Math.atanh(v);
  },
  even: ([x]) => even(num(x)),
  nextafter: ([x, y]) => nextAfter(num(x), num(y)),
  round_even: ([x, n]) => roundEven(num(x), num(n)),
  gamma: ([x]) => {
    if (num(x) === 0) throw new ExecutionError('cannot take gamma of zero: gamma(0)');
    return gamma(num(x));
  },
  lgamma: ([x]) => {
    if (num(x) === 0) throw new ExecutionError('cannot take log gamma of zero: lgamma(0)');
    return lgamma(num(x));
  },
  greatest: extreme(true),
  least: extreme(false),
};

/** The ids compiled here. */
export const MATH_LIB_IDS: readonly string[] = Object.keys(FNS);

/** greatest/least see NULL arguments; every other function here is NULL on a NULL argument. */
export const MATH_NON_STRICT: readonly string[] = ['greatest', 'least'];

/** Compiles one of MATH_LIB_IDS. */
export const compileMathLib: CallCompiler = (e: Call, ctx) => {
  const args = e.args.map((a) => ctx.compile(a));
  return rowKernel(args, e.type, FNS[e.op]!, !MATH_NON_STRICT.includes(e.op));
};
