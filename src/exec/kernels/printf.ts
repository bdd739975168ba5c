/**
 * printf(format, args...) as DuckDB runs it (fmt's sprintf, type-checked):
 * `%[flags][width][.precision]conversion` with flags `-` `+` space `0` `#`,
 * conversions d i (integers), x X o (integers, two's complement for
 * negatives as C's unsigned view of a BIGINT), c (one ASCII byte),
 * s (text: VARCHAR, and BOOLEAN / DATE / TIMESTAMP as text), f F e E g G
 * (DOUBLE), `%%`. A conversion that does not fit its argument's type, a
 * missing argument or an unknown conversion is an error, as in DuckDB
 * (`printf('%s', 1)` is one). Length modifiers (l, ll, h) are accepted and
 * ignored. Doubles round exact ties to even, as C (JavaScript's toFixed
 * rounds them up); %f of |x| ≥ 1e21 prints the double's exact digits, where
 * DuckDB's differ after the 17th significant one. Decision: the format is
 * parsed once per distinct format text (a constant format: once per query).
 */
import { ExecutionError } from '../../relnode/errors.js';
import type { Call, LiteralValue } from '../../relnode/rex.js';
import type { SqlType } from '../../relnode/types.js';
import type { CallCompiler } from './context.js';
import { rowKernel } from './rowwise.js';

/** One piece of a parsed format: literal text, or a conversion of the next argument. */
type Piece = string | { readonly flags: string; readonly width: number; readonly precision: number | null; readonly conv: string };

const SPEC = /%([-+ 0#]*)(\d*)(?:\.(\d*))?(?:hh|h|ll|l|z|j|t|L)?([diouxXcsfFeEgG%])?/g;

function parse(format: string): Piece[] {
  const out: Piece[] = [];
  let last = 0;
  for (const m of format.matchAll(SPEC)) {
    if (m.index! > last) out.push(format.slice(last, m.index));
    const conv = m[4];
    if (conv === undefined) throw new ExecutionError(`printf: invalid format specifier at "${format.slice(m.index!, m.index! + 4)}" in '${format}'`);
    if (conv === '%') out.push('%');
    else out.push({ flags: m[1]!, width: m[2] === '' ? 0 : Number(m[2]), precision: m[3] === undefined ? null : Number(m[3] || '0'), conv });
    last = m.index! + m[0].length;
  }
  if (last < format.length) out.push(format.slice(last));
  return out;
}

/**
 * True when x (≥ 0) lies exactly halfway at the digit after the kept ones: `long` is x with many
 * more digits (toFixed / toExponential round the exact value, so a tie shows as 5 and zeros).
 */
function isTie(long: string, keep: number): boolean {
  const digits = long.replace(/e.*$/, '').replace('.', '');
  return /^50*$/.test(digits.slice(keep));
}

/** The last kept digit of `short` is odd: C rounds an exact tie to even, JavaScript up. */
function oddLast(truncated: string): boolean {
  const d = truncated.replace(/e.*$/, '').replace('.', '');
  return (Number(d[d.length - 1]) & 1) === 1;
}

/** C's %.pf of x ≥ 0: every integer digit (1e300 too) and ties to even. */
function fixedC(x: number, p: number): string {
  if (x >= 1e21) return BigInt(x).toString() + (p > 0 ? '.' + '0'.repeat(p) : '');
  const s = x.toFixed(p);
  if (p >= 100) return s;
  const long = x.toFixed(100);
  const intLen = long.indexOf('.');
  if (!isTie(long, intLen + p)) return s;
  const truncated = long.slice(0, p === 0 ? intLen : intLen + 1 + p);
  return oddLast(truncated) ? s : truncated;
}

/** C's %.pe of x ≥ 0: ties to even, at least two exponent digits. */
function expForm(x: number, p: number, upper: boolean): string {
  let s = x.toExponential(p);
  if (p < 99 && x !== 0) {
    const long = x.toExponential(100);
    if (long.slice(long.indexOf('e')) === s.slice(s.indexOf('e')) && isTie(long, p + 1)) {
      const mant = long.slice(0, p === 0 ? 1 : p + 2);
      if (!oddLast(mant)) s = mant + s.slice(s.indexOf('e'));
    }
  }
  s = s.replace(/e([+-])(\d)$/, 'e$10$2');
  return upper ? s.toUpperCase() : s;
}

/** A mantissa without trailing zeros after its point (and without a bare point). */
const stripZeros = (m: string): string => (m.includes('.') ? m.replace(/0+$/, '').replace(/\.$/, '') : m);

/** C's %g: %e or %f by the exponent after rounding to P digits, trailing zeros removed unless `#`. */
function general(x: number, p: number, alt: boolean, upper: boolean): string {
  const P = p === 0 ? 1 : p;
  const X = x === 0 ? 0 : Number(x.toExponential(P - 1).split('e')[1]);
  const s = P > X && X >= -4 ? fixedC(x, P - 1 - X) : expForm(x, P - 1, upper);
  if (alt) return s;
  const i = s.search(/[eE]/);
  return i < 0 ? stripZeros(s) : stripZeros(s.slice(0, i)) + s.slice(i);
}

function formatDouble(x: number, conv: string, prec: number | null, alt: boolean): string {
  const upper = conv === 'F' || conv === 'E' || conv === 'G';
  if (!Number.isFinite(x)) return Number.isNaN(x) ? (upper ? 'NAN' : 'nan') : `${x < 0 ? '-' : ''}${upper ? 'INF' : 'inf'}`;
  const p = prec ?? 6;
  switch (conv) {
    case 'f': case 'F': return fixedC(x, p);
    case 'e': case 'E': return expForm(x, p, upper);
    default: return general(x, p, alt, upper);
  }
}

function formatInt(v: bigint, conv: string, prec: number | null, alt: boolean): string {
  const u = BigInt.asUintN(64, v);
  let digits = conv === 'x' ? u.toString(16) : conv === 'X' ? u.toString(16).toUpperCase() : conv === 'o' ? u.toString(8) : (v < 0n ? -v : v).toString();
  if (prec !== null) digits = digits.padStart(prec, '0');
  if (alt && v !== 0n) digits = (conv === 'x' ? '0x' : conv === 'X' ? '0X' : conv === 'o' && !digits.startsWith('0') ? '0' : '') + digits;
  return digits;
}

function typeName(t: SqlType): string {
  return t === 'INTEGER' || t === 'BIGINT' ? 'an integer' : t === 'DOUBLE' ? 'a DOUBLE' : 'text';
}

function convert(p: Exclude<Piece, string>, v: LiteralValue, t: SqlType, format: string): string {
  const { flags, conv } = p;
  const isInt = t === 'INTEGER' || t === 'BIGINT';
  const fits = 'dixXouc'.includes(conv) ? isInt : 'fFeEgG'.includes(conv) ? t === 'DOUBLE' : t === 'VARCHAR';
  if (!fits) throw new ExecutionError(`printf: %${conv} does not format ${typeName(t)} (in '${format}')`);
  let body: string;
  let sign = '';
  if (conv === 's') body = p.precision === null ? (v as string) : Array.from(v as string).slice(0, p.precision).join('');
  else if (conv === 'c') {
    // C's %c writes one byte (the value's low 8 bits); a byte ≥ 0x80 alone is not UTF-8 (DuckDB's error too).
    const byte = Number(BigInt.asUintN(8, BigInt(v as number | bigint)));
    if (byte >= 0x80) throw new ExecutionError(`printf: %c writes one byte and ${String(v)} is not ASCII; use chr(${String(v)}) for a Unicode code point`);
    body = String.fromCharCode(byte);
  }
  else if (isInt) {
    const b = BigInt(v as number | bigint);
    const signed = conv === 'd' || conv === 'i';
    if (signed) sign = b < 0n ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '';
    body = formatInt(b, conv, p.precision, flags.includes('#'));
  } else {
    const x = v as number;
    const s = formatDouble(Math.abs(x), conv, p.precision, flags.includes('#'));
    sign = x < 0 || Object.is(x, -0) ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '';
    body = s;
  }
  const len = Array.from(sign + body).length;
  if (len >= p.width) return sign + body;
  const fill = p.width - len;
  if (flags.includes('-')) return sign + body + ' '.repeat(fill);
  const zeros = flags.includes('0') && conv !== 's' && conv !== 'c' && !(isInt && p.precision !== null) && /\d/.test(body[0] ?? '');
  return zeros ? sign + '0'.repeat(fill) + body : ' '.repeat(fill) + sign + body;
}

/** A printf row function for arguments of `types` (the first is the format). */
export function printfFn(types: readonly SqlType[]): (args: LiteralValue[]) => LiteralValue {
  const cache = new Map<string, Piece[]>();
  return ([format, ...args]) => {
    const f = format as string;
    let pieces = cache.get(f);
    if (pieces === undefined) {
      pieces = parse(f);
      if (cache.size < 1000) cache.set(f, pieces);
    }
    let out = '';
    let k = 0;
    for (const p of pieces) {
      if (typeof p === 'string') { out += p; continue; }
      if (k >= args.length) throw new ExecutionError(`printf: the format '${f}' needs more than ${args.length} argument${args.length === 1 ? '' : 's'}`);
      out += convert(p, args[k]!, types[k + 1]!, f);
      k++;
    }
    return out;
  };
}

/** Compiles printf (NULL if any argument is NULL, as DuckDB). */
export const compilePrintf: CallCompiler = (e: Call, ctx) =>
  rowKernel(e.args.map((a) => ctx.compile(a)), 'VARCHAR', printfFn(e.args.map((a) => a.type)));
