/**
 * GROUP BY over key columns with NULLs (kernels/hash-null-words.ts: a NULL is its column's NULL
 * word, hashed like a value): CPU per query at TPC-H SF 0.1 (600K lineitem rows), each key shape
 * with no NULLs (the column itself, and computed by a CASE), NULL for about half the rows, and all NULL. Shapes: one VARCHAR key (a dictionary
 * column), two and three VARCHAR/INTEGER keys, one INTEGER key (1K groups), two INTEGER keys, one
 * BIGINT key of 150K groups. Before NULL words (keys with a NULL took a per-row path) the NULL
 * cases cost 3–4× the no-NULL one.
 *
 * `--kernel`: KeyTable.groupIds alone (no query, no CASE computing the key column) over 600K
 * generated rows in batches of 8192, ns per row: the key table's own cost of the NULLs. With
 * `--against DIR` (another build's root), that build's KeyTable runs too, alternating with this
 * one run by run in the same process (the same load for both: the A/B to trust on a busy machine).
 *
 *   node --import tsx bench/null-keys.ts [--runs 7] [--only str1,int1] [--json] [--kernel [--against DIR]]
 *
 * A/B of two builds: run it from each build's root in alternating processes (`--json` prints the
 * medians as one JSON object per line: {"name": ms}).
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Int32, makeData, type Data } from 'apache-arrow';
import { TableEnvironment } from '../src/index.js';
import { KeyTable } from '../src/exec/kernels/hash.js';
import { utf8FromStrings } from '../src/exec/batch.js';
import type { SqlType } from '../src/relnode/types.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, only: { type: 'string' }, json: { type: 'boolean', default: false }, kernel: { type: 'boolean', default: false }, against: { type: 'string' } } });

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

const samples = new Map<string, number[]>();
const runs = Number(values.runs);
if (values.kernel) {
  const tables: [string, typeof KeyTable][] = [['', KeyTable]];
  if (values.against !== undefined) {
    const other = (await import(resolve(values.against, 'src/exec/kernels/hash.ts'))) as { KeyTable: typeof KeyTable };
    tables.push([' (against)', other.KeyTable]);
  }
  kernelRuns(tables);
} else await queryRuns();

/** Each query `runs` times after 2 warm-ups, in turn: CPU ms per query. */
async function queryRuns(): Promise<void> {
  const env = TableEnvironment.create({ parallelism: 1 });
  env.registerTpch(0.1);
  for (const k of Object.keys(QUERIES)) samples.set(k, []);
  for (let r = 0; r < runs + 2; r++) {
    for (const [name, q] of Object.entries(QUERIES)) {
      const c0 = process.cpuUsage();
      await env.sql(q).collect();
      const c = process.cpuUsage(c0);
      if (r >= 2) samples.get(name)!.push((c.user + c.system) / 1000);
    }
  }
  await env.close();
}

/** Generated key columns (600K rows, batches of 8192): INTEGER of 1000 values, one-byte and 3–7-byte VARCHAR. */
function kernelRuns(tables: readonly [string, typeof KeyTable][]): void {
  const N = 600_000;
  const B = 8192;
  const nullAt = (v: 'none' | 'half' | 'all', i: number): boolean => v === 'all' || (v === 'half' && ((i * 2654435761) >>> 0) % 2 === 0);
  const MODES = ['MAIL', 'SHIP', 'AIR', 'TRUCK', 'RAIL', 'FOB', 'REG AIR'];
  const column = (kind: 'int' | 'flag' | 'word', v: 'none' | 'half' | 'all', off: number, n: number): Data => {
    if (kind !== 'int') return utf8FromStrings(Array.from({ length: n }, (_, j) => (nullAt(v, off + j) ? null : kind === 'flag' ? 'ANR'[(off + j) % 3]! : MODES[(off + j) % 7]!)));
    const bm = new Uint8Array((n + 7) >> 3);
    let nulls = 0;
    const data = Int32Array.from({ length: n }, (_, j) => { if (nullAt(v, off + j)) { nulls++; return 0; } bm[j >> 3]! |= 1 << (j & 7); return ((off + j) * 7919) % 1000; });
    return makeData({ type: new Int32(), length: n, nullCount: nulls, nullBitmap: nulls > 0 ? bm : undefined, data });
  };
  const shapes: Record<string, { types: SqlType[]; kinds: ('int' | 'flag' | 'word')[] }> = {
    int1: { types: ['INTEGER'], kinds: ['int'] },
    word1: { types: ['VARCHAR'], kinds: ['word'] },
    flag2: { types: ['VARCHAR', 'VARCHAR'], kinds: ['flag', 'flag'] },
    mix3: { types: ['VARCHAR', 'VARCHAR', 'INTEGER'], kinds: ['flag', 'word', 'int'] },
  };
  const cases: [string, SqlType[], Data[][]][] = [];
  for (const [shape, { types, kinds }] of Object.entries(shapes)) {
    if (only !== undefined && !only.includes(shape)) continue;
    for (const v of ['none', 'half', 'all'] as const) {
      // The NULLs are in the last key column; the others never NULL.
      const batches: Data[][] = [];
      for (let off = 0; off < N; off += B) batches.push(kinds.map((k, c) => column(k, c === kinds.length - 1 ? v : 'none', off, Math.min(B, N - off))));
      cases.push([`${shape} ${v}`, types, batches]);
      for (const [suffix] of tables) samples.set(`${shape} ${v}${suffix}`, []);
    }
  }
  for (let r = 0; r < runs + 2; r++) {
    for (const [name, types, batches] of cases) {
      for (const [suffix, Table] of tables) {
        const out = new Int32Array(B);
        const c0 = process.cpuUsage();
        const t = new Table(types);
        for (const cols of batches) t.groupIds(cols, cols[0]!.length, out);
        const c = process.cpuUsage(c0);
        if (r >= 2) samples.get(name + suffix)!.push(((c.user + c.system) * 1000) / N);
      }
    }
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const unit = values.kernel ? 'ns per row' : 'CPU ms';
if (values.json) {
  console.log(JSON.stringify(Object.fromEntries([...samples].map(([k, xs]) => [k, median(xs)]))));
} else {
  console.log(`| keys | ${unit} (median) |\n| --- | ---: |`);
  for (const [name, xs] of samples) console.log(`| ${name} | ${median(xs).toFixed(1)} |`);
  console.log(`\n${runs} runs after 2 warm-ups, ${values.kernel ? 'KeyTable.groupIds alone, 600K rows' : 'SF 0.1, parallelism 1'}; load average ${loadavg()[0]!.toFixed(2)}`);
}
