/**
 * Graph workloads of WITH RECURSIVE (issue #9, performance): connected
 * components by label propagation on a generated 1M-edge graph, with and
 * without USING KEY, and the transitive closure of a 100k-edge graph —
 * eddy (SQL, parallelism 1) against DuckDB (threads = 1) on the same data,
 * and against a hand-written typed-array label-propagation loop (the
 * single-thread floor, components only). Engines are interleaved run by
 * run; figures are medians, with the load average and the peak RSS sampled
 * during each engine's runs; ratios are eddy / other. Answers are checked
 * across engines (row count and checksums) before anything is reported.
 *
 *   node --expose-gc --import tsx bench/iteration-graph.ts [--scale 0.1] [--runs 3] [--only cc,cc-key,tc]
 *
 * `--scale` multiplies every graph size (0.05 for a quick run). Decision:
 * the components graph is random (one giant component, diameter ~ log n),
 * so the UNION form's per-node label sets stay small (one min label per
 * node and round); the closure graph is a DAG of short edges (dst within 4
 * of src, ~0.5 edges a node), so its closure stays near-linear — a random
 * graph's closure is quadratic in every engine.
 */
import { loadavg } from 'node:os';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { tableFromArrays } from 'apache-arrow';
import { TableEnvironment } from '../src/index.js';
import { mulberry32 } from '../src/exec/random.js';

/** Options of one benchmark run. */
export interface GraphBenchOptions {
  /** Multiplies every graph size (1 = 1M edges for components, 100k for the closure). */
  readonly scale?: number;
  /** Timed runs per engine (after one warm-up). */
  readonly runs?: number;
  /** Workloads to run (default all). */
  readonly only?: readonly Workload[];
  /** Where progress goes (default stderr). */
  readonly log?: (line: string) => void;
}

export type Workload = 'cc' | 'cc-key' | 'tc';

/** One engine's figures for one workload. */
export interface EngineFigures {
  readonly engine: string;
  readonly medianMs: number;
  readonly runsMs: readonly number[];
  /** Median process CPU time (user + system) of the runs: less sensitive to a shared machine's load than wall time. */
  readonly medianCpuMs: number;
  readonly peakRssMb: number;
  readonly answer: string;
}

export interface WorkloadResult {
  readonly workload: Workload;
  readonly edges: number;
  readonly engines: readonly EngineFigures[];
}

export interface GraphBenchResult {
  readonly results: readonly WorkloadResult[];
  readonly loadAverage: readonly number[];
  readonly markdown: string;
}

/** mulberry32 (src/exec/random.ts): the same graphs in every run. */
const rng = mulberry32;

interface Graph { readonly nodes: number; readonly src: Int32Array; readonly dst: Int32Array }

/** `m` random undirected edges over `n` nodes, stored in both directions (2m rows). */
function randomUndirected(n: number, m: number, seed: number): Graph {
  const r = rng(seed);
  const src = new Int32Array(2 * m);
  const dst = new Int32Array(2 * m);
  for (let i = 0; i < m; i++) {
    const a = Math.floor(r() * n);
    let b = Math.floor(r() * n);
    if (b === a) b = (a + 1) % n;
    src[2 * i] = a; dst[2 * i] = b;
    src[2 * i + 1] = b; dst[2 * i + 1] = a;
  }
  return { nodes: n, src, dst };
}

/** `m` distinct short edges (dst in src+1 .. src+span) over `n` nodes. */
function localDag(n: number, span: number, m: number, seed: number): Graph {
  const r = rng(seed);
  const seen = new Set<number>();
  const src = new Int32Array(m);
  const dst = new Int32Array(m);
  let k = 0;
  while (k < m) {
    const s = Math.floor(r() * (n - 1));
    const d = Math.min(n - 1, s + 1 + Math.floor(r() * span));
    if (seen.has(s * n + d)) continue;
    seen.add(s * n + d);
    src[k] = s; dst[k] = d; k++;
  }
  return { nodes: n, src, dst };
}

const CC_UNION = `
  WITH RECURSIVE cc(node, label) AS (
    SELECT node, node FROM nodes
    UNION
    SELECT e.dst, min(cc.label) FROM cc JOIN edges e ON cc.node = e.src GROUP BY e.dst
  )
  SELECT count(*) AS n, sum(component) AS s, count(DISTINCT component) AS k
  FROM (SELECT node, min(label) AS component FROM cc GROUP BY node) c`;

const CC_KEY = `
  WITH RECURSIVE cc(node, label) USING KEY (node) AS (
    SELECT node, node FROM nodes
    UNION
    SELECT e.dst, min(cc.label)
    FROM cc JOIN edges e ON cc.node = e.src JOIN recurring.cc r ON r.node = e.dst
    WHERE cc.label < r.label
    GROUP BY e.dst
  )
  SELECT count(*) AS n, sum(label) AS s, count(DISTINCT label) AS k FROM cc`;

const TC = `
  WITH RECURSIVE tc(s, d) AS (
    SELECT src, dst FROM dag
    UNION
    SELECT tc.s, e.dst FROM tc JOIN dag e ON tc.d = e.src
  )
  SELECT count(*) AS n, sum(s) AS s, sum(d) AS k FROM tc`;

/** The hand loop: frontier label propagation over a CSR adjacency. */
function handComponents(g: Graph): string {
  const n = g.nodes;
  const deg = new Int32Array(n + 1);
  for (let i = 0; i < g.src.length; i++) deg[g.src[i]! + 1]!++;
  for (let i = 0; i < n; i++) deg[i + 1]! += deg[i]!;
  const adj = new Int32Array(g.src.length);
  const fill = deg.slice(0, n);
  for (let i = 0; i < g.src.length; i++) adj[fill[g.src[i]!]!++] = g.dst[i]!;
  const label = new Int32Array(n);
  for (let i = 0; i < n; i++) label[i] = i;
  let frontier = new Int32Array(n);
  for (let i = 0; i < n; i++) frontier[i] = i;
  let size = n;
  const inNext = new Uint8Array(n);
  let next = new Int32Array(n);
  while (size > 0) {
    let k = 0;
    for (let f = 0; f < size; f++) {
      const u = frontier[f]!;
      const l = label[u]!;
      for (let j = deg[u]!; j < deg[u + 1]!; j++) {
        const v = adj[j]!;
        if (l < label[v]!) {
          label[v] = l;
          if (inNext[v] === 0) { inNext[v] = 1; next[k++] = v; }
        }
      }
    }
    for (let f = 0; f < k; f++) inNext[next[f]!] = 0;
    [frontier, next] = [next, frontier];
    size = k;
  }
  // Only nodes with an edge take part (as the SQL's `nodes` table).
  const has = new Uint8Array(n);
  for (let i = 0; i < g.src.length; i++) has[g.src[i]!] = 1;
  let count = 0;
  let sum = 0;
  const comps = new Set<number>();
  for (let i = 0; i < n; i++) {
    if (has[i] === 0) continue;
    count++; sum += label[i]!; comps.add(label[i]!);
  }
  return `${count}/${sum}/${comps.size}`;
}

/**
 * A full garbage collection before each run (so the peak RSS of a run is its own), of the kind the engine sees in
 * normal operation. Decision: `gc({ type: 'major', execution: 'sync' })`, not a bare `gc()` — the bare call is
 * V8's "collect all available garbage" (memory-reducing: it also clears weakly held maps), which deoptimizes the
 * optimized code of eddy's hot loops ("weak objects") every time, so each eddy run paid its JIT warm-up again
 * (~60 functions re-optimized a run; at scale 0.2 components ~2.5× the CPU); DuckDB (native) and the hand loop
 * (one small function) hardly notice. A major GC frees the same garbage without that.
 */
function settle(): void {
  (globalThis as { gc?: (o?: { type: 'major'; execution: 'sync' }) => void }).gc?.({ type: 'major', execution: 'sync' });
}

/** Runs `f`, sampling the process RSS every 10 ms (the sampler runs while `f` awaits). */
async function measured(f: () => Promise<string> | string): Promise<{ ms: number; cpuMs: number; rssMb: number; answer: string }> {
  settle();
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 10);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  try {
    const answer = await f();
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    peak = Math.max(peak, process.memoryUsage().rss);
    return { ms, cpuMs: (c.user + c.system) / 1000, rssMb: peak / 2 ** 20, answer };
  } finally {
    clearInterval(timer);
  }
}

async function duckAnswer(conn: DuckDBConnection, sql: string): Promise<string> {
  const r = await conn.runAndReadAll(sql);
  return r.getRowsJS()[0]!.map((v) => String(v)).join('/');
}

async function eddyAnswer(env: TableEnvironment, sql: string): Promise<string> {
  const t = await env.sql(sql).collect();
  const row = t.get(0)!.toArray() as unknown[];
  return row.map((v) => String(v)).join('/');
}

async function loadDuck(conn: DuckDBConnection, name: string, cols: readonly [string, Int32Array][]): Promise<void> {
  await conn.run(`CREATE OR REPLACE TABLE ${name} (${cols.map(([c]) => `${c} INTEGER`).join(', ')})`);
  const app = await conn.createAppender(name);
  const n = cols[0]![1].length;
  for (let i = 0; i < n; i++) {
    for (const [, v] of cols) app.appendInteger(v[i]!);
    app.endRow();
  }
  app.closeSync();
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Runs the benchmark and returns its figures and a Markdown report. */
export async function run(options: GraphBenchOptions = {}): Promise<GraphBenchResult> {
  const scale = options.scale ?? 1;
  const runs = options.runs ?? 3;
  const only = new Set<Workload>(options.only ?? ['cc', 'cc-key', 'tc']);
  const log = options.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const ccEdges = Math.round(1_000_000 * scale);
  const tcEdges = Math.round(100_000 * scale);
  const cc = randomUndirected(Math.round(ccEdges / 4), ccEdges, 1);
  const dag = localDag(tcEdges * 2, 4, tcEdges, 2);
  const nodes = Int32Array.from(new Set(cc.src));

  const env = TableEnvironment.create({ parallelism: 1 } as Parameters<typeof TableEnvironment.create>[0]);
  env.registerTable('edges', env.fromArrow(tableFromArrays({ src: cc.src, dst: cc.dst }), 'edges'));
  env.registerTable('nodes', env.fromArrow(tableFromArrays({ node: nodes }), 'nodes'));
  env.registerTable('dag', env.fromArrow(tableFromArrays({ src: dag.src, dst: dag.dst }), 'dag'));
  const duck = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await duck.connect();
  await loadDuck(conn, 'edges', [['src', cc.src], ['dst', cc.dst]]);
  await loadDuck(conn, 'nodes', [['node', nodes]]);
  await loadDuck(conn, 'dag', [['src', dag.src], ['dst', dag.dst]]);

  const workloads: { id: Workload; edges: number; sql: string; hand?: () => string }[] = [
    { id: 'cc', edges: ccEdges, sql: CC_UNION, hand: () => handComponents(cc) },
    { id: 'cc-key', edges: ccEdges, sql: CC_KEY, hand: () => handComponents(cc) },
    { id: 'tc', edges: tcEdges, sql: TC },
  ];
  const results: WorkloadResult[] = [];
  for (const w of workloads.filter((x) => only.has(x.id))) {
    const engines: { name: string; go: () => Promise<string> | string }[] = [
      { name: 'eddy', go: () => eddyAnswer(env, w.sql) },
      { name: 'DuckDB 1 thread', go: () => duckAnswer(conn, w.sql) },
      ...(w.hand ? [{ name: 'hand loop', go: w.hand }] : []),
    ];
    const times = engines.map(() => [] as number[]);
    const cpus = engines.map(() => [] as number[]);
    const peaks = engines.map(() => 0);
    const answers = engines.map(() => '');
    for (let r = -1; r < runs; r++) {
      for (let e = 0; e < engines.length; e++) {
        const m = await measured(engines[e]!.go);
        answers[e] = m.answer;
        peaks[e] = Math.max(peaks[e]!, m.rssMb);
        if (r >= 0) { times[e]!.push(m.ms); cpus[e]!.push(m.cpuMs); }
        log(`${w.id} ${r < 0 ? 'warm-up' : `run ${r + 1}`} ${engines[e]!.name}: ${m.ms.toFixed(0)} ms, cpu ${m.cpuMs.toFixed(0)} ms (${m.answer}) load ${loadavg()[0]!.toFixed(2)}`);
      }
    }
    // eddy's sums are BIGINT, DuckDB's HUGEINT: compare the printed numbers.
    const distinct = new Set(answers.map((a) => a.split('/').map((x) => String(Number(x))).join('/')));
    if (distinct.size !== 1) throw new Error(`${w.id}: the engines disagree: ${engines.map((e, i) => `${e.name} ${answers[i]}`).join('; ')}`);
    results.push({ workload: w.id, edges: w.edges, engines: engines.map((e, i) => ({ engine: e.name, medianMs: median(times[i]!), runsMs: times[i]!, medianCpuMs: median(cpus[i]!), peakRssMb: peaks[i]!, answer: answers[i]! })) });
  }
  duck.closeSync();
  await env.close();
  const load = loadavg();
  return { results, loadAverage: load, markdown: toMarkdown(results, runs, load) };
}

const TITLES: Record<Workload, string> = {
  cc: 'connected components, UNION',
  'cc-key': 'connected components, USING KEY',
  tc: 'transitive closure (DAG)',
};

function toMarkdown(results: readonly WorkloadResult[], runs: number, load: readonly number[]): string {
  const lines = [
    `WITH RECURSIVE graph workloads: median of ${runs} runs after a warm-up, engines interleaved; load average ${load.map((x) => x.toFixed(2)).join(' / ')}.`,
    'Peak RSS is the whole process sampled during the engine\'s runs (it includes data the other engines hold). Ratios: eddy time / other time. CPU: process user + system time (DuckDB runs in this process).',
    '',
    '| workload | edges | engine | median | median CPU | peak RSS | eddy ÷ engine (wall) | eddy ÷ engine (CPU) | answer |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const eddy = r.engines.find((e) => e.engine === 'eddy')!;
    for (const e of r.engines) {
      lines.push(`| ${TITLES[r.workload]} | ${r.edges.toLocaleString('en-US')} | ${e.engine} | ${e.medianMs.toFixed(0)} ms | ${e.medianCpuMs.toFixed(0)} ms | ${e.peakRssMb.toFixed(0)} MB | ${(eddy.medianMs / e.medianMs).toFixed(2)} | ${(eddy.medianCpuMs / e.medianCpuMs).toFixed(2)} | ${e.answer} |`);
    }
  }
  return lines.join('\n');
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const scale = arg('scale');
  const runs = arg('runs');
  const only = arg('only');
  const res = await run({
    ...(scale !== undefined ? { scale: Number(scale) } : {}),
    ...(runs !== undefined ? { runs: Number(runs) } : {}),
    ...(only !== undefined ? { only: only.split(',') as Workload[] } : {}),
  });
  process.stdout.write(`${res.markdown}\n`);
}
