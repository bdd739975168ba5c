/**
 * stddev is computed in double-double from exactly formed deviations, so it
 * is the correctly rounded sample standard deviation of the DOUBLE inputs
 * (checked against exact rational arithmetic in BigInt) and identical at every
 * parallelism, batch size and row order. The random differential test found
 * `round(stddev(l_discount), 2)` giving 0.02 or 0.03 with the batch size: the
 * exact value there was 0.025 + 1e-18 (Welford's order-dependent last bits).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/index.js';

const envs: TableEnvironment[] = [];
afterAll(async () => { await Promise.all(envs.map((e) => e.close())); });

function env(parallelism: number, batchSize?: number): TableEnvironment {
  const e = TableEnvironment.create({ parallelism, ...(batchSize ? { batchSize } : {}) });
  envs.push(e);
  return e;
}

const SCALE = 1100n; // every finite double times 2^1100 is an integer

/** x · 2^1100 exactly. */
function scaled(x: number): bigint {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  const bits = dv.getBigUint64(0);
  const exp = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  if (exp === 0) return 0n; // no subnormals in these tests
  mant |= 1n << 52n;
  const sh = BigInt(exp - 1075) + SCALE;
  const v = sh >= 0n ? mant << sh : mant >> -sh;
  return x < 0 ? -v : v;
}

/** ⌊√n⌋ by Newton's method from above. */
function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt((n.toString(2).length >> 1) + 1);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** |c − √var| in units of 2^-(1100+60), with var exact. */
function distance(c: number, varNum: bigint, varDen: bigint): bigint {
  // √(num/den) · 2^(1100+60) = isqrt(num · 2^(2·1160) / den)
  const extra = 60n;
  const t = isqrt((varNum << (2n * (SCALE + extra))) / varDen);
  const cs = scaled(c) << extra;
  return cs > t ? cs - t : t - cs;
}

function neighbours(x: number): [number, number] {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  const b = dv.getBigUint64(0);
  dv.setBigUint64(0, b + 1n);
  const up = dv.getFloat64(0);
  dv.setBigUint64(0, b - 1n);
  return [dv.getFloat64(0), up];
}

/** Exact sample variance of xs as num/den, with num and den scaled alike. */
function exactVariance(xs: readonly number[]): [bigint, bigint] {
  const n = BigInt(xs.length);
  let s1 = 0n;
  let s2 = 0n;
  for (const x of xs) { const v = scaled(x); s1 += v; s2 += v * v; }
  // var = (n·S2 − S1²) / (n(n−1)) in units of 2^-2200
  return [n * s2 - s1 * s1, n * (n - 1n) << (2n * SCALE)];
}

function expectCorrectlyRounded(c: number, xs: readonly number[]): void {
  const [num, den] = exactVariance(xs);
  const d = distance(c, num, den);
  for (const nb of neighbours(c)) expect(d <= distance(nb, num, den)).toBe(true);
}

function lcg(seed: number): () => number {
  let s = seed;
  return () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
}

describe('stddev', () => {
  it('is the correctly rounded value where Welford was 2 ulps off (the TPC-H discount case)', async () => {
    // 17 discounts whose exact sample stddev is 0.025 + ~1e-18: DuckDB (Welford) says 0.024999999999999994.
    const xs = [0.08, 0.09, 0.1, 0.1, 0.06, 0.08, 0.09, 0.06, 0.06, 0.06, 0.03, 0.02, 0.1, 0.08, 0.05, 0.04, 0.09];
    const e = env(1);
    e.registerTable('d', e.fromRecords(xs.map((x) => ({ x })), { x: 'DOUBLE' }));
    const [row] = await e.sql('SELECT stddev(x) AS s, round(stddev(x), 2) AS r FROM d').toArray();
    expectCorrectlyRounded(row!['s'] as number, xs);
    expect(row!['s']).toBe(0.025);
    expect(row!['r']).toBe(0.03);
  });

  it('is correctly rounded and identical at every parallelism, batch size and order', async () => {
    const rnd = lcg(777);
    const groups: number[][] = [];
    const rows: { g: number; x: number }[] = [];
    for (let g = 0; g < 40; g++) {
      const xs: number[] = [];
      const offset = g % 4 === 0 ? 1e9 : g % 4 === 1 ? -3.5 : 0; // data far from zero must not cancel
      const scale = 10 ** ((g % 7) - 3);
      const n = 2 + Math.floor(rnd() * 60);
      for (let i = 0; i < n; i++) { const x = offset + Math.round(rnd() * 1000) * scale / 100; xs.push(x); rows.push({ g, x }); }
      groups.push(xs);
    }
    const results: number[][] = [];
    for (const [p, b, reverse] of [[1, undefined, false], [2, 4, true], [3, 7, false], [1, 1, true]] as const) {
      const e = env(p, b);
      e.registerTable('v', e.fromRecords(reverse ? [...rows].reverse() : rows, { g: 'INTEGER', x: 'DOUBLE' }));
      const out = await e.sql('SELECT g, stddev(x) AS s FROM v GROUP BY g ORDER BY g').toArray();
      results.push(out.map((r) => r['s'] as number));
    }
    for (const r of results.slice(1)) expect(r).toEqual(results[0]);
    results[0]!.forEach((s, g) => expectCorrectlyRounded(s, groups[g]!));
  });

  it('is NULL below two rows, 0 for equal values, and an error for infinities and NaN (as DuckDB)', async () => {
    const e = env(1);
    const [r] = await e.sql('SELECT stddev(x) AS a FROM (VALUES (1.5)) t(x)').toArray();
    expect(r!['a']).toBeNull();
    const [z] = await e.sql('SELECT stddev(x) AS a FROM (VALUES (1e200), (1e200)) t(x)').toArray();
    expect(z!['a']).toBe(0);
    await expect(e.sql("SELECT stddev(x) FROM (VALUES (1.0), ('inf'::DOUBLE)) t(x)").toArray()).rejects.toThrow(/stddev is out of range/);
    await expect(e.sql("SELECT stddev(x) FROM (VALUES (1.0), ('nan'::DOUBLE)) t(x)").toArray()).rejects.toThrow(/stddev is out of range/);
  });
});
