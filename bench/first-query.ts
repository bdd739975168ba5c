/**
 * What a user's first query costs in a fresh process, at parallelism 1 and 2: each measurement
 * is its own child process that loads the tables, then runs one TPC-H query twice (the first
 * run pays any one-time cost: worker start-up, a table's copy into SharedArrayBuffers; the
 * second is a warm run). The children alternate between the parallelisms (p1, p2, p1, p2, …),
 * so load drifts hit both alike; medians are printed.
 *
 * Why a child per measurement: the cost measured is a once-per-process one, and a second
 * measurement in the same process would find the tables shared and the workers started.
 *
 * Loads (`--load`):
 * - `arrow`: each table from the suite's Arrow IPC files, read by the environment that queries
 *   it (`env.fromArrowFile(path)` then `collect()`) and registered from that result, not kept;
 * - `tpch`: `env.registerTpch(--tpch-sf)`, generated in the process.
 *
 *   node --expose-gc --import tsx bench/first-query.ts --data /work/bench-data --load arrow --only q1,q3,q18 [--pairs 3]
 *   npm run bench:first-query -- --data /work/bench-data --load tpch --tpch-sf 0.5
 *
 * Per child it prints the load's wall and calling-thread CPU, and per run the query's wall,
 * calling-thread CPU and process CPU (all threads, the workers included). Under load compare CPU.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { median } from './lib/timing.js';

const SELF = fileURLToPath(import.meta.url);

/** One child's figures (ms). */
interface ChildResult {
  readonly query: string;
  readonly parallelism: number;
  readonly loadWall: number;
  readonly loadCpu: number;
  /** Per run: wall, calling-thread CPU, process CPU. */
  readonly runs: { wall: number; cpu: number; processCpu: number }[];
  /** process.memoryUsage().arrayBuffers after loading (MB): SharedArrayBuffers included. */
  readonly arrayBuffersMb: number;
}

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '/work/bench-data' },
    sf: { type: 'string', default: '1' },
    load: { type: 'string', default: 'arrow' },
    'tpch-sf': { type: 'string', default: '0.1' },
    only: { type: 'string', default: 'q1,q3,q18' },
    pairs: { type: 'string', default: '3' },
    runs: { type: 'string', default: '2' },
    child: { type: 'string' },
    parallelism: { type: 'string', default: '1' },
  },
});

async function child(query: string, parallelism: number): Promise<void> {
  const { threadCpuMs } = await import('../src/exec/workers/thread-cpu.js');
  await import('../src/sql/index.js');
  const { TableEnvironment } = await import('../src/api/environment.js');
  const { TPCH_TABLES } = await import('../src/io/tpch/index.js');
  const { loadQueries } = await import('./suite/queries.js');
  const env = TableEnvironment.create({ parallelism });
  const cpu = (): number => threadCpuMs() ?? 0;
  const l0 = performance.now();
  const c0 = cpu();
  if (values.load === 'tpch') env.registerTpch(Number(values['tpch-sf']));
  else {
    const dir = join(values.data!, `sf-${values.sf}`);
    for (const n of TPCH_TABLES) env.registerTable(n, await (await env.fromArrowFile(join(dir, `${n}.arrow`))).collect());
  }
  const loadCpu = cpu() - c0;
  const loadWall = performance.now() - l0;
  const arrayBuffersMb = Math.round(process.memoryUsage().arrayBuffers / 1e6);
  const sql = loadQueries([query])[0]!.sql;
  const runs: ChildResult['runs'] = [];
  for (let r = 0; r < Number(values.runs); r++) {
    const p0 = process.cpuUsage();
    const m0 = cpu();
    const t0 = performance.now();
    await env.sql(sql).collect();
    const wall = performance.now() - t0;
    const c = cpu() - m0;
    const p = process.cpuUsage(p0);
    runs.push({ wall, cpu: c, processCpu: (p.user + p.system) / 1000 });
  }
  await env.close();
  const out: ChildResult = { query, parallelism, loadWall, loadCpu, runs, arrayBuffersMb };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

function runChild(query: string, parallelism: number): Promise<ChildResult> {
  const args = ['--expose-gc', '--import', 'tsx', SELF, '--child', query, '--parallelism', String(parallelism),
    '--data', values.data!, '--sf', values.sf!, '--load', values.load!, '--tpch-sf', values['tpch-sf']!, '--runs', values.runs!];
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    c.on('error', reject);
    c.on('close', (code) => {
      try { resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as ChildResult); } catch { reject(new Error(`child ${query} p${parallelism} exited with ${code}: ${out.slice(-500)}`)); }
    });
  });
}

async function main(): Promise<void> {
  const queries = values.only!.split(',').map((s) => s.trim()).filter(Boolean);
  const pairs = Number(values.pairs);
  const f = (x: number): string => x.toFixed(0).padStart(6);
  console.log(`first query in a fresh process, load ${values.load}${values.load === 'tpch' ? ` sf ${values['tpch-sf']}` : ` sf ${values.sf}`}, ${pairs} processes per parallelism, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log('query  p | load wall  load CPU | 1st wall  1st CPU  1st proc CPU | 2nd wall  2nd CPU | arrayBuffers MB');
  for (const q of queries) {
    const by = new Map<number, ChildResult[]>([[1, []], [2, []]]);
    for (let i = 0; i < pairs; i++) for (const p of [1, 2]) by.get(p)!.push(await runChild(q, p));
    for (const [p, rs] of by) {
      const m = (get: (r: ChildResult) => number): string => f(median(rs.map(get)));
      const second = rs[0]!.runs.length > 1;
      console.log(`${q.padEnd(5)} p${p} | ${m((r) => r.loadWall)}    ${m((r) => r.loadCpu)} | ${m((r) => r.runs[0]!.wall)}   ${m((r) => r.runs[0]!.cpu)}       ${m((r) => r.runs[0]!.processCpu)} | ${second ? m((r) => r.runs[1]!.wall) : '     -'}   ${second ? m((r) => r.runs[1]!.cpu) : '     -'} | ${m((r) => r.arrayBuffersMb)}`);
    }
  }
  console.log(`load average at the end ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
}

if (values.child !== undefined) child(values.child, Number(values.parallelism)).catch((e: unknown) => { console.error(e); process.exit(1); });
else main().catch((e: unknown) => { console.error(e); process.exit(1); });
