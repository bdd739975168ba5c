/**
 * The newer scalar functions against DuckDB over seeded random inputs: the edit distances and
 * similarities of string-distance.ts over 400 pairs of short strings (a small alphabet, so matches,
 * transpositions and shared prefixes are common; some two-byte characters, since DuckDB counts
 * bytes), round_even / even / nextafter and the date-part functions over random values, and
 * date_sub for every part over 400 pairs of instants (many a month's end apart, both orders).
 */
import { describe, it } from 'vitest';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { oracleTable } from '../helpers/oracle-table.js';
import { rng } from '../helpers/rng.js';

const next = rng(20261207);
const ALPHABET = ['a', 'b', 'c', 'd', 'é', 'a', 'b'];
const word = (): string => Array.from({ length: Math.floor(next() * 8) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]!).join('');
const ROWS = Array.from({ length: 400 }, (_, k) => {
  const a = word();
  // Every fourth pair is a's bytes shuffled a little (same length: hamming applies).
  const b = k % 4 === 0 ? [...a].reverse().join('') : word();
  return { k, a, b, x: Math.round((next() - 0.5) * 2000) / 8, d: Math.floor((next() - 0.3) * 200_000) };
});
const { duck, env } = oracleTable('p', { k: 'INTEGER', a: 'VARCHAR', b: 'VARCHAR', x: 'DOUBLE', d: 'INTEGER' }, ROWS);

const SAME = [
  'SELECT k, levenshtein(a, b), damerau_levenshtein(a, b), jaro_similarity(a, b), jaro_winkler_similarity(a, b) FROM p',
  "SELECT k, jaccard(a, b) FROM p WHERE a <> '' AND b <> ''",
  'SELECT k, hamming(a, b) FROM p WHERE strlen(a) = strlen(b) AND a <> \'\'',
  'SELECT k, gamma(x / 10), lgamma(x / 10) FROM p WHERE x <> 0',
  'SELECT k, round_even(x, 0), round_even(x, 1), even(x), nextafter(x, 0), signbit(x), bit_count(k * 7919 - 1000000) FROM p',
  "SELECT k, century(DATE '1970-01-01' + d), millennium(DATE '1970-01-01' + d), decade(DATE '1970-01-01' + d), isoyear(DATE '1970-01-01' + d), yearweek(DATE '1970-01-01' + d), era(DATE '1970-01-01' + d), julian(DATE '1970-01-01' + d) FROM p",
];

describe('distances and rounding over random inputs as DuckDB', () => {
  for (const q of SAME) {
    it(q, async () => {
      expectSameResult(fromArrow(await env().sql(q).collect()), await duck().query(q), { ordered: false, names: false, kinds: false });
    });
  }
});

/** Pairs of instants a few days to a few years apart, many on month ends, with times of day. */
const MONTH_END_DAYS = [-1, 0, 27, 28, 29, 30, 58, 59, 365, 366];
const PAIRS = Array.from({ length: 400 }, (_, k) => {
  const base = Math.floor((next() - 0.4) * 40_000) * 86_400_000;
  const span = k % 3 === 0 ? MONTH_END_DAYS[k % MONTH_END_DAYS.length]! * 86_400_000 : Math.floor((next() - 0.5) * 2_000 * 86_400_000);
  const t = (): number => Math.floor(next() * 4) * 6 * 3_600_000 + (next() < 0.3 ? 123 : 0);
  return { k, a: base + t(), b: base + span + t() };
});
const pairs = oracleTable('q', { k: 'INTEGER', a: 'BIGINT', b: 'BIGINT' }, PAIRS);

describe('date_sub over random pairs as DuckDB', () => {
  const parts = ['year', 'quarter', 'month', 'decade', 'century', 'week', 'day', 'hour', 'minute', 'second', 'millisecond', 'microsecond', 'epoch', 'isoyear', 'dow'];
  for (const p of parts) {
    it(p, async () => {
      // Month-end days: a's day moved to the end of a month, so that day clamping is exercised.
      const q = `SELECT k, date_sub('${p}', epoch_ms(a), epoch_ms(b)), date_sub('${p}', epoch_ms(b), epoch_ms(a)), date_sub('${p}', last_day(epoch_ms(a)), epoch_ms(b)), date_sub('${p}', CAST(epoch_ms(a) AS DATE), last_day(epoch_ms(b))) FROM q`;
      expectSameResult(fromArrow(await pairs.env().sql(q).collect()), await pairs.duck().query(q), { ordered: false, names: false, kinds: false });
    });
  }
});
