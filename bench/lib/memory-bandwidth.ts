/**
 * How fast this machine streams memory with one thread and with two at once — the suite prints it
 * beside the load average and the CPU steal (bench/suite/main.ts).
 *
 * Why: TPC-H's scans and gathers are bound by memory, not arithmetic (Q1 reads ~230 MB of lineitem
 * columns a run), and on a shared VM the memory bandwidth a guest gets moves with its neighbours. In a
 * suite slice of 2026-12-07 Q1's two parallelism-2 shares each spent 75–85% of the single-thread run's
 * CPU in 7 of 9 runs and ~50% in the other two: the same work, slower per row while both threads
 * streamed. A speed-up from a second thread is capped by how well the machine's memory serves two
 * streams; this probe puts a number on that for the run being read.
 *
 * Each probe thread sums a private 64 MB Int32Array (twice the L3 of the 2-core VM this project runs
 * on) for ~150 ms after a short warm-up; GB/s is bytes read over the thread's wall time. Two threads
 * run at once for the two-thread figure (each reports its own rate; `scaling` is their sum over the
 * one-thread rate: 2.0 means memory served both fully).
 */
import { Worker } from 'node:worker_threads';

/** One probe: GB/s of one thread alone, of each of two threads at once, and the two-thread scaling. */
export interface BandwidthProbe {
  readonly oneThreadGBs: number;
  readonly twoThreadsGBs: readonly [number, number];
  /** Sum of the two-thread rates over the one-thread rate (2 = perfect). */
  readonly scaling: number;
}

const BYTES = 64 << 20;

/** The probe's thread body (run with `eval: true`): sums the array until `ms` passed, posts GB/s. */
const BODY = `
const { parentPort, workerData } = require('node:worker_threads');
const n = workerData.bytes >> 2;
const v = new Int32Array(n);
for (let i = 0; i < n; i++) v[i] = i;
const pass = () => { let s = 0; for (let i = 0; i < n; i++) s = (s + v[i]) | 0; return s; };
pass(); pass();
let bytes = 0, sink = 0;
const t0 = performance.now();
while (performance.now() - t0 < workerData.ms) { sink ^= pass(); bytes += workerData.bytes; }
const gbs = bytes / ((performance.now() - t0) / 1000) / 1e9;
parentPort.postMessage({ gbs, sink });
`;

function runProbe(ms: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const w = new Worker(BODY, { eval: true, workerData: { bytes: BYTES, ms } });
    w.once('message', (m: { gbs: number }) => { resolve(m.gbs); void w.terminate(); });
    w.once('error', reject);
  });
}

/** Measures one thread alone, then two at once (~0.6 s in all, 64 MB per probe thread). */
export async function probeBandwidth(ms = 150): Promise<BandwidthProbe> {
  const one = await runProbe(ms);
  const [a, b] = await Promise.all([runProbe(ms), runProbe(ms)]);
  const r = (x: number): number => Number(x.toFixed(2));
  return { oneThreadGBs: r(one), twoThreadsGBs: [r(a), r(b)], scaling: r((a + b) / one) };
}

/** "5.1 GB/s alone, 4.9 + 5.0 at once (1.94×)". */
export function describeBandwidth(p: BandwidthProbe): string {
  return `${p.oneThreadGBs} GB/s alone, ${p.twoThreadsGBs[0]} + ${p.twoThreadsGBs[1]} at once (${p.scaling}×)`;
}
