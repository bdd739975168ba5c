/**
 * Integer sums in a partial stage (exec/operators/agg-int-sum.ts "Partial stages"): the CPU of
 * grouped and global sum / avg over BIGINT and INTEGER columns at parallelism 2, where a BIGINT
 * sum travels as two BIGINT words per group (sum_low64, sum_high64) and avg over BIGINT splits
 * (before: one BIGINT per group, and avg over BIGINT kept each group's rows on one share). A DOUBLE
 * sum is the control (its path did not change). Per query: the process's CPU per run (every
 * thread) and the stage's shares' job CPU (the rows' loops), medians over the timed runs. Stages
 * always ship (`workers: 'always'`): at 4M rows the cost model keeps some of these on one thread.
 *
 *   node --expose-gc --import tsx bench/int-sum-stage.ts [--rows 4000000] [--runs 15] [--warmup 5] [--only sum-bigint,avg-bigint]
 *
 * Why CPU and not wall time: the machine is shared; CPU medians of alternating A/B processes (this
 * file copied into a worktree of the old commit) compare builds under load (docs/bench.md).
 */
import { tableFromArrays } from 'apache-arrow';
import { TableEnvironment } from '../src/api/index.js';
import type { QueryExecutor } from '../src/api/query-execution.js';

const arg = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1]! : dflt;
};
const ROWS = Number(arg('rows', '4000000'));
const RUNS = Number(arg('runs', '15'));
const WARMUP = Number(arg('warmup', '5'));
const only = arg('only', '').split(',').filter((s) => s !== '');

const QUERIES: readonly (readonly [string, string])[] = [
  ['sum-bigint', 'SELECT g, sum(b) AS s, count(*) AS c FROM t GROUP BY g'],
  ['sum-bigint-global', 'SELECT sum(b) AS s FROM t WHERE i > -2000000000'],
  ['avg-bigint', 'SELECT g, avg(b) AS a FROM t GROUP BY g'],
  ['sum-int', 'SELECT g, sum(i) AS s, avg(i) AS a FROM t GROUP BY g'],
  ['sum-double', 'SELECT g, sum(d) AS s, avg(d) AS a FROM t GROUP BY g'],
];

/** xorshift32: the same data in every process. */
function rng(seed: number): () => number {
  let x = seed;
  return () => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return x >>> 0; };
}

function makeTable() {
  const r = rng(2463534242);
  const g = new Int32Array(ROWS);
  const i32 = new Int32Array(ROWS);
  const b = new BigInt64Array(ROWS);
  const d = new Float64Array(ROWS);
  for (let k = 0; k < ROWS; k++) {
    g[k] = k % 16;
    const x = r();
    i32[k] = x | 0;
    // ~2^40 values of both signs: a BIGINT column whose sums pass 2^53 (the words' BigInt path per group) but not 2^63.
    b[k] = (BigInt(x) << 8n) - (1n << 39n);
    d[k] = (x % 1_000_000) / 100;
  }
  return tableFromArrays({ g, i: i32, b, d });
}

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]!; };
const cpuMs = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

async function main(): Promise<void> {
  const env = TableEnvironment.create({ parallelism: 2, workers: 'always' });
  env.registerTable('t', makeTable());
  const stats = (): QueryExecutor['workerStats'] => (env as unknown as { executor: QueryExecutor }).executor.workerStats;
  console.log(`rows ${ROWS}, runs ${RUNS} (warm-up ${WARMUP}), load ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log('| query | mode | process CPU ms | shares job CPU ms | calling CPU ms |');
  console.log('| --- | --- | ---: | ---: | ---: |');
  for (const [id, sql] of QUERIES) {
    if (only.length > 0 && !only.includes(id)) continue;
    for (let k = 0; k < WARMUP; k++) await env.sql(sql).collect();
    const cpu: number[] = [];
    const job: number[] = [];
    const calling: number[] = [];
    let mode = '-';
    for (let k = 0; k < RUNS; k++) {
      (globalThis as { gc?: () => void }).gc?.();
      const before = stats().stages;
      const c0 = cpuMs();
      await env.sql(sql).collect();
      cpu.push(cpuMs() - c0);
      const traces = stats().traces.slice(-(stats().stages - before));
      mode = traces.map((t) => t.mode).join('+') || 'none';
      job.push(traces.reduce((a, t) => a + t.rounds.flat().reduce((x, r) => x + r.runCpuMs, 0), 0));
      calling.push(traces.reduce((a, t) => a + t.callingCpuMs, 0));
    }
    console.log(`| ${id} | ${mode} | ${median(cpu).toFixed(1)} | ${median(job).toFixed(1)} | ${median(calling).toFixed(1)} |`);
  }
  await env.close();
}

void main();
