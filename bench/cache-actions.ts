/**
 * `npm run bench:cache-actions`: only the cached half of bench:cache — the
 * actions on a cached FLIP-36 `b` against their hand loops, sampled
 * alternately (cached, hand, cached, ...) by CPU time, so a shared machine's
 * load drifts over both alike. bench:cache also recomputes `b` for every
 * action (seconds per run at SF 1); this one is for A/B-ing the cached
 * query path (aggregates over cached batches) in a minute.
 *
 *   node --expose-gc --import tsx bench/cache-actions.ts [--sf 1] [--data dir [--plain-strings]] [--runs 9] [--only max,group-by] [--profile /tmp/p]
 *
 * --sql runs each action as SQL text over `b` registered as a view (`SELECT max(revenue) FROM b`,
 * ...): the same text through env.sql each time, so the plan made for it is reused while the
 * cache is unchanged (api/physical-plans.ts), where the Table API builds a new tree per call.
 *
 * --data reads the tables from a prepared data directory (bench/suite/data.ts: `<dir>/sf-<n>/*.arrow`)
 * instead of generating them, with the string columns that generateTpch dictionary-encodes
 * re-encoded the same way (lib/tpch-dictionaries.ts), so the figures match generated data: the
 * group-by's hand loop reads dictionary codes (on the files' plain strings it decodes a string per
 * row, 4x slower than eddy, and the ratio measures that). --plain-strings keeps the files' types.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TableEnvironment } from '../src/api/environment.js';
import { generateTpch } from '../src/io/tpch/index.js';
import { ensureData } from './suite/data.js';
import { B_QUERIES, buildB } from './lib/flip36.js';
import { HAND_LOOPS } from './lib/flip36-hand-loops.js';
import { withTpchDictionaries } from './lib/tpch-dictionaries.js';
import { startProfiler, saveProfile } from './lib/profile.js';
import { cpuPerCall } from './lib/timing.js';
import { compareResults, plainFromArrow, type PlainResult } from './lib/verify.js';

const { values } = parseArgs({ options: { sf: { type: 'string', default: '1' }, runs: { type: 'string', default: '9' }, only: { type: 'string' }, profile: { type: 'string' }, data: { type: 'string' }, sql: { type: 'boolean', default: false }, 'plain-strings': { type: 'boolean', default: false } } });
const SF = Number(values.sf);
const RUNS = Number(values.runs);
const only = values.only?.split(',');
const queries = B_QUERIES.filter((q) => q.id !== 'count' && (only === undefined || only.includes(q.id)));
const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1]!;


/** The actions as SQL over the view `b` (--sql), normalised as B_QUERIES normalise theirs. */
const SQL_TEXTS: Readonly<Record<string, { text: string; dates: string[] }>> = {
  max: { text: 'SELECT max(revenue) AS max FROM b', dates: [] },
  min: { text: 'SELECT min(revenue) AS min FROM b', dates: [] },
  'group-by': { text: 'SELECT l_shipmode, sum(revenue) AS revenue, count(*) AS lines FROM b GROUP BY l_shipmode ORDER BY l_shipmode', dates: [] },
  'top-k': { text: 'SELECT l_orderkey, o_orderdate, revenue FROM b ORDER BY revenue DESC, l_orderkey LIMIT 10', dates: ['o_orderdate'] },
};

async function main(): Promise<void> {
  const env = TableEnvironment.create({ parallelism: 1 });
  const names = ['lineitem', 'orders', 'region'] as const;
  if (values.data !== undefined) {
    const dir = (await ensureData(SF, values.data)).dir;
    for (const name of names) {
      const table = await (await env.fromArrowFile(join(dir, `${name}.arrow`))).collect();
      env.registerTable(name, values['plain-strings'] ? table : withTpchDictionaries(table));
    }
  } else {
    const tables = generateTpch(SF);
    for (const name of names) env.registerTable(name, tables[name]);
  }
  const b = buildB(env).cache();
  if (values.sql) env.registerTable('b', b);
  const runOf = (q: (typeof queries)[number]): (() => Promise<PlainResult>) => {
    if (!values.sql) return () => q.run(b);
    const s = SQL_TEXTS[q.id]!;
    return async () => plainFromArrow(await env.sql(s.text).collect(), s.dates);
  };
  const ref = new Map<string, unknown>();
  for (const q of queries) ref.set(q.id, await runOf(q)());
  const data = await b.collect();
  for (const q of queries) {
    const p = compareResults(HAND_LOOPS[q.id](data), (ref.get(q.id)) as never);
    if (p.length > 0) throw new Error(`${q.id}: hand loop and eddy differ: ${p.join('; ')}`);
  }
  console.log(`SF ${SF}, b has ${data.numRows} rows; load ${loadavg()[0]!.toFixed(1)}`);
  if (values.profile) {
    const p = await startProfiler();
    for (const q of queries) for (let r = 0; r < RUNS; r++) await cpuPerCall(() => runOf(q)());
    console.log(saveProfile(await p.stop(), `${values.profile}.cpuprofile`));
  }
  for (const q of queries) {
    const e: number[] = [];
    const h: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      e.push(await cpuPerCall(() => runOf(q)()));
      h.push(await cpuPerCall(() => HAND_LOOPS[q.id](data)));
    }
    console.log(`${q.id.padEnd(9)} cached ${median(e).toFixed(2)} ms CPU, hand loop ${median(h).toFixed(2)} ms CPU: ${(median(e) / median(h)).toFixed(2)}x`);
  }
  console.log(`load at end ${loadavg()[0]!.toFixed(1)}`);
  await env.close();
}

main().catch((e: unknown) => { console.error(e); process.exit(1); });
