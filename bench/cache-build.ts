/**
 * `npm run bench:cache-build`: what building the suite's cached `j` costs
 * (bench/suite/cache-workload.ts: customer ⋈ orders ⋈ lineitem, 3.27M rows).
 * Each round builds the entry in fresh parallelism-1 environments with
 * `env.cacheTable('j', env.sql(J_SQL))`, alternating the configurations:
 *
 * - `fit`: the default memory budget (everything stays in memory);
 * - `over`: a budget of a quarter of the entry's size (most blocks spill);
 * - `collect`: the same query with no cache, collected (the join's output materialized, kept as
 *   the batches come): what the cache adds to that is its own cost;
 * - `join`: `count(*)` over j (the join without materializing its output columns).
 *
 * Reported per configuration: wall ms and process CPU ms (user + system: the main thread plus V8's
 * GC and compiler helper threads) of the first build and the median of the later ones, with the
 * entry's rows, blocks and bytes (equal across runs, or the bench fails). `--profile DIR` writes a
 * CPU profile of one build (`--profile-config`, default `fit`) after the timed rounds and prints its
 * hottest functions.
 *
 *   node --expose-gc --import tsx bench/cache-build.ts --data /work/bench-data [--sf 1] [--runs 5] [--configs fit,over,collect,join] [--profile /tmp/p [--profile-config over]]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Table as ArrowTable } from 'apache-arrow';
import { TableEnvironment } from '../src/api/environment.js';
import { TPCH_TABLES, type TpchTableName } from '../src/io/tpch/index.js';
import { J_SQL } from './suite/cache-workload.js';
import { ensureData, loadArrowTables } from './suite/data.js';
import { saveProfile, startProfiler } from './lib/profile.js';
import { collectGarbage, median } from './lib/timing.js';

const { values } = parseArgs({ options: {
  sf: { type: 'string', default: '1' }, runs: { type: 'string', default: '5' }, data: { type: 'string' },
  configs: { type: 'string', default: 'fit,over,collect,join' }, profile: { type: 'string' }, 'profile-config': { type: 'string', default: 'fit' },
} });
const SF = Number(values.sf);
const RUNS = Math.max(1, Number(values.runs));
const configs = values.configs!.split(',');

interface Sample { readonly wallMs: number; readonly cpuMs: number; readonly gcMs: number; readonly majorGcs: number; readonly shape: string }

/** GC pauses seen by a PerformanceObserver (main-thread pause ms, and how many were mark-compacts). */
const gcLog = { ms: 0, major: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcLog.ms += e.duration;
    if ((e.detail as { kind?: number } | undefined)?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) gcLog.major++;
  }
}).observe({ entryTypes: ['gc'] });

async function buildOnce(tables: Record<TpchTableName, ArrowTable>, spill: string, config: string, budget: number | undefined): Promise<Sample> {
  const env = TableEnvironment.create({ parallelism: 1, cache: { spillDir: spill, ...(config === 'over' && budget !== undefined ? { memoryBudgetBytes: budget } : {}) } });
  try {
    for (const n of TPCH_TABLES) env.registerTable(n, tables[n]);
    collectGarbage();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const g0 = { ...gcLog };
    let shape: string;
    if (config === 'collect') {
      const t = await env.sql(J_SQL).collect();
      shape = `${t.numRows} rows, ${t.batches.length} batches`;
    } else if (config === 'join') {
      const t = await env.sql(`select count(*) as n from (${J_SQL}) as j`).collect();
      shape = `${String(t.getChildAt(0)!.get(0))} rows`;
    } else {
      await env.cacheTable('j', env.sql(J_SQL));
      const s = env.cacheManager.stats();
      const info = env.cacheManager.list().find((x) => x.state === 'materialized');
      shape = `${info?.rows} rows, ${info?.bytes} B, ${s.evictions} evictions`; // bytes may vary by a few hundred: see the report
    }
    const wallMs = performance.now() - t0;
    const c = process.cpuUsage(c0);
    await new Promise((r) => setImmediate(r)); // the observer's entries of this build arrive
    return { wallMs, cpuMs: (c.user + c.system) / 1000, gcMs: gcLog.ms - g0.ms, majorGcs: gcLog.major - g0.major, shape };
  } finally {
    await env.close();
  }
}

async function main(): Promise<void> {
  const loader = TableEnvironment.create({ parallelism: 1 });
  const tables = await loadArrowTables(await ensureData(SF, values.data), loader);
  await loader.close();
  const spill = mkdtempSync(join(tmpdir(), 'eddy-cache-build-'));
  try {
    // The entry's size sets the over-budget configuration's budget (as in the suite).
    const probe = TableEnvironment.create({ parallelism: 1, cache: { spillDir: spill } });
    for (const n of TPCH_TABLES) probe.registerTable(n, tables[n]);
    await probe.cacheTable('j', probe.sql(J_SQL));
    const bytes = probe.cacheManager.list().find((x) => x.state === 'materialized')?.bytes ?? 0;
    await probe.close();
    const budget = Math.max(1, Math.floor(bytes / 4));
    const samples = new Map<string, Sample[]>(configs.map((c) => [c, []]));
    for (let r = 0; r <= RUNS; r++) {
      for (const c of configs) {
        const s = await buildOnce(tables, spill, c, budget);
        const prev = samples.get(c)!;
        if (prev.length > 0 && prev[0]!.shape.split(' rows')[0] !== s.shape.split(' rows')[0]) throw new Error(`${c}: run ${r} built ${s.shape}, run 0 ${prev[0]!.shape}`);
        prev.push(s);
      }
    }
    console.log(`SF ${SF}; entry ${bytes} B, over-budget budget ${budget} B; ${RUNS} timed rounds after one (configs interleaved); load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    console.log('config  first wall/cpu ms  median wall ms  median cpu ms  (min cpu)  GC pause ms  major GCs  shape');
    for (const [c, ss] of samples) {
      const rest = ss.slice(1);
      console.log(`${c.padEnd(6)}  ${ss[0]!.wallMs.toFixed(0).padStart(6)} / ${ss[0]!.cpuMs.toFixed(0).padEnd(6)}  ${median(rest.map((s) => s.wallMs)).toFixed(0).padStart(14)}  ${median(rest.map((s) => s.cpuMs)).toFixed(0).padStart(13)}  (${Math.min(...rest.map((s) => s.cpuMs)).toFixed(0)})  ${median(rest.map((s) => s.gcMs)).toFixed(0).padStart(11)}  ${median(rest.map((s) => s.majorGcs)).toFixed(0).padStart(9)}  ${ss[0]!.shape}`);
    }
    if (values.profile) {
      const p = await startProfiler();
      await buildOnce(tables, spill, values['profile-config']!, budget);
      console.log(saveProfile(await p.stop(), join(values.profile, 'cache-build.cpuprofile'), 40));
    }
  } finally {
    rmSync(spill, { recursive: true, force: true });
  }
}

await main();
