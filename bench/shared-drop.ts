/**
 * Whether tables built in SharedArrayBuffers (parallelism > 1: io/column-memory.ts) are freed when
 * they are dropped or replaced: V8 does not count SharedArrayBuffers toward its garbage-collection
 * heuristics, so a process that keeps loading and dropping tables could keep the dropped ones'
 * memory. One process registers TPC-H at `--sf` `--rounds` times under the same names (each
 * round replaces the last, then one query over lineitem runs) and prints, per round, RSS and
 * process.memoryUsage().arrayBuffers (SharedArrayBuffers included), without forcing a GC; at the
 * end it drops every table and closes the environment.
 *
 *   node --import tsx bench/shared-drop.ts --parallelism 2 --sf 0.1 --rounds 8
 */
import { parseArgs } from 'node:util';
import { TableEnvironment } from '../src/api/environment.js';
import '../src/sql/index.js';
import { TPCH_TABLES } from '../src/io/tpch/index.js';

const { values } = parseArgs({ options: { parallelism: { type: 'string', default: '2' }, sf: { type: 'string', default: '0.1' }, rounds: { type: 'string', default: '8' }, mode: { type: 'string', default: 'replace' } } });
const env = TableEnvironment.create({ parallelism: Number(values.parallelism) });
const mb = (n: number): string => (n / 1e6).toFixed(0).padStart(6);
const show = (label: string): void => { const m = process.memoryUsage(); console.log(`${label.padEnd(12)} rss ${mb(m.rss)} MB  arrayBuffers ${mb(m.arrayBuffers)} MB  heapUsed ${mb(m.heapUsed)} MB`); };
show('start');
for (let r = 1; r <= Number(values.rounds); r++) {
  if (values.mode === 'drop') for (const n of TPCH_TABLES) env.dropTable(n);
  env.registerTpch(Number(values.sf));
  await env.sql('SELECT l_returnflag, count(*), sum(l_quantity) FROM lineitem GROUP BY l_returnflag').collect();
  show(`round ${r}`);
}
for (const n of TPCH_TABLES) env.dropTable(n);
await new Promise((r) => setTimeout(r, 100));
show('dropped');
await env.close();
await new Promise((r) => setTimeout(r, 100));
show('closed');
