/**
 * LATERAL joins once decorrelated (src/planner/rules/decorrelate-lateral.ts, decorrelate-domain.ts):
 * CPU per query at TPC-H SF 0.1, parallelism 1, each LATERAL query beside the hand-written
 * uncorrelated query that returns the same rows (a window, a grouped aggregate left-joined, a
 * plain join). Within ~1.5× of the hand-written form means the decorrelation costs little.
 *
 *   node --import tsx bench/lateral.ts [--runs 7]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { TableEnvironment } from '../src/index.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const env = TableEnvironment.create({ parallelism: 1 });
env.registerTpch(0.1);

/** [name, LATERAL query, hand-written equivalent]. */
const PAIRS: readonly (readonly [string, string, string])[] = [
  ['top-3 orders per customer',
    'SELECT c_custkey, x.o_totalprice FROM customer, LATERAL (SELECT o_totalprice FROM orders WHERE o_custkey = c_custkey ORDER BY o_totalprice DESC LIMIT 3) x',
    'SELECT o_custkey, o_totalprice FROM (SELECT o_custkey, o_totalprice, row_number() OVER (PARTITION BY o_custkey ORDER BY o_totalprice DESC) AS rn FROM orders) WHERE rn <= 3'],
  ['count per customer (LEFT)',
    'SELECT c_custkey, x.n FROM customer LEFT JOIN LATERAL (SELECT count(*) AS n FROM orders WHERE o_custkey = c_custkey) x ON true',
    'SELECT c_custkey, coalesce(g.n, 0) AS n FROM customer LEFT JOIN (SELECT o_custkey, count(*) AS n FROM orders GROUP BY o_custkey) g ON g.o_custkey = c_custkey'],
  ['correlated filter',
    'SELECT c_custkey, x.o_orderkey FROM customer, LATERAL (SELECT o_orderkey FROM orders WHERE o_custkey = c_custkey AND o_totalprice > c_acctbal * 20) x',
    'SELECT c_custkey, o_orderkey FROM customer JOIN orders ON o_custkey = c_custkey AND o_totalprice > c_acctbal * 20'],
];

const runs = Number(values.runs);
const samples = new Map<string, number[]>();
const rows = new Map<string, number>();
for (let r = 0; r < runs + 2; r++) {
  for (const [name, lateral, plain] of PAIRS) {
    for (const [form, q] of [['LATERAL', lateral], ['hand-written', plain]] as const) {
      const key = `${name}\t${form}`;
      const c0 = process.cpuUsage();
      const t = await env.sql(q).collect();
      const c = process.cpuUsage(c0);
      rows.set(key, t.numRows);
      if (r >= 2) samples.set(key, [...(samples.get(key) ?? []), (c.user + c.system) / 1000]);
    }
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log('| query | LATERAL CPU ms | hand-written CPU ms | ratio | rows |\n| --- | ---: | ---: | ---: | ---: |');
for (const [name] of PAIRS) {
  const a = median(samples.get(`${name}\tLATERAL`)!);
  const b = median(samples.get(`${name}\thand-written`)!);
  const n = rows.get(`${name}\tLATERAL`)!;
  if (n !== rows.get(`${name}\thand-written`)) throw new Error(`${name}: ${n} rows with LATERAL, ${rows.get(`${name}\thand-written`)} hand-written`);
  console.log(`| ${name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(a / b).toFixed(2)} | ${n} |`);
}
console.log(`\n${runs} runs after 2 warm-ups (forms interleaved), SF 0.1, parallelism 1; load average ${loadavg()[0]!.toFixed(2)}`);
await env.close();
