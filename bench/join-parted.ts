/**
 * A hash join's build side gathered from its batches (batch-parts.ts) vs concatenated first
 * (hash-join-build.ts `buildTuning.parted`), alternating in one process: CPU ms per query (medians) and
 * the typed-array bytes the concatenation would add, for a small probe (the copy is all the work: TPC-H
 * Q18's customer build) and a probe that gathers every build row several times (the worst case of
 * locating each row's batch).
 *
 *   node --expose-gc --import tsx bench/join-parted.ts [--runs 9] [--build 600000] [--probe 6000000]
 */
import * as arrow from 'apache-arrow';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { TableEnvironment } from '../src/api/index.js';
import { buildTuning } from '../src/exec/operators/hash-join-build.js';
import { threadCpuMs } from '../src/exec/workers/thread-cpu.js';
import { collectGarbage, median } from './lib/timing.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '9' }, build: { type: 'string', default: '600000' }, probe: { type: 'string', default: '6000000' } } });
const NB = Number(values.build);
const NP = Number(values.probe);
const env = TableEnvironment.create({ parallelism: 1 });
env.registerTable('d', arrow.tableFromArrays({
  dk: Int32Array.from({ length: NB }, (_, i) => i),
  da: Int32Array.from({ length: NB }, (_, i) => i % 1000),
  db: Float64Array.from({ length: NB }, (_, i) => i / 7),
  ds: Array.from({ length: NB }, (_, i) => `name#${i % 100_000}`),
}));
env.registerTable('f', arrow.tableFromArrays({ fk: Int32Array.from({ length: NP }, (_, i) => (i * 7919) % NB), fx: Float64Array.from({ length: NP }, (_, i) => i % 13) }));
const queries: [string, string][] = [
  ['small probe (1 in 100K fact rows)', 'SELECT count(*) AS c, sum(db) AS s, max(ds) AS m FROM f JOIN d ON fk = dk WHERE fx = 3 AND fk < 60'],
  ['every fact row (10 per build row)', 'SELECT sum(da) AS a, sum(db * fx) AS s FROM f JOIN d ON fk = dk'],
  ['every fact row, strings', 'SELECT count(*) AS c, max(ds) AS m FROM f JOIN d ON fk = dk WHERE fx < 2'],
];
console.log('| query | concatenated CPU ms | parted CPU ms | parted / concatenated |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, sql] of queries) {
  const cpu: Record<string, number[]> = { concat: [], parted: [] };
  for (let i = 0; i < Number(values.runs) + 2; i++) {
    for (const mode of ['concat', 'parted'] as const) {
      buildTuning.parted = mode === 'parted';
      collectGarbage();
      const c0 = threadCpuMs() ?? 0;
      await env.sql(sql).collect();
      if (i >= 2) cpu[mode]!.push((threadCpuMs() ?? 0) - c0);
    }
  }
  const a = median(cpu.concat!);
  const b = median(cpu.parted!);
  console.log(`| ${name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(2)} |`);
}
buildTuning.parted = true;
console.log(`\nload average 1 min: ${loadavg()[0]!.toFixed(2)}; build ${NB} rows, probe ${NP} rows; ${values.runs} runs each, alternating`);
await env.close();
