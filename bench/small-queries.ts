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
 *   npm run bench:small [-- --rounds 15 --iters 200 --profile out.cpuprofile]
 */
import { loadavg } from 'node:os';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { DuckDBInstance, type DuckDBConnection, type DuckDBPreparedStatement } from '@duckdb/node-api';
import { TableEnvironment } from '../src/index.js';

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
    profile: { type: 'string' },
  },
});
const rounds = Number(args.rounds);
const iters = Number(args.iters);
const engines = (args.engines?.split(',') ?? [...ENGINES]) as EngineId[];

/** Rows as comparable text (numbers and bigints alike). */
function answer(rows: readonly (readonly unknown[])[]): string {
  return JSON.stringify(rows.map((r) => r.map((v) => (typeof v === 'bigint' ? Number(v) : v))));
}

async function main(): Promise<void> {
  const rows = Array.from({ length: 10 }, (_, i) => ({ a: i, b: ['x', 'y', 'z'][i % 3]! }));
  const env = TableEnvironment.create({ parallelism: 1 });
  env.registerTable('t', env.fromRecords(rows, { a: 'INTEGER', b: 'VARCHAR' }));
  const duck = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn: DuckDBConnection = await duck.connect();
  await conn.run('CREATE TABLE t (a INTEGER, b VARCHAR)');
  await conn.run(`INSERT INTO t VALUES ${rows.map((r) => `(${r.a}, '${r.b}')`).join(', ')}`);

  const runners = new Map<string, Runner>();
  for (const q of QUERIES) {
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
  const load0 = loadavg()[0]!;
  for (let r = -1; r < rounds; r++) { // round -1 warms up
    for (const q of QUERIES) {
      for (const e of engines) {
        const key = `${q.id}/${e}`;
        const fn = runners.get(key)!;
        const start = performance.now();
        for (let i = 0; i < iters; i++) await fn();
        const ms = (performance.now() - start) / iters;
        if (r >= 0) (samples.get(key) ?? samples.set(key, []).get(key)!).push(ms);
      }
    }
  }
  if (session && args.profile) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(args.profile, JSON.stringify(profile));
    console.log(`profile written to ${args.profile}`);
  }
  const load1 = loadavg()[0]!;

  const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
  const fmt = (x: number): string => x.toFixed(3);
  console.log(`small queries on a 10-row table: ms per query, median (min) of ${rounds} rounds × ${iters} runs; load average ${load0.toFixed(2)} → ${load1.toFixed(2)}`);
  console.log(`| query | ${engines.join(' | ')} |`);
  console.log(`|---|${engines.map(() => '--:').join('|')}|`);
  for (const q of QUERIES) {
    const cells = engines.map((e) => { const xs = samples.get(`${q.id}/${e}`)!; return `${fmt(median(xs))} (${fmt(Math.min(...xs))})`; });
    console.log(`| ${q.id} | ${cells.join(' | ')} |`);
  }
  conn.closeSync();
  duck.closeSync();
  await env.close();
}

await main();
