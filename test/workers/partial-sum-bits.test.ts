/**
 * A partial stage's DOUBLE sums and averages have parallelism 1's bits (docs/multi-core.md
 * "Determinism"): each share sends its compensated sum as two exact parts (sum, sum_lo) and the
 * final aggregate adds them and rounds once (exec/operators/agg-sum-parts.ts). Adversarial data:
 * huge values that cancel across shares, beside tiny and mid-sized ones, over many shares — a
 * rounded partial sum per share loses the small values outright. Every value is a multiple of
 * 2^-30 and rows × Σ|x| < 2^76 (the bound under which a compensated sum is exact,
 * agg-sum-parts.ts), so the exact sum is a BigInt and its correct rounding is known: both parallelisms must
 * give it (sums), and the same bits (averages, divided once from a double-double).
 */
import { tableFromArrays, type Table as ArrowTable } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/index.js';
import { workerStats } from './helpers.js';

const N = 60_000;
const G = 5;
const SCALE = 2 ** 30;

/** A deterministic pseudo-random stream (xorshift32). */
function rng(seed: number): () => number {
  let x = seed;
  return () => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return (x >>> 0) / 2 ** 32; };
}

/** Values in three bands, all multiples of 2^-30: ±2^45-ish (cancelling in pairs far apart), tiny, and prices. */
function makeValues(): Float64Array {
  const r = rng(12345);
  const v = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    const band = i % 10;
    if (band === 0) v[i] = (r() < 0.5 ? -1 : 1) * (2 ** 45 + Math.floor(r() * 1e6));
    else if (band < 5) v[i] = Math.floor(r() * 2 ** 20) / SCALE; // tiny: below 2^-10
    else v[i] = Math.round(r() * 1e5 * SCALE) / SCALE; // prices with 20 fraction bits
  }
  // Each huge value's negation sits half the table away (another share), so the groups' exact sums are small.
  for (let i = 0; i < N / 2; i += 10) v[i + N / 2] = -v[i]!;
  return v;
}

const x = makeValues();
const g = Int32Array.from({ length: N }, (_, i) => (i * 7) % G);
const t = tableFromArrays({ g, x });

/** The exact sum of `x` over the rows where `keep` holds, times 2^30, and the row count. */
function exactScaled(keep: (i: number) => boolean): { s: bigint; n: number } {
  let s = 0n;
  let n = 0;
  for (let i = 0; i < N; i++) if (keep(i)) { s += BigInt(x[i]! * SCALE); n++; }
  return { s, n };
}

/** The correctly rounded double of s / 2^30 (Number(bigint) rounds to nearest, ties to even). */
const rounded = (s: bigint): number => Number(s) / SCALE;

describe('partial DOUBLE sums have one thread\'s bits', { timeout: 180_000 }, () => {
  const p1 = TableEnvironment.create({ parallelism: 1 });
  const pN = TableEnvironment.create({ parallelism: 4, workers: 'always', batchSize: 2048 });
  // avg over BIGINT values of 2^53 + 1: the exact total is past 2^53, where a cast to DOUBLE rounds.
  const big = tableFromArrays({ g: Int32Array.from({ length: 3000 }, (_, i) => i % 3), b: BigInt64Array.from({ length: 3000 }, () => 2n ** 53n + 1n) });
  const ns = tableFromArrays({ g: Int32Array.from({ length: 30_000 }, (_, i) => i % 3), ts: BigInt64Array.from({ length: 30_000 }, (_, i) => 1_700_000_000_000_000_000n + BigInt(i) * 1_000_003n) });
  const ints = tableFromArrays({ g: Int32Array.from({ length: 30_000 }, (_, i) => i % 3), i: Int32Array.from({ length: 30_000 }, (_, i) => (i * 2_654_435_761) | 0) });
  for (const e of [p1, pN]) { e.registerTable('t', t); e.registerTable('big', big); e.registerTable('ns', ns); e.registerTable('ints', ints); }
  afterAll(async () => { await p1.close(); await pN.close(); });

  const run = async (sql: string): Promise<[ArrowTable, ArrowTable]> => {
    const before = workerStats(pN).stages;
    const a = await p1.sql(sql).collect();
    const b = await pN.sql(sql).collect();
    expect(workerStats(pN).stages - before).toBeGreaterThan(0);
    return [a, b];
  };

  it('keyed: sum and avg per group, exact sums and equal bits at parallelism 4', async () => {
    const [a, b] = await run('SELECT g, sum(x) AS s, avg(x) AS a, count(*) AS c FROM t GROUP BY g ORDER BY g');
    expect(b.numRows).toBe(G);
    for (let k = 0; k < G; k++) {
      const { s, n } = exactScaled((i) => g[i] === k);
      const want = rounded(s);
      // Rounded per share, the tiny values vanish next to 2^45: the sums would be off in many digits.
      expect(Math.abs(want)).toBeLessThan(2 ** 40);
      expect(a.getChild('s')!.get(k)).toBe(want);
      expect(b.getChild('s')!.get(k)).toBe(want);
      expect(Object.is(b.getChild('a')!.get(k), a.getChild('a')!.get(k))).toBe(true);
      expect(Math.abs((a.getChild('a')!.get(k) as number) - want / n)).toBeLessThanOrEqual(Math.abs(want / n) * 2 ** -52);
    }
  });

  it('global, through a filter (the one-pass loop) and over the plain scan (one state per call)', async () => {
    const [a, b] = await run('SELECT sum(x) AS s, avg(x) AS a FROM t WHERE x <> 1.5');
    const want = rounded(exactScaled((i) => x[i] !== 1.5).s);
    expect(a.getChild('s')!.get(0)).toBe(want);
    expect(b.getChild('s')!.get(0)).toBe(want);
    expect(Object.is(b.getChild('a')!.get(0), a.getChild('a')!.get(0))).toBe(true);
    const [c, d] = await run('SELECT sum(x) AS s, avg(x) AS a, sum(x * 2) AS s2 FROM t');
    const all = exactScaled(() => true).s;
    expect(c.getChild('s')!.get(0)).toBe(rounded(all));
    expect(d.getChild('s')!.get(0)).toBe(rounded(all));
    expect(d.getChild('s2')!.get(0)).toBe(rounded(2n * all));
    expect(Object.is(d.getChild('a')!.get(0), c.getChild('a')!.get(0))).toBe(true);
  });

  it('NULLs: a group without values is NULL, the others exact', async () => {
    const [a, b] = await run('SELECT g, sum(CASE WHEN g = 1 AND x > 0 THEN x END) AS s, avg(CASE WHEN g = 4 THEN NULL ELSE x END) AS a FROM t GROUP BY g ORDER BY g');
    const want = rounded(exactScaled((i) => g[i] === 1 && x[i]! > 0).s);
    expect(a.getChild('s')!.get(1)).toBe(want);
    expect(b.getChild('s')!.get(1)).toBe(want);
    expect(b.getChild('s')!.get(0)).toBeNull();
    expect(b.getChild('a')!.get(4)).toBeNull();
    for (let k = 0; k < G; k++) expect(Object.is(b.getChild('a')!.get(k), a.getChild('a')!.get(k))).toBe(true);
  });

  it('avg over BIGINT splits into 128-bit partial sums (agg-int-sum.ts): one thread\'s exact total and bits', async () => {
    const want = Number(2n ** 53n + 1n); // the exact mean, rounded (to even: 2^53)
    const [a, b] = await run('SELECT g, avg(b) AS a FROM big GROUP BY g ORDER BY g');
    for (let k = 0; k < 3; k++) {
      expect(a.getChild('a')!.get(k)).toBe(want);
      expect(b.getChild('a')!.get(k)).toBe(want);
    }
    const [c, d] = await run('SELECT avg(b) AS a FROM big');
    expect(c.getChild('a')!.get(0)).toBe(want);
    expect(d.getChild('a')!.get(0)).toBe(want);
    // Nanosecond timestamps: every share's total passes 2^63; as one BIGINT per share it threw "sum overflowed BIGINT".
    const sql = 'SELECT g, avg(ts) AS a FROM ns GROUP BY g ORDER BY g';
    expect(await pN.sql(sql).explain()).toMatch(/== Worker Stages ==\n1\. partial stage over ns \(30,000 rows\): shipped/);
    const [e, f] = await run(sql);
    for (let k = 0; k < 3; k++) expect(Object.is(f.getChild('a')!.get(k), e.getChild('a')!.get(k))).toBe(true);
    expect(e.getChild('a')!.get(0)).toBeGreaterThan(1.7e18);
    expect(workerStats(pN).traces.at(-1)?.mode).toBe('partial');
  });

  it('avg over INTEGER still splits: the shares\' exact sums and counts, divided once as one thread divides', async () => {
    const [a, b] = await run('SELECT g, avg(i) AS a FROM ints GROUP BY g ORDER BY g');
    for (let k = 0; k < 3; k++) expect(Object.is(b.getChild('a')!.get(k), a.getChild('a')!.get(k))).toBe(true);
    const [c, d] = await run('SELECT avg(i) AS a FROM ints');
    expect(Object.is(d.getChild('a')!.get(0), c.getChild('a')!.get(0))).toBe(true);
  });
});
