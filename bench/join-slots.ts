/**
 * Join-table slot sizing micro-benchmark (kernels/hash-slots.ts `slotTuning.reserveLoad`): a join build
 * reserves slots for its row count; at load ≤ 1/2 (the old sizing) a build of n keys takes the power of
 * two above 2n slots, at ≤ 3/4 often half as many. This times KeyTable.find (CPU ns per probe row, 2M
 * probe rows in 64K-row batches, one reused output array) over both sizings, alternating, for build
 * sizes on either side of the power-of-two boundary and for probes that mostly hit (after a runtime
 * filter: TPC-H Q3), half hit, and mostly miss; plus the build's CPU and slot bytes.
 *
 *   npx tsx bench/join-slots.ts [rounds]
 */
import { Int32, makeData } from 'apache-arrow';
import { KeyTable } from '../src/exec/kernels/hash.js';
import { slotTuning } from '../src/exec/kernels/hash-slots.js';
import { median } from './lib/timing.js';

const ROUNDS = Number(process.argv[2] ?? 5);
const PROBE = 2_000_000;
const BATCH = 65_536;
let seed = 0x2545f491;
const rnd = (): number => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) / 4294967296; };
const col = (v: Int32Array) => makeData({ type: new Int32(), length: v.length, data: v });
function cpuMs(f: () => void): number { const c0 = process.cpuUsage(); f(); const c = process.cpuUsage(c0); return (c.user + c.system) / 1000; }

console.log('| build keys | probe hits | load 1/2: slots MB, build ms, find ns/row | load 3/4: slots MB, build ms, find ns/row |');
console.log('| ---: | ---: | --- | --- |');
for (const n of [145_000, 190_000, 100_000]) {
  // Sparse keys (every 41st integer: the hashed build, not the direct-mapped one), shuffled.
  const keys = Int32Array.from({ length: n }, (_, i) => 41 * i + 7);
  for (let i = n - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); const t = keys[i]!; keys[i] = keys[j]!; keys[j] = t; }
  for (const hit of [0.95, 0.5, 0.05]) {
    const probe: ReturnType<typeof col>[] = [];
    for (let s = 0; s < PROBE; s += BATCH) {
      const v = new Int32Array(Math.min(BATCH, PROBE - s));
      for (let i = 0; i < v.length; i++) v[i] = rnd() < hit ? keys[Math.floor(rnd() * n)]! : 41 * Math.floor(rnd() * n) + 8;
      probe.push(col(v));
    }
    const out = new Int32Array(BATCH);
    const res = new Map<number, { build: number[]; find: number[]; mb: number }>();
    for (let r = 0; r < ROUNDS; r++) {
      for (const load of [0.5, 0.75]) {
        slotTuning.reserveLoad = load;
        let t!: KeyTable;
        const build = cpuMs(() => { t = new KeyTable(['INTEGER']); t.build([col(keys)], n); });
        const find = cpuMs(() => { for (let k = 0; k < 3; k++) for (const p of probe) t.find([p], p.length, out); });
        const e = res.get(load) ?? { build: [], find: [], mb: (t.slotCapacity * 8) / 1e6 };
        e.build.push(build);
        e.find.push((find * 1e6) / (3 * PROBE));
        res.set(load, e);
      }
    }
    const f = (l: number): string => { const e = res.get(l)!; return `${e.mb.toFixed(1)}, ${median(e.build).toFixed(1)}, ${median(e.find).toFixed(1)}`; };
    console.log(`| ${n} | ${(hit * 100).toFixed(0)}% | ${f(0.5)} | ${f(0.75)} |`);
  }
}
slotTuning.reserveLoad = 0.75;
