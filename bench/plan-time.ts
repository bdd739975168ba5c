/**
 * Planning cost of the 22 TPC-H queries (docs/planner.md "Planning cost"): per query, the CPU
 * time of each phase of planning, as `env.sql(text).collect()` at parallelism 2 pays it on a
 * plan it has not planned before:
 *   parse (the parse cache bypassed) → bind → optimize (per rule: decorrelation, join
 *   ordering, the other rules — from a second optimizer run when warm — and `driver`, the
 *   optimize phase minus those: the fixpoint checks and applicability tests) → lower at p2 → stage planning
 *   (ship-stages.ts / ship-shared.ts: find, extend and share each worker stage, encode it; a
 *   stage's result is stood in for by an empty scan of its schema, so later stages are found on a
 *   plan of the right shape) → lowering the rest at p1; and `worker`, what each worker does per
 *   stage before running it (decode the shipped plan, lower it at p1), on this thread (not in
 *   `total`, which is the calling thread's planning).
 * Warm: medians over `--runs` rounds after `--warmup` rounds over all queries (the JIT warm, the
 * tables' statistics computed). Cold (`--cold`): each query planned once in a fresh process (the
 * data loaded, nothing planned before: JIT cold, statistics computed on first use — in the
 * estimating rules and lowering); ~40 s a query under load, mostly loading the data.
 * CPU is process.cpuUsage (µs resolution; the process's helper threads included, so medians).
 *
 *   node --import tsx bench/plan-time.ts --data /work/bench-data [--only q2,q11] [--runs 15] [--warmup 5] [--cold]
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Table as ArrowTable } from 'apache-arrow';
import { TableEnvironment } from '../src/api/environment.js';
import { TPCH_TABLES } from '../src/io/tpch/index.js';
import { isMemorySource, memorySource } from '../src/io/memory.js';
import type { TableSource } from '../src/io/source.js';
import * as rel from '../src/relnode/rel.js';
import type { RelNode, Scan } from '../src/relnode/rel.js';
import { parseQueryUncached } from '../src/sql/parse.js';
import { bindToRel } from '../src/sql/binder/index.js';
import { DECORRELATION_RULES, DEFAULT_RULES, optimize } from '../src/planner/optimizer.js';
import type { Rule } from '../src/planner/rule.js';
import { lower } from '../src/planner/lower.js';
import { estimateRows } from '../src/planner/estimate.js';
import { decodePlan, encodePlan, type ShippedPlan } from '../src/planner/ship-serialize.js';
import { extendUpward, findAggregateStage, runtimeFilteredFromAbove } from '../src/planner/ship-stages.js';
import { replaceNodes, sharedStage } from '../src/planner/ship-shared.js';
import { DEFAULT_WORKER_MIN_ROWS } from '../src/planner/ship-run.js';
import { DEFAULT_DATA_DIR, ensureData } from './suite/data.js';
import { loadQueries } from './suite/queries.js';
import { median } from './lib/timing.js';

const { values } = parseArgs({
  options: {
    sf: { type: 'string', default: '1' }, data: { type: 'string' }, only: { type: 'string' },
    runs: { type: 'string', default: '15' }, warmup: { type: 'string', default: '5' },
    cold: { type: 'boolean', default: false }, child: { type: 'boolean', default: false },
  },
});
const ALL = Array.from({ length: 22 }, (_, i) => `q${i + 1}`);
const ids = values.only ? values.only.split(',') : ALL;

/** The columns of the tables, in print order. */
const PHASES = ['parse', 'bind', 'decorr', 'reorder', 'rules', 'driver', 'optimize', 'lower', 'stages', 'rest', 'worker', 'total'] as const;
type Phase = (typeof PHASES)[number];
type Sample = Record<Phase, number> & { perRule: Record<string, number> };

const cpuMs = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

/**
 * Rules that time themselves into `into` (same names: the optimizer's applicability check sees them
 * unchanged). process.cpuUsage costs ~25 µs a call here (~1 ms per plan over every rule), so warm
 * runs time the rules in a second optimizer run, apart from the phase figures; wall time instead
 * gave nonsense under load ~20.
 */
function timedRules(into: Record<string, number>): Rule[] {
  return DEFAULT_RULES.map((r) => ({
    name: r.name, description: r.description,
    rewrite: (n: RelNode): RelNode => { const t = cpuMs(); try { return r.rewrite(n); } finally { into[r.name] = (into[r.name] ?? 0) + cpuMs() - t; } },
  }));
}
const DECORR = new Set(DECORRELATION_RULES.map((r) => r.name));

/**
 * The calling thread's stage planning of StageRunner.runStages (ship-run.ts), without running the
 * stages; `shipped` collects each stage's encoded plan (a worker decodes and lowers it per run).
 */
function planStages(plan: RelNode, shipped: { plan: ShippedPlan; sources: Map<string, object> }[]): RelNode | undefined {
  const large = (s: Scan): number | undefined => {
    const src = s.table.handle as TableSource;
    return isMemorySource(src) && (src.numRows ?? 0) >= DEFAULT_WORKER_MIN_ROWS ? src.numRows : undefined;
  };
  let cur = plan;
  let changed = false;
  const skip = new Set<RelNode>();
  for (let id = 1; ; id++) {
    const found = findAggregateStage(cur, large, skip, (a) => estimateRows(a) / Math.max(1, estimateRows(a.input)), estimateRows);
    if (found === undefined) break;
    if (found.mode !== 'gather' && runtimeFilteredFromAbove(cur, found.node, found.scan, estimateRows)) { skip.add(found.node); continue; }
    const { stage: st, targets } = sharedStage(cur, found, extendUpward(cur, found), estimateRows);
    const round1 = st.mode === 'partitioned' ? st.final(st.partial) : st.partial;
    const sources = new Map<string, object>();
    const encoded = encodePlan(round1, (s) => { const k = s === st.scan ? 'morsels' : `t${sources.size}`; sources.set(k, s.table.handle); return k; });
    shipped.push({ plan: encoded, sources });
    const schema = st.mode === 'partitioned' ? round1.schema : st.final(st.partial).schema;
    const stand = rel.scan({ id: `stage:${id}`, name: `stage ${id}`, version: 0, schema, handle: memorySource([], `stage ${id}`, schema) });
    cur = replaceNodes(cur, targets, stand);
    changed = true;
  }
  return changed ? cur : undefined;
}

/** One planning of `sql`, phase by phase. */
function planOnce(env: TableEnvironment, sql: string, cold = false): Sample {
  const perRule: Record<string, number> = {};
  const t0 = cpuMs();
  const ast = parseQueryUncached(sql);
  const t1 = cpuMs();
  const tree = bindToRel({ catalog: env.sqlCatalog, text: sql }, ast);
  const t2 = cpuMs();
  // Cold: one run, its rules timed (a second run would be warm). Warm: the per-rule split in a second run.
  const optimized = optimize(tree, cold ? timedRules(perRule) : DEFAULT_RULES);
  const t3 = cpuMs();
  if (!cold) optimize(tree, timedRules(perRule));
  const t3b = cpuMs();
  lower(optimized, { parallelism: 2 });
  const t4 = cpuMs();
  const shipped: { plan: ShippedPlan; sources: Map<string, object> }[] = [];
  const rest = planStages(optimized, shipped);
  const t5 = cpuMs();
  if (rest !== undefined) lower(rest, { parallelism: 1 });
  const t6 = cpuMs();
  // What each worker does per stage before running it (ship-worker.ts): decode the plan, lower it at p1.
  for (const w of shipped) lower(decodePlan(w.plan, (k) => w.sources.get(k)!), { parallelism: 1 });
  const t7 = cpuMs();
  const tr = t3 - t2 + t6 - t3b; // without the second optimize
  const sum = (f: (name: string) => boolean): number => Object.entries(perRule).reduce((a, [k, v]) => a + (f(k) ? v : 0), 0);
  const decorr = sum((k) => DECORR.has(k));
  const reorder = perRule['reorder-joins'] ?? 0;
  const rules = sum((k) => !DECORR.has(k) && k !== 'reorder-joins');
  return {
    parse: t1 - t0, bind: t2 - t1, decorr, reorder, rules, driver: t3 - t2 - decorr - reorder - rules, optimize: t3 - t2,
    lower: t4 - t3b, stages: t5 - t4, rest: t6 - t5, worker: t7 - t6, total: t1 - t0 + t2 - t1 + tr, perRule,
  };
}

async function environment(): Promise<TableEnvironment> {
  const data = await ensureData(Number(values.sf), values.data ?? DEFAULT_DATA_DIR, (m) => console.error(m));
  const loader = TableEnvironment.create({ parallelism: 1 });
  const env = TableEnvironment.create({ parallelism: 2 });
  for (const n of TPCH_TABLES) env.registerTable(n, await (await loader.fromArrowFile(join(data.dir, `${n}.arrow`))).collect() as ArrowTable);
  await loader.close();
  return env;
}

const fmt = (x: number): string => (x < 10 ? x.toFixed(2) : x.toFixed(1));

function printTable(title: string, rows: [string, Sample][]): void {
  console.log(`\n${title}\n`);
  console.log(`| query | ${PHASES.join(' | ')} | top rule |`);
  console.log(`| --- | ${PHASES.map(() => '---:').join(' | ')} | --- |`);
  for (const [id, s] of rows) {
    const top = Object.entries(s.perRule).sort((a, b) => b[1] - a[1])[0];
    console.log(`| ${id} | ${PHASES.map((p) => fmt(s[p])).join(' | ')} | ${top ? `${top[0]} ${fmt(top[1])}` : ''} |`);
  }
  const all = (p: Phase): number => rows.reduce((a, [, s]) => a + s[p], 0);
  console.log(`| all 22 | ${PHASES.map((p) => fmt(all(p))).join(' | ')} | |`);
  const rules: Record<string, number> = {};
  for (const [, s] of rows) for (const [k, v] of Object.entries(s.perRule)) rules[k] = (rules[k] ?? 0) + v;
  console.log(`\nper rule, summed over the queries (ms): ${Object.entries(rules).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}`);
}

/** Per phase (and per rule), the median over the samples. */
function medianSample(xs: readonly Sample[]): Sample {
  const out = {} as Sample;
  for (const p of PHASES) out[p] = median(xs.map((s) => s[p]));
  out.perRule = {};
  for (const k of new Set(xs.flatMap((s) => Object.keys(s.perRule)))) out.perRule[k] = median(xs.map((s) => s.perRule[k] ?? 0));
  return out;
}

const queries = loadQueries(ids);
if (values.child) {
  // Cold: one query planned once in this fresh process.
  const env = await environment();
  const s = planOnce(env, queries[0]!.sql, true);
  process.stdout.write(JSON.stringify(s));
  await env.close();
} else if (values.cold) {
  const self = fileURLToPath(import.meta.url);
  const rows: [string, Sample][] = [];
  const l0 = loadavg()[0]!;
  for (const q of queries) {
    const args = ['--import', 'tsx', self, '--child', '--only', q.id, '--sf', values.sf!, ...(values.data ? ['--data', values.data] : [])];
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (r.status !== 0) throw new Error(`${q.id}: ${r.stderr}`);
    rows.push([q.id, JSON.parse(r.stdout) as Sample]);
  }
  printTable(`Cold planning, CPU ms (one fresh process per query; load ${l0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)})`, rows);
} else {
  const env = await environment();
  const l0 = loadavg()[0]!;
  const samples = new Map<string, Sample[]>(queries.map((q) => [q.id, []]));
  const rounds = Number(values.warmup) + Number(values.runs);
  for (let round = 0; round < rounds; round++) {
    for (const q of queries) {
      const s = planOnce(env, q.sql);
      if (round >= Number(values.warmup)) samples.get(q.id)!.push(s);
    }
  }
  printTable(`Warm planning, CPU ms, medians of ${values.runs} after ${values.warmup} warm-up rounds (load ${l0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)})`,
    queries.map((q) => [q.id, medianSample(samples.get(q.id)!)]));
  await env.close();
}
