/**
 * The function library's scalar functions beyond the core operators
 * (functions.ts): strings, math, dates and times, regular expressions, in
 * DuckDB's semantics with eddy's types (DuckDB's TINYINT results are
 * INTEGER here, its DECIMAL results DOUBLE). Each def is a Call id with its
 * argument coercions and result type; kernels live in exec (string-lib.ts,
 * math-lib.ts, date-lib.ts, regex-lib.ts), and the user-facing names,
 * signatures and descriptions in function-registry.ts.
 */
import type { FunctionDef } from './functions.js';
import { expect, isMismatch, mismatch, numericResult, toCommon, type TypeMismatch } from './type-rules.js';
import type { SqlType } from './types.js';

const V: SqlType = 'VARCHAR';

function def(id: string, min: number, max: number, returnType: FunctionDef['returnType'], argTypes?: FunctionDef['argTypes'], deterministic = true): FunctionDef {
  return { id, display: id, minArgs: min, maxArgs: max, deterministic, returnType, ...(argTypes ? { argTypes } : {}) };
}

/** A function of fixed argument types (VARCHAR arguments are not cast: a non-string is an error). */
function typed(id: string, want: SqlType[], res: SqlType, min = want.length): FunctionDef {
  return def(id, min, want.length, expect(id, want, res), (a) => a.map((t, i) => {
    const w = want[i]!;
    return w === 'INTEGER' || w === 'DOUBLE' || w === 'BIGINT' ? (t === 'NULL' ? w : t === 'VARCHAR' ? t : w) : t;
  }));
}

/** A DOUBLE → DOUBLE function (trigonometry, logarithms). */
function dbl(id: string, args = 1): FunctionDef {
  return def(id, args, args, (a) => { const r = numericResult(id)(a); return isMismatch(r) ? r : 'DOUBLE'; }, (a) => a.map(() => 'DOUBLE'));
}

const temporal = (name: string, i: number) => (a: readonly SqlType[]): TypeMismatch | undefined => {
  const t = a[i];
  return t === 'DATE' || t === 'TIMESTAMP' || t === 'NULL' ? undefined : mismatch(`${name} expects a DATE or TIMESTAMP, got ${t}`);
};

/** part-first date functions: date_trunc('month', d), date_diff('day', a, b), date_part('dow', d). */
function partFn(id: string, res: SqlType, dates: number): FunctionDef {
  return def(id, 1 + dates, 1 + dates, (a) => {
    if (a[0] !== V && a[0] !== 'NULL') return mismatch(`${id} expects a part name (VARCHAR) first, got ${a[0]}`);
    for (let i = 1; i <= dates; i++) { const m = temporal(id, i)(a); if (m) return m; }
    return res;
  }, (a) => {
    if (dates === 2 && a[1] !== a[2] && a[1] !== 'NULL' && a[2] !== 'NULL') return [a[0]!, 'TIMESTAMP', 'TIMESTAMP'];
    return a;
  });
}

/** The most general of the arguments' types; greatest/least and friends. */
/** An integer argument (INTEGER or BIGINT; DuckDB's bit functions reject DOUBLE). */
const integral = (name: string, res: SqlType) => (a: readonly SqlType[]): SqlType | TypeMismatch => {
  for (const t of a) if (t !== 'INTEGER' && t !== 'BIGINT' && t !== 'NULL') return mismatch(`${name} expects INTEGER or BIGINT arguments, got ${a.join(', ')}`);
  return res;
};

/** hex / bin: an integer (as BIGINT, two's complement) or a string (its UTF-8 bytes). */
const intOrString = (name: string): FunctionDef => def(name, 1, 1,
  (a) => (a[0] === V || a[0] === 'BIGINT' || a[0] === 'NULL' ? V : mismatch(`${name} expects an integer or a VARCHAR, got ${a[0]}`)),
  (a) => (a[0] === 'INTEGER' ? ['BIGINT'] : a));

/** epoch_ms(DATE|TIMESTAMP) is the instant in ms (BIGINT); epoch_ms(integer) the TIMESTAMP of that many ms. */
const epochMs = def('epoch_ms', 1, 1, (a) => {
  const t = a[0];
  if (t === 'DATE' || t === 'TIMESTAMP') return 'BIGINT';
  return t === 'BIGINT' || t === 'NULL' ? 'TIMESTAMP' : mismatch(`epoch_ms expects a DATE, a TIMESTAMP or an integer of milliseconds, got ${t}`);
}, (a) => (a[0] === 'INTEGER' || a[0] === 'NULL' ? ['BIGINT'] : a));

/** make_timestamp(microseconds) or make_timestamp(year, month, day, hour, minute, seconds). */
const makeTimestamp = def('make_timestamp', 1, 6, (a) => {
  if (a.length !== 1 && a.length !== 6) return mismatch(`make_timestamp takes 1 argument (microseconds since the epoch) or 6 (year, month, day, hour, minute, seconds), got ${a.length}`);
  return expect('make_timestamp', a.length === 1 ? ['BIGINT'] : ['BIGINT', 'BIGINT', 'BIGINT', 'BIGINT', 'BIGINT', 'DOUBLE'], 'TIMESTAMP')(a);
}, (a) => a.map((t, i) => (t === 'VARCHAR' ? t : i === 5 ? 'DOUBLE' : 'BIGINT')));

const commonOf = (name: string) => (a: readonly SqlType[]): SqlType | TypeMismatch => {
  const r = toCommon(name)(a);
  return isMismatch(r) ? r : (r[0] === 'NULL' || r[0] === undefined ? 'INTEGER' : r[0]);
};

/** Date parts that are also functions of their own name (part(x) = date_part('part', x)), beside the binder's shorthands (quarter, hour, ...). */
export const PART_FUNCTIONS: readonly string[] = ['century', 'millennium', 'decade', 'era', 'isoyear', 'yearweek', 'millisecond', 'microsecond', 'nanosecond'];

export const LIBRARY_DEFS: readonly FunctionDef[] = [
  // strings
  typed('replace', [V, V, V], V),
  typed('split_part', [V, V, 'INTEGER'], V),
  typed('starts_with', [V, V], 'BOOLEAN'),
  typed('ends_with', [V, V], 'BOOLEAN'),
  typed('contains', [V, V], 'BOOLEAN'),
  typed('lpad', [V, 'INTEGER', V], V),
  typed('rpad', [V, 'INTEGER', V], V),
  typed('repeat', [V, 'INTEGER'], V),
  typed('reverse', [V], V),
  typed('strpos', [V, V], 'BIGINT'),
  typed('left', [V, 'INTEGER'], V),
  typed('right', [V, 'INTEGER'], V),
  typed('ltrim', [V, V], V, 1),
  typed('rtrim', [V, V], V, 1),
  typed('trim_chars', [V, V], V),
  typed('ascii', [V], 'INTEGER'),
  typed('chr', ['INTEGER'], V),
  typed('unicode', [V], 'INTEGER'),
  typed('translate', [V, V, V], V),
  def('concat_ws', 2, Infinity, () => V, (a) => a.map(() => V)),
  // printf(format, args...): numbers stay numbers (the conversion checks their type); BOOLEAN, DATE and TIMESTAMP format as text.
  def('printf', 1, Infinity, (a) => (a[0] === V || a[0] === 'NULL' ? V : mismatch(`printf expects a format string (VARCHAR) first, got ${a[0]}`)),
    (a) => a.map((t, i) => (i === 0 || t === 'INTEGER' || t === 'BIGINT' || t === 'DOUBLE' || t === V ? t : V))),
  typed('strlen', [V], 'BIGINT'),
  typed('bit_length', [V], 'BIGINT'),
  typed('length_grapheme', [V], 'BIGINT'),
  typed('strip_accents', [V], V),
  typed('nfc_normalize', [V], V),
  typed('url_encode', [V], V),
  typed('url_decode', [V], V),
  typed('to_base64', [V], V),
  typed('levenshtein', [V, V], 'BIGINT'),
  typed('damerau_levenshtein', [V, V], 'BIGINT'),
  typed('hamming', [V, V], 'BIGINT'),
  typed('jaccard', [V, V], 'DOUBLE'),
  typed('jaro_similarity', [V, V], 'DOUBLE'),
  typed('jaro_winkler_similarity', [V, V], 'DOUBLE'),
  // hashes and identifiers
  typed('md5', [V], V),
  typed('sha1', [V], V),
  typed('sha256', [V], V),
  def('uuid', 0, 0, () => V, undefined, false),
  typed('regexp_matches', [V, V, V], 'BOOLEAN', 2),
  typed('regexp_full_match', [V, V, V], 'BOOLEAN', 2),
  typed('regexp_replace', [V, V, V, V], V, 3),
  typed('regexp_extract', [V, V, 'INTEGER'], V, 2),
  // math
  def('greatest', 1, Infinity, commonOf('greatest'), toCommon('greatest')),
  def('least', 1, Infinity, commonOf('least'), toCommon('least')),
  def('sign', 1, 1, (a) => { const r = numericResult('sign')(a); return isMismatch(r) ? r : 'INTEGER'; }),
  def('trunc', 1, 1, numericResult('trunc')),
  dbl('log10'), dbl('log'), dbl('log2'), dbl('cbrt'), dbl('sin'), dbl('cos'), dbl('tan'), dbl('cot'),
  dbl('asin'), dbl('acos'), dbl('atan'), dbl('atan2', 2), dbl('degrees'), dbl('radians'), dbl('log_base', 2),
  def('pi', 0, 0, () => 'DOUBLE'),
  def('isnan', 1, 1, expect('isnan', ['DOUBLE'], 'BOOLEAN'), () => ['DOUBLE']),
  def('isinf', 1, 1, expect('isinf', ['DOUBLE'], 'BOOLEAN'), () => ['DOUBLE']),
  def('isfinite', 1, 1, expect('isfinite', ['DOUBLE'], 'BOOLEAN'), () => ['DOUBLE']),
  def('signbit', 1, 1, expect('signbit', ['DOUBLE'], 'BOOLEAN'), () => ['DOUBLE']),
  dbl('sinh'), dbl('cosh'), dbl('tanh'), dbl('asinh'), dbl('acosh'), dbl('atanh'), dbl('even'), dbl('nextafter', 2), dbl('gamma'), dbl('lgamma'),
  typed('round_even', ['DOUBLE', 'INTEGER'], 'DOUBLE'),
  // integers and bits
  def('bit_count', 1, 1, integral('bit_count', 'INTEGER')),
  def('xor', 2, 2, (a) => { const r = integral('xor', 'INTEGER')(a); return isMismatch(r) ? r : a.includes('BIGINT') ? 'BIGINT' : 'INTEGER'; }, (a) => (a.includes('BIGINT') ? ['BIGINT', 'BIGINT'] : a.map((t) => (t === 'NULL' ? 'INTEGER' : t)))),
  typed('gcd', ['BIGINT', 'BIGINT'], 'BIGINT'),
  typed('lcm', ['BIGINT', 'BIGINT'], 'BIGINT'),
  typed('factorial', ['INTEGER'], 'BIGINT'),
  intOrString('hex'), intOrString('bin'),
  typed('to_base', ['BIGINT', 'INTEGER', 'INTEGER'], V, 2),
  typed('format_bytes', ['BIGINT'], V),
  typed('formatreadabledecimalsize', ['BIGINT'], V),
  // dates and times
  partFn('date_trunc', 'TIMESTAMP', 1),
  partFn('date_part', 'BIGINT', 1),
  def('epoch', 1, 1, (a) => temporal('epoch', 0)(a) ?? 'DOUBLE'),
  partFn('date_diff', 'BIGINT', 2),
  partFn('date_sub', 'BIGINT', 2),
  def('last_day', 1, 1, (a) => temporal('last_day', 0)(a) ?? 'DATE'),
  def('dayname', 1, 1, (a) => temporal('dayname', 0)(a) ?? V),
  def('monthname', 1, 1, (a) => temporal('monthname', 0)(a) ?? V),
  def('strftime', 2, 2, (a) => temporal('strftime', 0)(a) ?? (a[1] === V || a[1] === 'NULL' ? V : mismatch(`strftime expects a format string, got ${a[1]}`))),
  typed('strptime', [V, V], 'TIMESTAMP'),
  typed('try_strptime', [V, V], 'TIMESTAMP'),
  typed('make_date', ['BIGINT', 'BIGINT', 'BIGINT'], 'DATE'),
  makeTimestamp,
  typed('make_timestamp_ms', ['BIGINT'], 'TIMESTAMP'),
  epochMs,
  def('epoch_us', 1, 1, (a) => temporal('epoch_us', 0)(a) ?? 'BIGINT'),
  def('epoch_ns', 1, 1, (a) => temporal('epoch_ns', 0)(a) ?? 'BIGINT'),
  typed('to_timestamp', ['DOUBLE'], 'TIMESTAMP'),
  ...PART_FUNCTIONS.map((p) => def(p, 1, 1, (a) => temporal(p, 0)(a) ?? 'BIGINT')),
  def('julian', 1, 1, (a) => temporal('julian', 0)(a) ?? 'DOUBLE'),
  def('current_date', 0, 0, () => 'DATE', undefined, false),
  // try_cast(x, 'TYPE'): built by the binder with its result type (the target); the type name argument keeps casts to different types apart.
  def('try_cast', 2, 2, () => mismatch('try_cast is written TRY_CAST(x AS type)')),
];
