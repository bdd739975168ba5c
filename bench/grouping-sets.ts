/**
 * GROUP BY ROLLUP / CUBE / GROUPING SETS over TPC-H lineitem (sql/binder/aggregate.ts,
 * sql/binder/grouping-sets-plan.ts): process CPU (every thread: the calling one, workers, V8's
 * helpers) and wall time per query at parallelism 1 and 2, next to the plain GROUP BY of the same
 * keys. Before the one-read plan every grouping set was an Aggregate of its own over the input, so
 * the input was scanned once per set.
 *
 *   node --expose-gc --import tsx bench/grouping-sets.ts [--sf 0.1] [--data /work/bench-data] [--runs 5] [--warmup 2] [--only rollup2,cube3,rollup2-rows]
 *
 * SF 0.1 is generated in process; another SF reads the suite's Arrow files (`--data`, bench/suite/data.ts).
 * One process measures one build of eddy: for an A/B, run it alternately from two trees (a checkout
 * of the commit before in /tmp) and compare the medians. The last line is JSON ({query: {p1, p2}}).
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { tpchEnvironments } from './lib/p1-p2.js';
import { collectGarbage } from './lib/timing.js';

const { values } = parseArgs({ options: { sf: { type: 'string', default: '0.1' }, data: { type: 'string' }, runs: { type: 'string', default: '5' }, warmup: { type: 'string', default: '2' }, only: { type: 'string' } } });
const sf = Number(values.sf);
const runs = Number(values.runs);
const warmup = Number(values.warmup);

const AGGS = 'count(*) AS n, sum(l_quantity) AS q, sum(l_extendedprice) AS p, avg(l_discount) AS d, min(l_shipdate) AS s, max(l_tax) AS t';
/** name → query; `plain` is the GROUP BY of the finest set, for scale. */
const QUERIES: Record<string, string> = {
  plain: `SELECT l_returnflag, l_linestatus, ${AGGS} FROM lineitem GROUP BY l_returnflag, l_linestatus`,
  rollup2: `SELECT l_returnflag, l_linestatus, ${AGGS} FROM lineitem GROUP BY ROLLUP (l_returnflag, l_linestatus)`,
  cube3: `SELECT l_returnflag, l_linestatus, l_shipmode, ${AGGS} FROM lineitem GROUP BY CUBE (l_returnflag, l_linestatus, l_shipmode)`,
  sets: `SELECT l_returnflag, l_shipmode, l_shipinstruct, ${AGGS} FROM lineitem GROUP BY GROUPING SETS ((l_returnflag), (l_shipmode, l_shipinstruct), ())`,
  'rollup2-many': `SELECT l_suppkey, l_returnflag, ${AGGS} FROM lineitem GROUP BY ROLLUP (l_suppkey, l_returnflag)`,
};
/** Run only when named in --only: a ROLLUP whose finest grouping has a group per row (SF 1: 6M groups). */
const EXTRA: Record<string, string> = {
  'rollup2-rows': `SELECT l_orderkey, l_linenumber, ${AGGS} FROM lineitem GROUP BY ROLLUP (l_orderkey, l_linenumber)`,
};
const only = values.only?.split(',');
const chosen = only === undefined ? Object.entries(QUERIES) : Object.entries({ ...QUERIES, ...EXTRA }).filter(([k]) => only.includes(k));

const { p1, p2 } = await tpchEnvironments(sf, values.data);

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const cpu: Record<string, { p1: number[]; p2: number[] }> = {};
const wall: Record<string, { p1: number[]; p2: number[] }> = {};
for (const [name] of chosen) { cpu[name] = { p1: [], p2: [] }; wall[name] = { p1: [], p2: [] }; }
const engines = [['p1', p1], ['p2', p2]] as const;
for (let r = 0; r < warmup + runs; r++) {
  for (const [name, q] of chosen) {
    for (const [e, env] of engines) {
      collectGarbage();
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await env.sql(q).collect();
      const t = performance.now() - t0;
      const c = process.cpuUsage(c0);
      if (r >= warmup) { cpu[name]![e].push((c.user + c.system) / 1000); wall[name]![e].push(t); }
    }
  }
}
console.log('| query | p1 CPU ms | p1 wall ms | p2 CPU ms | p2 wall ms |\n| --- | ---: | ---: | ---: | ---: |');
const out: Record<string, { p1: number; p2: number; p1Wall: number; p2Wall: number }> = {};
for (const [name] of chosen) {
  const o = { p1: median(cpu[name]!.p1), p2: median(cpu[name]!.p2), p1Wall: median(wall[name]!.p1), p2Wall: median(wall[name]!.p2) };
  out[name] = o;
  console.log(`| ${name} | ${o.p1.toFixed(1)} | ${o.p1Wall.toFixed(1)} | ${o.p2.toFixed(1)} | ${o.p2Wall.toFixed(1)} |`);
}
console.log(`\nSF ${sf}, medians of ${runs} runs after ${warmup} warm-ups (engines interleaved); load average ${loadavg()[0]!.toFixed(2)}`);
console.log(JSON.stringify(out));
await p1.close();
await p2.close();
