/**
 * A/B of dictionary-encoded stored tables (io/dictionary-store.ts): TPC-H SF 1 lineitem and orders written
 * to CSV in a temp folder (by DuckDB from the Parquet files; removed at the end, also on failure), stored
 * with `CREATE TABLE ... AS SELECT * FROM read_csv(...)` by two environments, `dictionaryStore` on (the
 * default) and off, then string-heavy queries run interleaved on both. Per query: median CPU ms of the
 * calling thread (parallelism 1: every operator runs there) and a check that both answers are equal. Also
 * the CREATE TABLE AS CPU of each mode and, measured alone, the CPU of the encoding step over the plain
 * stored batches (`encodeForStorage`, median of 3), and the bytes the stored tables hold in each mode.
 *
 *   node --expose-gc --import tsx bench/dictionary-store.ts --data /work/bench-data [--runs 9] [--warmup 2]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import type * as arrow from 'apache-arrow';
import { TableEnvironment } from '../src/api/environment.js';
import { encodeForStorage } from '../src/io/dictionary-store.js';
import { storedBatches } from '../src/io/memory.js';
import { threadCpuMs } from '../src/exec/workers/thread-cpu.js';
import { collectGarbage, median } from './lib/timing.js';

const { values } = parseArgs({ options: { data: { type: 'string', default: '/work/bench-data' }, runs: { type: 'string', default: '9' }, warmup: { type: 'string', default: '2' } } });
const runs = Number(values.runs);
const sf1 = join(values.data!, 'sf-1');

const LINEITEM_COLS = 'l_orderkey, l_partkey, l_suppkey, l_quantity, l_extendedprice, l_discount, l_tax, l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, l_comment';
const ORDERS_COLS = 'o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment';

const QUERIES: readonly [string, string][] = [
  ['Q1-like GROUP BY l_returnflag, l_linestatus',
    "SELECT l_returnflag, l_linestatus, sum(l_quantity) AS q, sum(l_extendedprice * (1 - l_discount)) AS r, avg(l_discount) AS d, count(*) AS n FROM lineitem WHERE l_shipdate <= DATE '1998-09-02' GROUP BY l_returnflag, l_linestatus ORDER BY 1, 2"],
  ['GROUP BY l_shipmode', 'SELECT l_shipmode, count(*) AS n, sum(l_extendedprice) AS s FROM lineitem GROUP BY l_shipmode ORDER BY 1'],
  ['text filters (Q19-like)', "SELECT count(*) AS n, sum(l_quantity) AS q FROM lineitem WHERE l_shipinstruct = 'DELIVER IN PERSON' AND l_shipmode IN ('AIR', 'AIR REG')"],
  ['join + GROUP BY text (Q12-like)',
    "SELECT o_orderpriority, l_shipmode, count(*) AS n FROM orders JOIN lineitem ON o_orderkey = l_orderkey WHERE l_receiptdate >= DATE '1994-01-01' AND l_receiptdate < DATE '1995-01-01' GROUP BY o_orderpriority, l_shipmode ORDER BY 1, 2"],
  ['LIKE + GROUP BY o_clerk', "SELECT o_clerk, count(*) AS n, sum(o_totalprice) AS s FROM orders WHERE o_clerk LIKE '%0009%' GROUP BY o_clerk ORDER BY 1"],
];

const dir = mkdtempSync(join(tmpdir(), 'eddy-dictstore-bench-'));
const envs: TableEnvironment[] = [];
try {
  // CSVs from the Parquet files (DuckDB, one thread; not measured).
  const duck = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await duck.connect();
  for (const [t, cols] of [['lineitem', LINEITEM_COLS], ['orders', ORDERS_COLS]] as const) {
    await conn.run(`COPY (SELECT ${cols} FROM read_parquet('${join(sf1, `${t}.parquet`)}')) TO '${join(dir, `${t}.csv`)}' (HEADER)`);
  }
  conn.closeSync();
  duck.closeSync();

  const modes = [true, false];
  const envOf = new Map<boolean, TableEnvironment>();
  const ctas = new Map<boolean, number>();
  for (const on of modes) {
    const env = TableEnvironment.create({ parallelism: 1, dictionaryStore: on });
    envs.push(env);
    envOf.set(on, env);
    collectGarbage();
    const c0 = threadCpuMs() ?? 0;
    for (const t of ['lineitem', 'orders']) await env.executeSql(`CREATE TABLE ${t} AS SELECT * FROM read_csv('${join(dir, `${t}.csv`)}')`);
    ctas.set(on, (threadCpuMs() ?? 0) - c0);
  }
  const onEnv = envOf.get(true)!;
  const encoded = (t: string): string => {
    const src = onEnv.catalog.get(t).source;
    const b = storedBatches(src).batch(0);
    return b.schema.fields.filter((f) => String(f.type).startsWith('Dictionary')).map((f) => f.name).join(', ');
  };

  // The encoding step alone, over the plain stored batches of the "off" environment.
  const encodeMs: number[] = [];
  for (let i = 0; i < 3; i++) {
    collectGarbage();
    const c0 = threadCpuMs() ?? 0;
    for (const t of ['lineitem', 'orders']) {
      const s = storedBatches(envOf.get(false)!.catalog.get(t).source);
      encodeForStorage(Array.from({ length: s.count }, (_, k) => s.batch(k)));
    }
    encodeMs.push((threadCpuMs() ?? 0) - c0);
  }

  // Bytes the stored tables hold (values, offsets, validity; each dictionary once).
  const storedMb = (env: TableEnvironment): number => {
    let bytes = 0;
    const dicts = new Set<unknown>();
    const add = (d: arrow.Data): void => { bytes += (d.values?.byteLength ?? 0) + (d.valueOffsets?.byteLength ?? 0) + (d.nullBitmap?.byteLength ?? 0); };
    for (const t of ['lineitem', 'orders']) {
      const s = storedBatches(env.catalog.get(t).source);
      for (let k = 0; k < s.count; k++) {
        for (const d of s.batch(k).data.children) {
          add(d);
          if (d.dictionary !== undefined && !dicts.has(d.dictionary)) { dicts.add(d.dictionary); for (const x of d.dictionary.data) add(x); }
        }
      }
    }
    return bytes / 1e6;
  };
  const load0 = loadavg()[0]!;
  console.log(`encoded columns: lineitem: ${encoded('lineitem')}; orders: ${encoded('orders')}`);
  console.log(`CREATE TABLE AS lineitem + orders from CSV, CPU ms: on ${ctas.get(true)!.toFixed(0)}, off ${ctas.get(false)!.toFixed(0)} (one run each)`);
  console.log(`stored bytes of lineitem + orders, MB: on ${storedMb(onEnv).toFixed(0)}, off ${storedMb(envOf.get(false)!).toFixed(0)}`);
  console.log(`encodeForStorage alone over the plain stored lineitem + orders, CPU ms (median of 3): ${median(encodeMs).toFixed(0)} [${encodeMs.map((x) => x.toFixed(0)).join(', ')}]\n`);
  console.log('| query | on: CPU ms (median) | off: CPU ms (median) | off / on |');
  console.log('| --- | ---: | ---: | ---: |');
  const key = (t: arrow.Table): string => JSON.stringify(t.toArray().map((r) => r.toJSON()), (_, v) => (typeof v === 'bigint' ? v.toString() : typeof v === 'number' ? Number(v.toPrecision(10)) : v));
  for (const [name, sql] of QUERIES) {
    const answers = new Map<boolean, string>();
    for (const on of modes) for (let i = 0; i < Number(values.warmup); i++) answers.set(on, key(await envOf.get(on)!.sql(sql).collect()));
    if (answers.get(true) !== answers.get(false)) throw new Error(`${name}: the answers differ`);
    const cpu = new Map<boolean, number[]>(modes.map((m) => [m, []]));
    for (let i = 0; i < runs; i++) {
      for (const on of i % 2 === 0 ? modes : [...modes].reverse()) {
        collectGarbage();
        const c0 = threadCpuMs() ?? 0;
        await envOf.get(on)!.sql(sql).collect();
        cpu.get(on)!.push((threadCpuMs() ?? 0) - c0);
      }
    }
    const a = median(cpu.get(true)!);
    const b = median(cpu.get(false)!);
    console.log(`| ${name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(2)} |`);
  }
  console.log(`\nload average 1 min: ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end; ${runs} runs per mode, interleaved, parallelism 1`);
} finally {
  for (const e of envs) await e.close();
  rmSync(dir, { recursive: true, force: true });
}
