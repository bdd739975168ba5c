/**
 * `npm run bench:q1-hand`: TPC-H Q1 in eddy (SQL, parallelism 1) against the
 * suite's hand loop (bench/suite/hand-q1.ts) over the same lineitem, sampled
 * alternately by CPU time (a shared machine's load drifts over both alike);
 * `--profile p` writes p.cpuprofile of the eddy runs and prints hot spots.
 * The suite (npm run bench) measures the same pair by wall time among all
 * engines; this one is for A/B-ing the aggregate path in a minute.
 *
 *   node --expose-gc --import tsx bench/q1-hand.ts --data /work/bench-data [--runs 9] [--profile /tmp/q1]
 *   (without --data: lineitem from the built-in generator at --sf, default 1)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { Table as ArrowTable } from 'apache-arrow';
import { TableEnvironment } from '../src/api/environment.js';
import { generateTpch } from '../src/io/tpch/index.js';
import { q1HandLoop } from './suite/hand-q1.js';
import { saveProfile, startProfiler } from './lib/profile.js';
import { compareResults, plainFromArrow } from './lib/verify.js';

const { values } = parseArgs({ options: { data: { type: 'string' }, sf: { type: 'string', default: '1' }, runs: { type: 'string', default: '9' }, profile: { type: 'string' } } });
const RUNS = Number(values.runs);
const gc = (globalThis as { gc?: (o?: unknown) => void }).gc;
const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1]!;
const Q1 = readFileSync(new URL('./tpch/q01.sql', import.meta.url), 'utf8');

async function cpuMs(fn: () => unknown): Promise<number> {
  gc?.({ type: 'major', execution: 'sync' });
  const c0 = process.cpuUsage();
  await fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

async function main(): Promise<void> {
  const env = TableEnvironment.create({ parallelism: 1 });
  let lineitem: ArrowTable;
  if (values.data) lineitem = await (await env.fromArrowFile(join(values.data, 'sf-1', 'lineitem.arrow'))).collect();
  else lineitem = generateTpch(Number(values.sf)).lineitem;
  env.registerTable('lineitem', lineitem);
  const run = async (): Promise<ArrowTable> => env.sql(Q1).collect();
  const p = compareResults(plainFromArrow(await run(), []), q1HandLoop(lineitem));
  if (p.length > 0) throw new Error(`eddy and the hand loop differ: ${p.join('; ')}`);
  console.log(`lineitem ${lineitem.numRows} rows in ${lineitem.batches.length} batches; load ${loadavg()[0]!.toFixed(1)}`);
  if (values.profile) {
    const prof = await startProfiler();
    for (let r = 0; r < RUNS; r++) await run();
    console.log(saveProfile(await prof.stop(), `${values.profile}.cpuprofile`, 30));
  }
  const e: number[] = [];
  const h: number[] = [];
  for (let r = 0; r < RUNS; r++) { e.push(await cpuMs(run)); h.push(await cpuMs(() => q1HandLoop(lineitem))); }
  console.log(`Q1 eddy p1 ${median(e).toFixed(0)} ms CPU, hand loop ${median(h).toFixed(0)} ms CPU: ${(median(e) / median(h)).toFixed(2)}x; load ${loadavg()[0]!.toFixed(1)}`);
  await env.close();
}

main().catch((err: unknown) => { console.error(err); process.exit(1); });
