/**
 * Scalar functions a DuckDB user reaches for (epoch_ms / epoch_us / epoch_ns, to_timestamp,
 * make_timestamp(us), md5 / sha1 / sha256, bit_count, gcd / lcm, factorial, hex / bin / to_base, the
 * edit distances, url_encode / url_decode, the date parts as functions, ...), checked against DuckDB
 * over a table with NULLs, negatives, non-ASCII text and dates before 1970; then the errors DuckDB
 * raises, and the same answers at parallelism 1 and 2.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { expectSameAtP1AndP2, oracleTable } from '../helpers/oracle-table.js';

const ROWS = [
  { i: 7, b: 1577934245678, x: 2.5, s: 'hello world', t: 'abc', d: '2020-01-02', ts: '2020-01-02 03:04:05.678' },
  { i: -1, b: -1, x: -3.25, s: 'Ångström ñ', t: 'Angstrom', d: '1969-12-31', ts: '1969-12-31 23:59:59.001' },
  { i: 0, b: 0, x: 0, s: '', t: 'x', d: '2021-01-01', ts: '2021-01-01 00:00:00' },
  { i: 12, b: 253_402_300_799_999, x: 1e-3, s: 'a b/c?d=é~_.-!*()', t: 'a b', d: '1900-02-28', ts: '1899-12-31 12:30:00.5' },
  { i: null, b: null, x: null, s: null, t: null, d: null, ts: null },
  { i: 2147483647, b: -62_135_596_800_000, x: 1e9 + 0.5, s: 'kitten', t: 'sitting', d: '2000-02-29', ts: '2262-04-11 23:47:16' },
];
const TYPES = { i: 'INTEGER', b: 'BIGINT', x: 'DOUBLE', s: 'VARCHAR', t: 'VARCHAR', d: 'DATE', ts: 'VARCHAR' } as const;
const { duck, env } = oracleTable('t', TYPES, ROWS);

/** Timestamps come in as text (the row loader has no TIMESTAMP column type). */
const TS = 'CAST(ts AS TIMESTAMP)';

const SAME = [
  // epochs
  `SELECT epoch_ms(d) AS a, epoch_ms(${TS}) AS b, epoch_us(d) AS c, epoch_us(${TS}) AS e, epoch_ms(b) AS f FROM t`,
  `SELECT epoch_ns(d) AS a, epoch_ns(${TS}) AS c FROM t WHERE ts < '2262'`,
  'SELECT epoch_ms(i) AS a, epoch_ms(NULL) AS n, epoch_ms(epoch_ms(d)) AS r FROM t',
  // DuckDB's to_timestamp is a TIMESTAMP WITH TIME ZONE: compared through epoch_ms.
  'SELECT epoch_ms(to_timestamp(x)) AS a, epoch_ms(to_timestamp(i)) AS b, epoch_ms(to_timestamp(1577934245.5)) AS c, epoch_ms(to_timestamp(-86400.25)) AS e FROM t',
  'SELECT make_timestamp(b * 1000) AS a, make_timestamp(1577934245678000) AS c FROM t',
  // date parts as functions
  `SELECT century(d) AS a, millennium(d) AS b, decade(d) AS c, era(d) AS e, isoyear(d) AS f, yearweek(d) AS g FROM t`,
  `SELECT millisecond(${TS}) AS a, microsecond(${TS}) AS b, nanosecond(${TS}) AS c, millisecond(d) AS e, century(${TS}) AS f FROM t`,
  `SELECT julian(d) AS a, julian(${TS}) AS b, date_part('era', d) AS c, extract(era FROM ${TS}) AS e FROM t`,
  // hashes
  'SELECT md5(s) AS a, sha1(s) AS b, sha256(s) AS c, md5(t || s) AS e FROM t',
  // integers and bits
  'SELECT bit_count(i) AS a, bit_count(b) AS c, bit_count(i::BIGINT) AS e, xor(i, 5) AS f, xor(b, 3::BIGINT) AS g FROM t',
  'SELECT gcd(i, 18) AS a, lcm(i, 6) AS c, gcd(b, 12) AS e, gcd(0, 0) AS f, lcm(-4, 6) AS g FROM t',
  'SELECT factorial(i % 21) AS a FROM t WHERE i >= 0',
  'SELECT hex(i) AS a, hex(b) AS c, hex(s) AS e, bin(i) AS f, bin(t) AS g, to_hex(255) AS h, to_binary(5) AS k FROM t',
  'SELECT format_bytes(b) AS a, formatReadableSize(b * 1000) AS c, formatReadableDecimalSize(b) AS e, format_bytes(i) AS f FROM t',
  "SELECT like_escape(s, 'h%', '$') AS a, like_escape('a%c', 'a$%c', '$') AS c, ilike_escape(s, 'HEL$%', '$') AS e, ilike_escape('A%C', 'a$%c', '$') AS f FROM t",
  "SELECT printf('%d|%5d|%-6d|%05d|%+d|%x|%X|%o|%#x', i, i, i, i, i, i, b, i, i) AS a, printf('[%s|%8s|%-8s|%.3s]', s, t, t, s) AS c FROM t",
  "SELECT printf('%f|%.2f|%10.3f|%e|%.1E|%g|%.3g|%+.0f|%08.2f', x, x, x, x, x, x, x, x, x) AS a, printf('%s %s %s', d, CAST(ts AS TIMESTAMP), i > 0) AS c, printf('%c%c', 65 + i % 26, 321) AS e FROM t",
  "SELECT printf('%.0f %.1f %.2f %.0e %.1e %g %.2g', 0.5, 0.25, 1.125, 2.5, 1.25, 0.0001, 0.125) AS a, printf('%%d %ld', 7) AS c, printf(NULL, 1) AS e",
  'SELECT to_base(abs(b), 2) AS a, to_base(abs(b), 36, 20) AS c, to_base(0, 7) AS e FROM t',
  // math
  'SELECT isfinite(x) AS a, signbit(x) AS c, even(x) AS e, even(i) AS f, nextafter(x, 0) AS g FROM t',
  'SELECT sinh(x / 1e9) AS a, cosh(x / 1e9) AS c, tanh(x) AS e, asinh(x) AS f, acosh(abs(x) + 1) AS g, atanh(x / 1e10) AS h FROM t',
  // gamma.ts agrees with C's tgamma / lgamma to ~14 digits (the comparison's tolerance is 1e-9).
  'SELECT gamma(x) AS a, lgamma(x) AS c, gamma(-1.5) AS e, gamma(171.5) AS f, lgamma(1e10) AS g, gamma(-1) AS h, lgamma(-1) AS k FROM t WHERE x <> 0 AND x < 100',
  'SELECT round_even(x, 0) AS a, round_even(x, 1) AS c, round_even(i % 1000, -1) AS e, roundbankers(0.5, 0) AS f FROM t',
  // strings
  "SELECT translate(s, 'lo', 'L') AS a, translate(s, 'Åö', 'AO') AS c, concat_ws('-', s, t, NULL, i) AS e, concat_ws(NULL, s) AS f FROM t",
  'SELECT strlen(s) AS a, bit_length(s) AS c, unicode(s) AS e, length_grapheme(s) AS f, prefix(s, t) AS g FROM t',
  'SELECT url_encode(s) AS a, url_decode(url_encode(s)) AS c FROM t',
  "SELECT url_decode('a+b%20c%4%zz%C3%A9') AS a, strip_accents(s) AS c, nfc_normalize(s) AS e FROM t",
  'SELECT levenshtein(s, t) AS a, editdist3(s, t) AS c, damerau_levenshtein(s, t) AS e, damerau_levenshtein(t, s) AS f FROM t',
  "SELECT jaro_similarity(s, t) AS a, jaro_winkler_similarity(s, t) AS c, jaro_similarity('martha', 'marhta') AS e, jaro_winkler_similarity('dixon', 'dicksonx') AS f FROM t",
  "SELECT jaccard(s, t) AS a, hamming(t, t) AS c, mismatches('karolin', 'kathrin') AS e FROM t WHERE s <> ''",
  "SELECT damerau_levenshtein('ca', 'abc') AS a, levenshtein('', 'abc') AS c, jaro_similarity('', '') AS e",
];

describe('more scalar functions as DuckDB', () => {
  for (const q of SAME) {
    it(q, async () => {
      expectSameResult(fromArrow(await env().sql(q).collect()), await duck().query(q), { ordered: false, names: false, kinds: false });
    });
  }

  it('to_base64 of ASCII text is DuckDB\'s of the text as a BLOB', async () => {
    const ours = fromArrow(await env().sql('SELECT to_base64(t) AS e, base64(t) AS f FROM t').collect());
    expectSameResult(ours, await duck().query('SELECT to_base64(t::BLOB) AS e, base64(t::BLOB) AS f FROM t'), { ordered: false, names: false });
    expect(fromArrow(await env().sql("SELECT to_base64('é') AS e").collect()).rows[0]).toEqual(['w6k=']);
  });

  it('result types as DuckDB (TINYINT → INTEGER, HUGEINT → BIGINT, TIMESTAMP WITH TIME ZONE → TIMESTAMP)', async () => {
    const q = "SELECT typeof(epoch_ms(d)), typeof(epoch_ms(b)), typeof(epoch_us(d)), typeof(to_timestamp(x)), typeof(md5(s)), typeof(bit_count(i)), typeof(gcd(i, 2)), typeof(factorial(3)), typeof(century(d)), typeof(julian(d)), typeof(levenshtein(s, t)), typeof(jaccard(s, t)) FROM t LIMIT 1";
    const got = fromArrow(await env().sql(q).collect()).rows[0];
    expect(got).toEqual(['BIGINT', 'TIMESTAMP', 'BIGINT', 'TIMESTAMP', 'VARCHAR', 'INTEGER', 'BIGINT', 'BIGINT', 'BIGINT', 'DOUBLE', 'BIGINT', 'DOUBLE']);
  });

  it('microseconds and fractions of a millisecond floor to the millisecond', async () => {
    const q = 'SELECT epoch_ms(make_timestamp(-1500)) AS a, epoch_ms(make_timestamp(1999)) AS b, epoch_ms(to_timestamp(1.0005)) AS c, epoch_ms(to_timestamp(-0.0005)) AS e, epoch_us(make_timestamp(1234567)) AS f';
    expect(fromArrow(await env().sql(q).collect()).rows[0]).toEqual([-2, 1, 1000, -1, 1234000]);
  });

  it('uuid() is a fresh version-4 UUID per row, never cached', async () => {
    const q = 'SELECT uuid() AS u, gen_random_uuid() AS g FROM range(1000)';
    const rows = fromArrow(await env().sql(q).collect()).rows;
    const all = rows.flatMap((r) => r as string[]);
    for (const u of all) expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(all).size).toBe(2000);
    const again = fromArrow(await env().sql(q).collect()).rows;
    expect(again[0]![0]).not.toBe(rows[0]![0]);
  });
});

const ERRORS: readonly (readonly [string, RegExp])[] = [
  ['SELECT epoch_ns(TIMESTAMP \'3000-01-01\')', /epoch_ns: .* out of range for BIGINT nanoseconds/],
  ['SELECT to_timestamp(1e20)', /to_timestamp\(1e\+?20\): out of range for TIMESTAMP|to_timestamp\(100000000000000000000\): out of range/],
  ["SELECT to_timestamp('nan'::DOUBLE)", /epoch seconds out of range/],
  ['SELECT epoch_ms(9000000000000000)', /epoch_ms\(9000000000000000\): out of range for TIMESTAMP/],
  ['SELECT epoch_ms(1.5)', /epoch_ms expects a DATE, a TIMESTAMP or an integer of milliseconds, got DOUBLE/],
  ['SELECT epoch_us(5)', /epoch_us expects a DATE or TIMESTAMP, got INTEGER/],
  ['SELECT make_timestamp(1, 2)', /make_timestamp takes 1 argument \(microseconds since the epoch\) or 6/],
  ['SELECT bit_count(1.5)', /bit_count expects INTEGER or BIGINT arguments, got DOUBLE/],
  ['SELECT xor(1, 2.5)', /xor expects INTEGER or BIGINT arguments/],
  ['SELECT md5(5)', /md5 expects VARCHAR, got INTEGER/],
  ['SELECT factorial(-1)', /factorial of a negative number is undefined/],
  ['SELECT lcm(9223372036854775807, 2)', /out of range for BIGINT/],
  ['SELECT gcd(-9223372036854775808, 0)', /overflow on abs/],
  ['SELECT to_base(-1, 16)', /the number must be ≥ 0/],
  ['SELECT to_base(255, 37)', /the radix must be between 2 and 36/],
  ['SELECT hamming(\'abc\', \'ab\')', /equal lengths/],
  ["SELECT hamming('', '')", /must not be empty/],
  ["SELECT jaccard('', 'a')", /jaccard: an argument is empty/],
  ["SELECT url_decode('%e9')", /not valid UTF-8/],
  ['SELECT atanh(2)', /atanh\(2\) is undefined outside \[-1, 1\]/],
  ["SELECT printf('%s', 1)", /printf: %s does not format an integer/],
  ["SELECT printf('%d', 1.5::DOUBLE)", /printf: %d does not format a DOUBLE/],
  ["SELECT printf('%d', 'a')", /printf: %d does not format text/],
  ["SELECT printf('%s %s', 'a')", /needs more than 1 argument/],
  ["SELECT printf('%q', 1)", /invalid format specifier/],
  ["SELECT printf('%c', 233)", /%c writes one byte and 233 is not ASCII; use chr\(233\)/],
  ['SELECT gamma(0)', /cannot take gamma of zero/],
  ['SELECT lgamma(0)', /cannot take log gamma of zero/],
  ['SELECT hex(1.5)', /hex expects an integer or a VARCHAR, got DOUBLE/],
];

/** Runs a query in eddy; binding errors surface as a rejection too. */
const run = async (q: string): Promise<unknown> => env().sql(q).collect();

describe('errors where DuckDB raises one', () => {
  for (const [q, re] of ERRORS) {
    it(q, async () => {
      await expect(run(q)).rejects.toThrow(re);
      await expect(duck().query(q)).rejects.toThrow();
    });
  }
  it('factorial past 20! is an error (DuckDB\'s HUGEINT holds up to 33!)', async () => {
    await expect(run('SELECT factorial(21)')).rejects.toThrow(/factorial\(21\) is out of range for BIGINT \(20! is the largest\)/);
    expect(fromArrow(await env().sql('SELECT factorial(20) AS f').collect()).rows[0]).toEqual([2432902008176640000n]);
  });
});

describe('p1 = p2 over a table shipped to workers', () => {
  it('hashes, epochs and distances', async () => {
    const big = Array.from({ length: 210_000 }, (_, k) => ({ k, s: `v${k % 977}`, n: k * 37 - 1_000_000 }));
    const r = await expectSameAtP1AndP2('big', { k: 'INTEGER', s: 'VARCHAR', n: 'BIGINT' }, big,
      'SELECT k, md5(s) AS h, bit_count(n) AS c, epoch_ms(n) AS e, levenshtein(s, \'v12\') AS l, hex(n) AS x FROM big ORDER BY k');
    expect(r.rows.length).toBe(210_000);
    const n = BigInt.asUintN(64, -999_556n);
    expect(r.rows[12]).toEqual([12, createHash('md5').update('v12').digest('hex'), [...n.toString(2)].filter((c) => c === '1').length, -999_556, 0, n.toString(16).toUpperCase()]);
  });
});
