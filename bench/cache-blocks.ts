/**
 * `npm run bench:cache-blocks`: the per-block cost of queries over a cached
 * table. The same cached `b` (bench/lib/flip36.ts) is built in environments
 * with different batch sizes, so it is stored in more or fewer blocks; the
 * actions run on each, alternating environments round by round (CPU ms per
 * call, medians). The slope of CPU time over the block count is what the
 * runtime, the cache source and the operators' per-batch setup cost per
 * block; the rows are the same.
 *
 *   node --expose-gc --import tsx bench/cache-blocks.ts --data /work/bench-data [--sf 1] [--runs 9] [--sizes 16384,65536,262144] [--only group-by] [--sql] [--profile /tmp/p --profile-size 8192]
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Table as ArrowTable } from 'apache-arrow';
import { TableEnvironment } from '../src/api/environment.js';
import type { Table } from '../src/api/table.js';
import { generateTpch } from '../src/io/tpch/index.js';
import { ensureData } from './suite/data.js';
import { B_QUERIES, buildB } from './lib/flip36.js';
import { withTpchDictionaries } from './lib/tpch-dictionaries.js';
import { startProfiler, saveProfile } from './lib/profile.js';
import { cpuPerCall } from './lib/timing.js';

const { values } = parseArgs({ options: {
  sf: { type: 'string', default: '1' }, runs: { type: 'string', default: '9' }, data: { type: 'string' },
  sizes: { type: 'string', default: '16384,65536,262144' }, only: { type: 'string', default: 'group-by' },
  profile: { type: 'string' }, 'profile-size': { type: 'string', default: '8192' },
} });
const SF = Number(values.sf);
const RUNS = Number(values.runs);
const sizes = values.sizes!.split(',').map(Number);
const queries = B_QUERIES.filter((q) => values.only!.split(',').includes(q.id));
const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1]!;


async function loadTables(): Promise<Record<string, ArrowTable>> {
  const names = ['lineitem', 'orders', 'region'] as const;
  const out: Record<string, ArrowTable> = {};
  if (values.data !== undefined) {
    const dir = (await ensureData(SF, values.data)).dir;
    const env = TableEnvironment.create({ parallelism: 1 }); // a loader: one thread, no workers
    for (const name of names) out[name] = withTpchDictionaries(await (await env.fromArrowFile(join(dir, `${name}.arrow`))).collect());
    await env.close();
  } else {
    const t = generateTpch(SF);
    for (const name of names) out[name] = t[name];
  }
  return out;
}

interface Setup { readonly size: number; readonly env: TableEnvironment; readonly b: Table; readonly blocks: number }

async function setup(tables: Record<string, ArrowTable>, size: number): Promise<Setup> {
  const env = TableEnvironment.create({ parallelism: 1, batchSize: size });
  for (const [name, t] of Object.entries(tables)) env.registerTable(name, t);
  const b = buildB(env).cache();
  await b.count(); // writes the entry
  const read = env.cacheManager.stats().blocksRead;
  await queries[0]!.run(b);
  const blocks = env.cacheManager.stats().blocksRead - read;
  return { size, env, b, blocks };
}

async function main(): Promise<void> {
  const tables = await loadTables();
  const setups: Setup[] = [];
  for (const s of sizes) setups.push(await setup(tables, s));
  console.log(`SF ${SF}; blocks of b: ${setups.map((s) => `${s.size} rows/batch: ${s.blocks}`).join(', ')}; load ${loadavg()[0]!.toFixed(1)}`);
  if (values.profile) {
    const s = setups.find((x) => x.size === Number(values['profile-size'])) ?? setups[0]!;
    const p = await startProfiler();
    for (const q of queries) for (let r = 0; r < RUNS; r++) await cpuPerCall(() => q.run(s.b));
    console.log(saveProfile(await p.stop(), `${values.profile}.cpuprofile`, 40));
  }
  for (const q of queries) {
    const ms = setups.map(() => [] as number[]);
    for (let r = 0; r < RUNS; r++) for (let i = 0; i < setups.length; i++) ms[i]!.push(await cpuPerCall(() => q.run(setups[i]!.b)));
    const med = ms.map(median);
    const first = setups[0]!, last = setups[setups.length - 1]!;
    const perBlock = (med[0]! - med[med.length - 1]!) / (first.blocks - last.blocks) * 1000;
    console.log(`${q.id.padEnd(9)} ${setups.map((s, i) => `${s.blocks} blocks ${med[i]!.toFixed(2)} ms`).join(', ')}: ${perBlock.toFixed(1)} us CPU per block`);
  }
  console.log(`load at end ${loadavg()[0]!.toFixed(1)}`);
  for (const s of setups) await s.env.close();
}

main().catch((e: unknown) => { console.error(e); process.exit(1); });
