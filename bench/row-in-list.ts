/**
 * Row IN lists (src/sql/binder/row-list-values.ts): `(a, b) IN ((1, 1), ...)` of n constant rows binds as
 * `IN (VALUES ...)`, a hash semi join, from ROW_LIST_AS_VALUES items on; shorter lists and lists whose items
 * are not constants stay one OR term per item. Each list length runs in both forms — constant items, and the
 * same items written `(0 + 1, 1)` (not constants: the OR form) — over generated rows, process CPU per query
 * (parse, bind, plan, run) as the median of `--runs`. Before the VALUES form, 100K rows × 5,000 items took
 * ~15 s of CPU as ORs.
 *
 *   node --import tsx bench/row-in-list.ts [--rows 100000] [--runs 3] [--sizes 10,32,1000,5000]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { TableEnvironment } from '../src/index.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '100000' }, runs: { type: 'string', default: '3' }, sizes: { type: 'string', default: '10,32,1000,5000' } } });
const ROWS = Number(values.rows);
const RUNS = Number(values.runs);
const SIZES = values.sizes.split(',').map(Number);

const env = TableEnvironment.create({ parallelism: 1 });
env.registerTable('t', env.fromRecords(Array.from({ length: ROWS }, (_, r) => ({ a: r % 5000, b: r % 7 })), { a: 'INTEGER', b: 'INTEGER' }));

/** Median process CPU (ms) of running `sql` RUNS times, and its count. */
async function cpu(sql: string): Promise<{ ms: number; count: unknown }> {
  const times: number[] = [];
  let count: unknown;
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.cpuUsage();
    count = (await env.sql(sql).toArray())[0]!['c'];
    const d = process.cpuUsage(t0);
    times.push((d.user + d.system) / 1000);
  }
  times.sort((x, y) => x - y);
  return { ms: times[Math.floor(times.length / 2)]!, count };
}

console.log(`rows ${ROWS}, runs ${RUNS}, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (const n of SIZES) {
  const items = (constant: boolean): string => Array.from({ length: n }, (_, i) => `(${constant ? i : `0 + ${i}`}, ${i % 7})`).join(', ');
  const values = await cpu(`SELECT count(*) AS c FROM t WHERE (a, b) IN (${items(true)})`);
  const ors = await cpu(`SELECT count(*) AS c FROM t WHERE (a, b) IN (${items(false)})`);
  if (String(values.count) !== String(ors.count)) throw new Error(`n=${n}: ${String(values.count)} rows against ${String(ors.count)}`);
  console.log(`${String(n).padStart(5)} items: constants ${values.ms.toFixed(0).padStart(6)} ms   OR form ${ors.ms.toFixed(0).padStart(6)} ms   (${String(values.count)} rows)`);
}
await env.close();
