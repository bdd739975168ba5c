/**
 * Text of doubles: the exact form reads back as the same value and matches
 * what DuckDB's CSV writer prints for the same double (edge cases and
 * random bit patterns); the table form is short but never a wrong magnitude.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doubleJson, doubleText } from '../../src/cli/double-text.js';
import { loadRows, openDuck, type Duck } from '../helpers/duckdb.js';

const EDGES = [1 / 3, 2 / 3, 1e-10, -0, 0, 1e300, 5e-324, -5e-324, 2.2250738585072014e-308, Number.MAX_VALUE, 0.1, 0.2 + 0.1, 1.5, 100, -100, 1e15, 1e16, 1e21,
  9007199254740993, 123456789012.5, 229577310901.2, 1e-4, 1e-5, 0.00012345, -1.5e-5, 1.2e30, 9999999999999998, 0.1 + 0.7, 1 - 2 ** -53, 2 ** 63];

/** Deterministic doubles from random bit patterns (every exponent) and random decimals. */
function randomDoubles(n: number): number[] {
  let seed = 0x9e3779b9;
  const next = (): number => { seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0; return seed; };
  const view = new DataView(new ArrayBuffer(8));
  const out: number[] = [];
  while (out.length < n) {
    view.setUint32(0, next());
    view.setUint32(4, next());
    const bits = view.getFloat64(0);
    if (Number.isFinite(bits)) out.push(bits);
    out.push(Math.round((next() / 2 ** 32) * 10 ** (next() % 12)) / 10 ** (next() % 8));
  }
  return out;
}

/** How many significant digits a number's text has (`100.0` has 1, `0.0125` has 3). */
const significantDigits = (s: string): number => s.replace(/e.*/, '').replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '').length;

describe('doubleText', () => {
  it('writes the edge cases exactly and as DuckDB does', () => {
    expect([1 / 3, 1e-10, -0, 0, 1e300, 5e-324, 100, 1e15, 1e16, 1e-5, 1.2e30, 9007199254740993].map((x) => doubleText(x)))
      .toEqual(['0.3333333333333333', '1e-10', '-0.0', '0.0', '1e+300', '5e-324', '100.0', '1000000000000000.0', '1e+16', '1e-05', '1.2e+30', '9007199254740992.0']);
    expect([NaN, Infinity, -Infinity].map((x) => doubleText(x))).toEqual(['nan', 'inf', '-inf']);
    expect([NaN, Infinity, -Infinity, -0, 1e-10].map((x) => doubleJson(x))).toEqual(['"NaN"', '"Infinity"', '"-Infinity"', '-0.0', '1e-10']);
  });

  it('exact text reads back as the same double, every time', () => {
    for (const x of [...EDGES, ...randomDoubles(5000)]) expect(Object.is(Number(doubleText(x)), x)).toBe(true);
  });

  it('FLOAT values get the shortest text of the 32-bit value', () => {
    expect(doubleText(Math.fround(0.1), 'exact', true)).toBe('0.1');
    expect(doubleText(Math.fround(1 / 3), 'exact', true)).toBe('0.33333334');
    for (const x of randomDoubles(2000).map(Math.fround).filter(Number.isFinite)) expect(Math.fround(Number(doubleText(x, 'exact', true)))).toBe(x);
  });

  it('table text keeps about 10 significant digits and never changes the magnitude', () => {
    expect([1 / 3, 1e-10, -0, 1e300, 5e-324, 1.2e30, 229577310901.2, 2 / 3 * 1e6, 1e14 / 3, 1 / 3 * 1e-7, 1 / 3 * 1e20, 0.99999999999, 1.5].map((x) => doubleText(x, 'short')))
      .toEqual(['0.3333333333', '1e-10', '-0.0', '1e+300', '5e-324', '1.2e+30', '229577310901.2', '666666.6667', '33333333333333.33', '3.333333333e-08', '3.333333333e+19', '1.0', '1.5']);
    for (const x of randomDoubles(3000)) {
      const short = Number(doubleText(x, 'short'));
      if (x === 0) expect(short).toBe(0);
      else expect(Math.abs(short - x) / Math.abs(x)).toBeLessThan(1e-9);
    }
  });
});

describe('doubleText against DuckDB', () => {
  let duck: Duck;
  const dir = mkdtempSync(join(tmpdir(), 'eddy-double-text-'));
  beforeAll(async () => { duck = await openDuck(); });
  afterAll(() => { duck?.close(); rmSync(dir, { recursive: true, force: true }); });

  it('matches the CSV DuckDB writes for the same doubles; FLOAT text is the same float, never longer', async () => {
    const values = [...EDGES, NaN, Infinity, -Infinity, ...randomDoubles(3000)];
    await loadRows(duck, 'd', { i: 'INTEGER', x: 'DOUBLE' }, values.map((x, i) => ({ i, x })));
    const file = join(dir, 'd.csv');
    await duck.run(`COPY (SELECT x, TRY_CAST(x AS FLOAT) AS f FROM d ORDER BY i) TO '${file}' (HEADER false)`);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const doubles = lines.map((l) => l.split(',')[0]);
    const mismatches = values.map((x, k) => [doubleText(x), doubles[k]]).filter(([o, d]) => o !== d);
    expect(mismatches.slice(0, 10)).toEqual([]);
    // DuckDB's FLOAT text is not always the shortest (1054577.25 where 1054577.3 reads back the same): same float, maybe fewer digits
    for (const [k, x] of values.entries()) {
      const duckFloat = lines[k]!.split(',')[1]!;
      const ours = doubleText(Math.fround(x), 'exact', true);
      if (duckFloat === '' || !Number.isFinite(x)) continue; // beyond FLOAT's range: NULL
      expect([ours, Math.fround(Number(ours))]).toEqual([ours, Math.fround(Number(duckFloat))]);
      expect(significantDigits(ours)).toBeLessThanOrEqual(significantDigits(duckFloat));
    }
    expect(lines.length).toBe(values.length);
  });
});
