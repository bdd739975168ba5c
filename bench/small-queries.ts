/**
 * Small-query latency (issue #10 "small queries": parse + bind + optimize +
 * lower + run of a 10-row query in ≤ 0.15 ms). Engines, interleaved round by
 * round so load changes hit them alike: eddy `env.sql(text).collect()`, eddy
 * prepared (`env.prepare(text)` once, `execute(...params)` per run), DuckDB
 * `runAndReadAll(text)` and DuckDB prepared statements. Each round runs every
 * (query, engine) `--iters` times and records the mean; the report is the
 * median (and min) over rounds, in ms per query, with the load average.
 * Every engine's answer is checked against DuckDB's before any time counts.
 *
 * `--dist` runs the tsc build (`npm run build`) instead of the sources
 * through tsx, whose esbuild transform wraps every named closure in a
 * `__name` call: what users of the npm package run.
 * V8 keeps optimizing eddy's per-query code for thousands of runs (TurboFan
 * tiers up functions called once per query slowly): `--warmup N` sets the
 * warm-up runs per (query, engine) (default: one round, `--iters`), and
 * `--samples` prints every round's CPU time to show the trend.
 * Beside the wall time, each cell's CPU time (process.cpuUsage over the same
 * runs) is reported for the eddy engines: on a loaded machine it is the
 * steadier figure (DuckDB runs on threads of its own, so its CPU is omitted).
 *
 *   npm run bench:small [-- --rounds 15 --iters 200 --warmup 200 --samples --dist --queries group,agg --engines eddy-sql --profile out.cpuprofile]
 */
import { loadavg } from 'node:os';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { DuckDBInstance, type DuckDBConnection, type DuckDBPreparedStatement } from '@duckdb/node-api';

type Eddy = typeof import('../src/index.js');

interface SmallQuery {
  readonly id: string;
  /** The text with `$1`-style parameters (DuckDB and eddy prepared). */
  readonly prepared: string;
  readonly params: readonly (number | string)[];
  /** The same query with the parameters written in (eddy env.sql, DuckDB plain). */
  readonly text: string;
}

const QUERIES: readonly SmallQuery[] = [
  { id: 'filter', prepared: 'SELECT a, b FROM t WHERE a > $1', params: [3], text: 'SELECT a, b FROM t WHERE a > 3' },
  { id: 'point', prepared: 'SELECT b FROM t WHERE a = $1', params: [7], text: 'SELECT b FROM t WHERE a = 7' },
  { id: 'agg', prepared: 'SELECT count(*) AS n, sum(a) AS s FROM t WHERE b <> $1', params: ['x'], text: "SELECT count(*) AS n, sum(a) AS s FROM t WHERE b <> 'x'" },
  { id: 'group', prepared: 'SELECT b, count(*) AS n FROM t WHERE a >= $1 GROUP BY b ORDER BY b', params: [0], text: 'SELECT b, count(*) AS n FROM t WHERE a >= 0 GROUP BY b ORDER BY b' },
];

type Runner = () => Promise<string>;
const ENGINES = ['eddy-sql', 'eddy-prepared', 'duckdb', 'duckdb-prepared'] as const;
type EngineId = (typeof ENGINES)[number];

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '15' },
    iters: { type: 'string', default: '200' },
    engines: { type: 'string' },
    queries: { type: 'string' },
    dist: { type: 'boolean', default: false },
    warmup: { type: 'string' },
    samples: { type: 'boolean', default: false },
    profile: { type: 'string' },
  },
});
const rounds = Number(args.rounds);
const iters = Number(args.iters);
/** Runs of each (query, engine) before the measured rounds (default: one round's worth). */
const warmup = args.warmup === undefined ? iters : Number(args.warmup);
const engines = (args.engines?.split(',') ?? [...ENGINES]) as EngineId[];
const queries = args.queries === undefined ? QUERIES : QUERIES.filter((q) => args.queries!.split(',').includes(q.id));

/** Rows as comparable text (numbers and bigints alike). */
function answer(rows: readonly (readonly unknown[])[]): string {
  return JSON.stringify(rows.map((r) => r.map((v) => (typeof v === 'bigint' ? Number(v) : v))));
}

async function main(): Promise<void> {
  const { TableEnvironment } = (await import(args.dist ? '../dist/index.js' : '../src/index.js')) as Eddy;
  const rows = Array.from({ length: 10 }, (_, i) => ({ a: i, b: ['x', 'y', 'z'][i % 3]! }));
  const env = TableEnvironment.create({ parallelism: 1 });
  env.registerTable('t', env.fromRecords(rows, { a: 'INTEGER', b: 'VARCHAR' }));
  const duck = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn: DuckDBConnection = await duck.connect();
  await conn.run('CREATE TABLE t (a INTEGER, b VARCHAR)');
  await conn.run(`INSERT INTO t VALUES ${rows.map((r) => `(${r.a}, '${r.b}')`).join(', ')}`);

  const runners = new Map<string, Runner>();
  for (const q of queries) {
    const eddyRows = async (t: { collect(): Promise<{ toArray(): { toArray(): unknown[] }[] }> }): Promise<string> =>
      answer((await t.collect()).toArray().map((r) => r.toArray()));
    const prepared = env.prepare(q.prepared);
    const duckPrepared: DuckDBPreparedStatement = await conn.prepare(q.prepared);
    const run: Record<EngineId, Runner> = {
      'eddy-sql': () => eddyRows(env.sql(q.text)),
      'eddy-prepared': () => eddyRows(prepared.bind(...q.params)),
      duckdb: async () => answer((await conn.runAndReadAll(q.text)).getRowsJS()),
      'duckdb-prepared': async () => {
        q.params.forEach((p, i) => { if (typeof p === 'number') duckPrepared.bindInteger(i + 1, p); else duckPrepared.bindVarchar(i + 1, p); });
        return answer((await duckPrepared.runAndReadAll()).getRowsJS());
      },
    };
    const expected = await run.duckdb();
    for (const e of engines) {
      const got = await run[e]();
      if (got !== expected) throw new Error(`${e} answered ${q.id} with ${got}, DuckDB with ${expected}`);
      runners.set(`${q.id}/${e}`, run[e]);
    }
  }

  const session = args.profile ? new Session() : undefined;
  if (session) { session.connect(); await session.post('Profiler.enable'); await session.post('Profiler.start'); }
  const samples = new Map<string, number[]>();
  const cpu = new Map<string, number[]>();
  const load0 = loadavg()[0]!;
  for (let r = -1; r < rounds; r++) { // round -1 warms up
    for (const q of queries) {
      for (const e of engines) {
        const key = `${q.id}/${e}`;
        const fn = runners.get(key)!;
        const c0 = process.cpuUsage();
        const start = performance.now();
        const n = r < 0 ? warmup : iters;
        for (let i = 0; i < n; i++) await fn();
        const ms = (performance.now() - start) / iters;
        const c = process.cpuUsage(c0);
        if (r >= 0) {
          (samples.get(key) ?? samples.set(key, []).get(key)!).push(ms);
          (cpu.get(key) ?? cpu.set(key, []).get(key)!).push((c.user + c.system) / 1000 / iters);
        }
      }
    }
  }
  if (session && args.profile) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(args.profile, JSON.stringify(profile));
    console.log(`profile written to ${args.profile}`);
  }
  const load1 = loadavg()[0]!;
  if (args.samples) for (const [k, xs] of cpu) console.log(`${k} CPU ms per round: ${xs.map((x) => x.toFixed(3)).join(' ')}`);

  const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
  const fmt = (x: number): string => x.toFixed(3);
  console.log(`small queries on a 10-row table (${args.dist ? 'dist build' : 'sources through tsx'}): ms per query, median (min) of ${rounds} rounds × ${iters} runs after ${warmup} warm-up runs; load average ${load0.toFixed(2)} → ${load1.toFixed(2)}`);
  const eddies = engines.filter((e) => e.startsWith('eddy'));
  console.log(`| query | ${engines.join(' | ')} | ${eddies.map((e) => `${e} CPU`).join(' | ')} |`);
  console.log(`|---|${[...engines, ...eddies].map(() => '--:').join('|')}|`);
  for (const q of queries) {
    const cell = (m: Map<string, number[]>, e: string): string => { const xs = m.get(`${q.id}/${e}`)!; return `${fmt(median(xs))} (${fmt(Math.min(...xs))})`; };
    console.log(`| ${q.id} | ${[...engines.map((e) => cell(samples, e)), ...eddies.map((e) => cell(cpu, e))].join(' | ')} |`);
  }
  conn.closeSync();
  duck.closeSync();
  await env.close();
}

await main();
