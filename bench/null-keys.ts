/**
 * GROUP BY over key columns with NULLs (kernels/hash-null-words.ts: a NULL is its column's NULL
 * word, hashed like a value): CPU per query at TPC-H SF 0.1 (600K lineitem rows), each key shape
 * with no NULLs (the column itself, and computed by a CASE), NULL for about half the rows, and all NULL. Shapes: one VARCHAR key (a dictionary
 * column), two and three VARCHAR/INTEGER keys, one INTEGER key (1K groups), two INTEGER keys, one
 * BIGINT key of 150K groups. Before NULL words (keys with a NULL took a per-row path) the NULL
 * cases cost 3–4× the no-NULL one.
 *
 *   node --import tsx bench/null-keys.ts [--runs 7] [--only str1,int1] [--json]
 *
 * A/B of two builds: run it from each build's root in alternating processes (`--json` prints the
 * medians as one JSON object per line: {"name": ms}).
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { TableEnvironment } from '../src/index.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, only: { type: 'string' }, json: { type: 'boolean', default: false } } });

/**
 * A key expression per variant: the column itself (`plain`), the same through a CASE that is never
 * NULL (`none`: l_quantity is 1–50, so the key column is computed like `half`'s), NULL where
 * l_quantity > 25 (`half`), all NULL (`all`). `half` against `none` is the cost of the NULLs.
 */
function variants(col: string, type: string): Record<Variant, string> {
  return { plain: col, none: `CASE WHEN l_quantity <= 50 THEN ${col} END`, half: `CASE WHEN l_quantity <= 25 THEN ${col} END`, all: `CAST(NULL AS ${type})` };
}
type Variant = 'plain' | 'none' | 'half' | 'all';
/** Key shapes: the keys' SELECT list (k1, k2, ... per variant) over lineitem. */
const SHAPES: Record<string, (v: Variant) => string> = {
  str1: (v) => `${variants('l_shipmode', 'VARCHAR')[v]} k1`,
  str2: (v) => `l_returnflag k1, ${variants('l_linestatus', 'VARCHAR')[v]} k2`,
  mix3: (v) => `l_returnflag k1, ${variants('l_linestatus', 'VARCHAR')[v]} k2, 1 k3`,
  int1: (v) => `${variants('l_suppkey', 'INTEGER')[v]} k1`,
  int2: (v) => `l_linenumber k1, ${variants('l_suppkey', 'INTEGER')[v]} k2`,
  big1: (v) => `${variants('CAST(l_orderkey AS BIGINT)', 'BIGINT')[v]} k1`,
};
const QUERIES: Record<string, string> = {};
const only = values.only?.split(',');
for (const [shape, sel] of Object.entries(SHAPES)) {
  if (only !== undefined && !only.includes(shape)) continue;
  for (const v of ['plain', 'none', 'half', 'all'] as const) {
    const keys = sel(v);
    const n = keys.split(',').length;
    const groupBy = Array.from({ length: n }, (_, i) => `k${i + 1}`).join(', ');
    QUERIES[`${shape} ${v}`] = `SELECT ${groupBy}, count(*), sum(l_quantity) FROM (SELECT ${keys}, l_quantity FROM lineitem) GROUP BY ${groupBy}`;
  }
}

const env = TableEnvironment.create({ parallelism: 1 });
env.registerTpch(0.1);
const samples = new Map<string, number[]>(Object.keys(QUERIES).map((k) => [k, []]));
const runs = Number(values.runs);
for (let r = 0; r < runs + 2; r++) {
  for (const [name, q] of Object.entries(QUERIES)) {
    const c0 = process.cpuUsage();
    await env.sql(q).collect();
    const c = process.cpuUsage(c0);
    if (r >= 2) samples.get(name)!.push((c.user + c.system) / 1000);
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
if (values.json) {
  console.log(JSON.stringify(Object.fromEntries([...samples].map(([k, xs]) => [k, median(xs)]))));
} else {
  console.log('| keys | CPU ms (median) |\n| --- | ---: |');
  for (const [name, xs] of samples) console.log(`| ${name} | ${median(xs).toFixed(1)} |`);
  console.log(`\n${runs} runs after 2 warm-ups, SF 0.1, parallelism 1; load average ${loadavg()[0]!.toFixed(2)}`);
}
await env.close();
