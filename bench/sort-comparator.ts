/**
 * The comparator sort of operators/sort-keys.ts (several keys that do not pack into one, or under 1024
 * rows): CPU ms per sort, median over runs, in a fresh query-like setting each time (new key columns,
 * new comparator), as ORDER BY runs it. Written to check that the module-function comparator
 * (compareRows over one-shape keys, kept optimized across queries: kernels/kernel-cache.ts) is not
 * slower than the closures composed per key it replaced. Compare two builds in alternating processes:
 *
 *   node --expose-gc --import tsx bench/sort-comparator.ts [--rows 200000] [--runs 15]
 */
import { parseArgs } from 'node:util';
import * as arrow from 'apache-arrow';
import type { SortKey } from '../src/relnode/rel.js';
import { sortPermutation } from '../src/exec/operators/sort-keys.js';
import { collectGarbage } from './lib/timing.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '200000' }, runs: { type: 'string', default: '15' } } });
const n = Number(values.rows);
const runs = Number(values.runs);

/** A seeded generator, so both builds sort the same data. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 4294967296; };
}

function doubles(seed: number, distinct: number, nullEvery: number): arrow.Data {
  const r = rng(seed);
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) v[i] = Math.floor(r() * distinct) / 4;
  if (nullEvery === 0) return arrow.makeData({ type: new arrow.Float64(), length: n, nullCount: 0, data: v });
  const bm = new Uint8Array((n + 7) >> 3).fill(0xff);
  let nulls = 0;
  for (let i = 0; i < n; i += nullEvery) { bm[i >> 3]! &= ~(1 << (i & 7)); nulls++; }
  return arrow.makeData({ type: new arrow.Float64(), length: n, nullCount: nulls, nullBitmap: bm, data: v });
}

function dates(seed: number): arrow.Data {
  const r = rng(seed);
  const v = new Int32Array(n);
  for (let i = 0; i < n; i++) v[i] = 8000 + Math.floor(r() * 2400);
  return arrow.makeData({ type: new arrow.DateDay(), length: n, nullCount: 0, data: v });
}

const cases: { name: string; keys: SortKey[]; cols: () => arrow.Data[] }[] = [
  // TPC-H Q3's and Q18's shape: a DOUBLE descending, then a DATE.
  { name: 'double desc, date', keys: [{ index: 0, desc: true, nullsFirst: false }, { index: 1, desc: false, nullsFirst: false }], cols: () => [doubles(1, n / 4, 0), dates(2)] },
  // NULLs on both keys' first: the NULL test in the loop.
  { name: 'double nulls first, double desc', keys: [{ index: 0, desc: false, nullsFirst: true }, { index: 1, desc: true, nullsFirst: false }], cols: () => [doubles(3, 1000, 7), doubles(4, n, 0)] },
];

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
for (const c of cases) {
  const ms: number[] = [];
  for (let r = 0; r < runs + 3; r++) {
    const cols = c.cols();
    collectGarbage();
    const u0 = process.cpuUsage();
    const perm = sortPermutation(c.keys, cols, n);
    const u = process.cpuUsage(u0);
    if (perm.length !== n) throw new Error('bad permutation');
    if (r >= 3) ms.push((u.user + u.system) / 1000);
  }
  console.log(`${c.name}: ${median(ms).toFixed(1)} ms CPU (median of ${runs}, ${n} rows)`);
}
