/**
 * Integer functions (DuckDB semantics): bit_count and xor on two's
 * complement INTEGER/BIGINT, gcd / lcm (BIGINT, errors where DuckDB
 * overflows), factorial (BIGINT: up to 20!, where DuckDB's HUGEINT holds up
 * to 33!), hex / bin of an integer (its 64-bit two's complement, upper case,
 * no leading zeros; of a string they are string-encode-lib.ts's),
 * to_base(n, radix[, min_length]), and format_bytes /
 * formatReadableDecimalSize (a byte count in binary / decimal units).
 */
import { ExecutionError } from '../../relnode/errors.js';
import type { Call, LiteralValue } from '../../relnode/rex.js';
import type { CallCompiler } from './context.js';
import { rowKernel, type RowFn } from './rowwise.js';
import { compileStringEncode } from './string-encode-lib.js';

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/** Set bits of an INTEGER (32 bits) or BIGINT (64 bits) in two's complement: bit_count(-1) is 32 or 64. */
function bitCount(v: LiteralValue): number {
  if (typeof v !== 'bigint') return popcount32(Number(v) >>> 0);
  const u = BigInt.asUintN(64, v);
  return popcount32(Number(u & 0xffffffffn)) + popcount32(Number(u >> 32n));
}

function absChecked(fn: string, v: bigint): bigint {
  if (v === INT64_MIN) throw new ExecutionError(`${fn}: overflow on abs(${v})`);
  return v < 0n ? -v : v;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = absChecked('gcd', a), y = absChecked('gcd', b);
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

function lcm(a: bigint, b: bigint): bigint {
  if (a === 0n || b === 0n) return 0n;
  // Both checked here first: gcd's own check would name gcd, which the user did not write.
  const x = absChecked('lcm', a), y = absChecked('lcm', b);
  const r = (x / gcd(x, y)) * y;
  if (r > INT64_MAX) throw new ExecutionError(`lcm(${a}, ${b}) is out of range for BIGINT`);
  return r;
}

function factorial(n: number): bigint {
  if (n < 0) throw new ExecutionError(`factorial(${n}): the factorial of a negative number is undefined`);
  if (n > 20) throw new ExecutionError(`factorial(${n}) is out of range for BIGINT (20! is the largest)`);
  let r = 1n;
  for (let k = 2n; k <= BigInt(n); k++) r *= k;
  return r;
}

function toBase(n: bigint, radix: number, minLength: number): string {
  if (n < 0n) throw new ExecutionError(`to_base: the number must be ≥ 0, got ${n}`);
  if (!(radix >= 2 && radix <= 36)) throw new ExecutionError(`to_base: the radix must be between 2 and 36, got ${radix}`);
  if (minLength < 0) throw new ExecutionError(`to_base: the minimum length must be ≥ 0, got ${minLength}`);
  return n.toString(radix).toUpperCase().padStart(minLength, '0');
}

const UNITS = [['bytes', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'], ['bytes', 'kB', 'MB', 'GB', 'TB', 'PB']] as const;

/** DuckDB's BytesToHumanReadableString: the largest unit with a non-zero count, and one truncated decimal of the next. */
function formatBytes(v: bigint, base: 1024n | 1000n): string {
  const sign = v < 0n ? '-' : '';
  const bytes = v < 0n ? -v : v;
  const parts = [bytes];
  for (let i = 1; i < 6; i++) { parts.push(parts[i - 1]! / base); parts[i - 1] = parts[i - 1]! % base; }
  for (let i = 5; i >= 1; i--) {
    if (parts[i] !== 0n) return `${sign}${parts[i]}.${(parts[i - 1]! * 10n) / base} ${UNITS[base === 1000n ? 1 : 0][i]}`;
  }
  return `${sign}${bytes} ${bytes === 1n ? 'byte' : 'bytes'}`;
}

const FNS: Readonly<Record<string, RowFn>> = {
  bit_count: ([x]) => bitCount(x),
  xor: ([a, b]) => (typeof a === 'bigint' ? a ^ (b as bigint) : Number(a) ^ Number(b)),
  gcd: ([a, b]) => gcd(a as bigint, b as bigint),
  lcm: ([a, b]) => lcm(a as bigint, b as bigint),
  factorial: ([n]) => factorial(Number(n)),
  hex: ([x]) => BigInt.asUintN(64, x as bigint).toString(16).toUpperCase(),
  bin: ([x]) => BigInt.asUintN(64, x as bigint).toString(2),
  format_bytes: ([x]) => formatBytes(x as bigint, 1024n),
  formatreadabledecimalsize: ([x]) => formatBytes(x as bigint, 1000n),
  to_base: ([n, r, len]) => toBase(n as bigint, Number(r), len === undefined ? 0 : Number(len)),
};

/** The ids compiled here. */
export const INT_LIB_IDS: readonly string[] = Object.keys(FNS);

/** Compiles one of INT_LIB_IDS (hex / bin of a VARCHAR go to string-encode-lib.ts). */
export const compileIntLib: CallCompiler = (e: Call, ctx) => {
  if ((e.op === 'hex' || e.op === 'bin') && e.args[0]!.type === 'VARCHAR') return compileStringEncode(e, ctx);
  return rowKernel(e.args.map((a) => ctx.compile(a)), e.type, FNS[e.op]!);
};
