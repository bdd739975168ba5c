/**
 * Runtime-filter kernel micro-benchmark (kernels/key-filter.ts): CPU ns per
 * probe row of KeyFilter.select over 6M INTEGER rows in 64K-row batches, for
 * the shapes TPC-H produces — dense keys (Q3's customers), keys spread thinly
 * over a range (Q10's 57K orders over 6M order keys: an exact bitmap), and a
 * sparse range (a Bloom filter) — plus the build time. "sorted" is Q3's lineitem: order keys in
 * ascending order, ~4 rows per key, ~10% of the keys built (a kept row is a coin flip per key, which
 * a branch in the loop mispredicts); "through a selection" tests only every other row (`from`).
 * "few keys" is Q18's shape: 77 (or 1000, 4096) order keys against sorted order keys, which a
 * filter of at most FEW_KEYS keys binary-searches per batch (kernels/key-search.ts).
 * "dense, beside a join's probe" is Q3's customer filter: after each scan batch the join's
 * membership probe tests 6K rows that all match (hash-join-member.ts), with its own loop hint
 * (LoopHint, as now) or one hint shared with the scan (as before 2026-12-07: the probe's one-run
 * batches then sent every scan batch to the branching loop); ns per scan row, both callers' CPU.
 *
 *   npx tsx bench/key-filter.ts [probeRows]
 */
import { Int32, makeData } from 'apache-arrow';
import { KeyFilter, type LoopHint } from '../src/exec/kernels/key-filter.js';

const ROWS = Number(process.argv[2] ?? 6_000_000);
const BATCH = 65_536;
let seed = 0x2545f491;
const rnd = (): number => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) / 4294967296; };
const col = (v: Int32Array) => makeData({ type: new Int32(), length: v.length, data: v });

function cpuMs(f: () => void): number {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

function run(name: string, buildKeys: Int32Array, probeRange: number, sorted = false, through = false, member?: 'own' | 'shared'): void {
  const probe: ReturnType<typeof col>[] = [];
  for (let s = 0; s < ROWS; s += BATCH) {
    const n = Math.min(BATCH, ROWS - s);
    const v = new Int32Array(n);
    for (let i = 0; i < n; i++) v[i] = sorted ? 1 + Math.floor((s + i) / 4) : 1 + Math.floor(rnd() * probeRange);
    probe.push(col(v));
  }
  const sel = new Int32Array(BATCH);
  const every2 = Int32Array.from({ length: BATCH >> 1 }, (_, i) => 2 * i);
  let f: KeyFilter | undefined;
  const build = cpuMs(() => { for (let r = 0; r < 5; r++) f = KeyFilter.build([col(buildKeys)]); }) / 5;
  const times: number[] = [];
  let kept = 0;
  // The join's probe batches: 6K build keys each (every row matches).
  const matching = col(Int32Array.from({ length: 6_000 }, (_, i) => buildKeys[(i * 7) % buildKeys.length]!));
  const scanHint: LoopHint = { clustered: false };
  const probeHint: LoopHint = member === 'shared' ? scanHint : { clustered: false };
  const msel = new Int32Array(6_000);
  for (let r = 0; r < 7; r++) {
    kept = 0;
    times.push(cpuMs(() => {
      for (const d of probe) {
        kept += through ? f!.select(d, sel, every2, d.length >> 1, scanHint) : f!.select(d, sel, undefined, d.length, scanHint);
        if (member !== undefined) f!.select(matching, msel, undefined, matching.length, probeHint);
      }
    }));
  }
  times.sort((a, b) => a - b);
  const med = times[times.length >> 1]!;
  console.log(`${name.padEnd(44)} ${f!.describe().padEnd(28)} build ${build.toFixed(2)} ms  select ${(med * 1e6 / (through ? ROWS / 2 : ROWS)).toFixed(2)} ns/row  kept ${(100 * kept / (through ? ROWS / 2 : ROWS)).toFixed(2)}%`);
}

const dense = Int32Array.from({ length: 30_000 }, (_, i) => 1 + i * 5);
run('dense (30K keys over 150K)', dense, 150_000);
run('dense, beside a join\'s probe (own hint)', dense, 150_000, false, false, 'own');
run('dense, beside a join\'s probe (shared)', dense, 150_000, false, false, 'shared');
const thin = Int32Array.from({ length: 57_000 }, () => 1 + Math.floor(rnd() * 6_000_000));
run('thin (57K keys over 6M)', thin, 6_000_000);
const sparse = Int32Array.from({ length: 57_000 }, () => 1 + Math.floor(rnd() * 200_000_000));
run('sparse (57K keys over 200M)', sparse, 200_000_000);
const tenth = Int32Array.from({ length: ROWS / 40 }, () => 1 + Math.floor(rnd() * (ROWS / 4)));
run('sorted (Q3: 10% of keys, 4 rows each)', tenth, 0, true);
run('sorted, through a selection', tenth, 0, true, true);
run('sparse, through a selection', sparse, 200_000_000, false, true);
const few = (k: number): Int32Array => Int32Array.from({ length: k }, () => 1 + Math.floor(rnd() * (ROWS / 4)));
run('few keys, sorted (Q18: 77 keys)', few(77), 0, true);
run('few keys, sorted, through a selection', few(77), 0, true, true);
run('few keys, sorted (1000 keys)', few(1000), 0, true);
run('few keys, sorted (4096 keys)', few(4096), 0, true);
run('few keys, unsorted (77 keys)', few(77), ROWS / 4);
