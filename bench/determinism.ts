/**
 * Are DOUBLE results bit-identical at every parallelism? Runs the 22 TPC-H queries at parallelism 1
 * and at each other parallelism asked for (worker threads, `workers: 'large'` so every candidate
 * stage ships), and prints per query whether every value has p1's bits, else the largest relative
 * difference of a DOUBLE (docs/multi-core.md "Determinism").
 *
 *   npm run bench:determinism -- [--sf 0.1] [--data /work/bench-data] [--p 2,3] [--only q1,q6]
 *
 * Without --data the tables are generated in memory (SF ≤ 0.1 is quick); with --data the suite's
 * Arrow files for --sf are read (an error if that SF is not there: nothing is generated into --data). Rows are compared after sorting each side by the exact text of its
 * values, so equal bits sort alike.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Table as ArrowTable } from 'apache-arrow';
import { TableEnvironment } from '../src/api/environment.js';
import { generateTpch, TPCH_TABLES } from '../src/io/tpch/index.js';
import { existsSync, readdirSync } from 'node:fs';
import { ensureData } from './suite/data.js';
import { loadQueries } from './suite/queries.js';

const { values } = parseArgs({ options: { sf: { type: 'string', default: '0.1' }, data: { type: 'string' }, p: { type: 'string', default: '2' }, only: { type: 'string' } } });
const sf = Number(values.sf);
const ps = values.p!.split(',').map(Number);

let tables: Record<string, ArrowTable>;
if (values.data !== undefined) {
  // --data names data to read, not a cache to fill: a missing SF is an error, not 121 MB written
  // into someone's folder (it happened twice with the default --sf 0.1 beside an SF 1 folder).
  if (!existsSync(join(values.data, `sf-${sf}`, 'manifest.json'))) {
    const found = existsSync(values.data) ? readdirSync(values.data).filter((d) => d.startsWith('sf-')) : [];
    throw new Error(`no SF ${sf} data under ${values.data} (found: ${found.join(', ') || 'none'}); pass --sf with one of those, or omit --data to generate the tables in memory`);
  }
  const data = await ensureData(sf, values.data, (m) => console.error(m));
  const loader = TableEnvironment.create({ parallelism: 1 });
  tables = {};
  for (const n of TPCH_TABLES) tables[n] = await (await loader.fromArrowFile(join(data.dir, `${n}.arrow`))).collect();
  await loader.close();
} else tables = generateTpch(sf);

const envOf = (p: number): TableEnvironment => {
  const env = TableEnvironment.create(p === 1 ? { parallelism: 1 } : { parallelism: p, workers: 'large' });
  for (const n of TPCH_TABLES) env.registerTable(n, tables[n]!);
  return env;
};
const p1 = envOf(1);
const others = ps.map((p) => ({ p, env: envOf(p) }));

/** Rows as arrays of plain values (bigints as text), sorted by their exact text. */
function rowsOf(t: ArrowTable): unknown[][] {
  const rows = t.toArray().map((r) => Object.values(r.toJSON() as Record<string, unknown>).map((v) => (typeof v === 'bigint' ? String(v) : v)));
  const key = (r: unknown[]): string => r.map((v) => (typeof v === 'number' ? (Object.is(v, -0) ? '-0' : String(v)) : JSON.stringify(v))).join('|');
  return rows.map((r) => [key(r), r] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((x) => x[1]);
}

/** 'identical', or the largest relative difference of a number (rows matched by position after sorting). */
function compare(a: unknown[][], b: unknown[][]): string {
  if (a.length !== b.length) return `row counts differ (${a.length} vs ${b.length})`;
  let same = true;
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < a[i]!.length; j++) {
      const x = a[i]![j];
      const y = b[i]![j];
      if (typeof x === 'number' && typeof y === 'number') {
        if (Object.is(x, y)) continue;
        same = false;
        worst = Math.max(worst, Math.abs(x - y) / Math.max(Math.abs(x), Math.abs(y)));
      } else if (x !== y) return `row ${i} column ${j} differs (${String(x)} vs ${String(y)}): sorted rows do not line up`;
    }
  }
  return same ? 'identical' : `differs, max ${worst.toExponential(2)} relative`;
}

console.log(`SF ${sf}, p1 vs ${ps.map((p) => `p${p}`).join(', ')} (workers 'large')`);
const ids = values.only?.split(',') ?? Array.from({ length: 22 }, (_, i) => `q${i + 1}`);
for (const q of loadQueries(ids)) {
  const base = rowsOf(await p1.sql(q.sql).collect());
  const parts: string[] = [];
  for (const { p, env } of others) parts.push(`p${p}: ${compare(base, rowsOf(await env.sql(q.sql).collect()))}`);
  console.log(`${q.id}: ${parts.join('; ')}`);
}
await p1.close();
for (const { env } of others) await env.close();
