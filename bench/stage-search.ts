/**
 * What a fresh plan's stage choice costs the calling thread at parallelism 2 before anything runs
 * (docs/multi-core.md): per TPC-H query, the CPU of the stageless memo's key (ship-memo.ts: the
 * plan's canonical digest) against the CPU of the search it would skip (ship-choose.ts
 * planStages: find and weigh each candidate), on fresh copies of the optimized plan (a digest is
 * memoized per node object, so each timing digests a tree it has not seen). CPU medians
 * (the process's CPU — this script runs one thread — over `--reps` repetitions per sample,
 * `--runs` samples), µs per plan.
 *
 *   node --expose-gc --import tsx bench/stage-search.ts --data /work/bench-data [--only q2,q22] [--runs 7] [--reps 50]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import * as rel from '../src/relnode/rel.js';
import type { RelNode } from '../src/relnode/rel.js';
import { digest, isDeterministic } from '../src/relnode/digest.js';
import { planStages, type ChooseContext } from '../src/planner/ship-choose.js';
import type { TableSource } from '../src/io/source.js';
import { isMemorySource } from '../src/io/memory.js';
import { loadQueries } from './suite/queries.js';
import { p1AndP2 } from './lib/p1-p2.js';
import { median } from './lib/timing.js';

const all = Array.from({ length: 22 }, (_, i) => `q${i + 1}`).join(',');
const { values } = parseArgs({ options: { only: { type: 'string', default: all }, runs: { type: 'string', default: '7' }, reps: { type: 'string', default: '200' }, data: { type: 'string' } } });
const runs = Number(values.runs);
const reps = Number(values.reps);
const { p1, p2 } = await p1AndP2(1, values.data);

/** A node-for-node copy of a tree (new objects: the digest memo has not seen them). */
function copy(n: RelNode): RelNode {
  return rel.withInputs(n, rel.inputs(n).map(copy));
}

const large = (s: rel.Scan): number | undefined => {
  const src = s.table.handle as TableSource;
  return isMemorySource(src) && (src.numRows ?? 0) >= 200_000 ? src.numRows : undefined;
};
const ctx: ChooseContext = { large, workers: 2, sortedIn: () => false, finalHereRows: 8192, costed: true };

/** CPU µs per call of `f` on fresh copies, median over the samples. */
function perCall(plan: RelNode, f: (p: RelNode) => unknown): number {
  const xs: number[] = [];
  for (let r = 0; r <= runs; r++) {
    const copies = Array.from({ length: reps }, () => copy(plan));
    const c0 = process.cpuUsage();
    for (const c of copies) f(c);
    const c1 = process.cpuUsage(c0);
    if (r > 0) xs.push((c1.user + c1.system) / reps);
  }
  return median(xs);
}

const load0 = loadavg()[0]!;
console.log('| query | digest µs | stage search µs | candidates |');
console.log('| --- | ---: | ---: | ---: |');
for (const q of loadQueries(values.only!.split(','))) {
  const plan = (p2 as unknown as { plan(n: RelNode): { optimized: RelNode } }).plan((p2.sql(q.sql) as unknown as { plan: RelNode }).plan).optimized;
  const d = perCall(plan, (p) => isDeterministic(p) && digest(p));
  const s = perCall(plan, (p) => planStages(p, ctx));
  console.log(`| ${q.id} | ${d.toFixed(0)} | ${s.toFixed(0)} | ${planStages(plan, ctx).length} |`);
}
console.log(`\nload average 1 min: ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end; ${runs} samples of ${reps} plans`);
await p1.close();
await p2.close();
