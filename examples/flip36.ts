/**
 * FLIP-36's motivating example ("Interactive Programming", Flink), in eddy:
 *
 *     Table b = a.select(...).filter(...)
 *     int c = b.max()
 *     int d = b.min()              // recompute table b from table a
 *     Table ce = b.select((f1 - min) / (max - min)).filter(...)
 *     ce.print()                   // recompute table b from table a
 *     if (b.count() > 10) { b.select(UDF1(...)).print() } else { ... }
 *
 * Without a cache every action recomputes `b`. With `b.cache()` the first
 * action computes `b` once and keeps it in the cache service; every later
 * action reads it. This program builds `b` (lineitem ⋈ orders, filtered,
 * projected, with a computed revenue), runs the actions with and without the
 * cache, prints results and timings, shows the plans (CacheSink, then
 * CacheSource), the cache's entries and totals, and releases it.
 *
 *   npx tsx examples/flip36.ts            # TPC-H scale factor 0.1
 *   npx tsx examples/flip36.ts --sf 1     # 6M lineitem rows
 *
 * See docs/caching.md for what cache() promises.
 */
import type { Table as ArrowTable } from 'apache-arrow';
import { col, countStar, date, desc, lit, sum, TableEnvironment, type Table } from '../src/index.js';
import { formatBytes } from '../src/cache/report.js';
import { formatTable } from '../src/cli/format.js';

/** FLIP-36's `b`, derived from two tables: lineitem ⋈ orders, filtered on dates and quantity, four columns. */
function buildB(env: TableEnvironment): Table {
  return env.from('lineitem')
    .join(env.from('orders'), col('l_orderkey').eq(col('o_orderkey')))
    .filter(col('o_orderdate').ge(date('1995-01-01')).and(col('l_quantity').gt(10)))
    .select('l_orderkey', 'o_orderdate', 'l_shipmode', col('l_extendedprice').times(lit(1).minus(col('l_discount'))).as('revenue'));
}

/** Runs an action and prints its result and wall time. */
async function timed<T>(label: string, action: () => Promise<T>, show: (v: T) => string = String): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await action();
  const ms = performance.now() - t0;
  console.log(`  ${label.padEnd(34)} ${ms.toFixed(1).padStart(8)} ms   ${show(value)}`);
  return { value, ms };
}

/** FLIP-36's `ce = b.select((f1 - min) / (max - min)).filter(...)`: revenue normalized to [0, 1], the top 5% of the range. */
function ce(b: Table, min: number, max: number): Table {
  return b.select('l_orderkey', col('revenue').minus(min).div(max - min).as('norm')).filter(col('norm').gt(0.95));
}

/** FLIP-36's program on `b`: max, min, a normalized projection (ce), count, and a branch on the count. */
async function program(b: Table): Promise<number> {
  const max = await timed('c = b.max(revenue)', () => b.max('revenue'));
  const min = await timed('d = b.min(revenue)', () => b.min('revenue'));
  const hi = Number(max.value);
  const lo = Number(min.value);
  const ceRows = await timed('ce = b.select(norm).filter(...)', () => ce(b, lo, hi).collect(), (t: ArrowTable) => `${t.numRows} rows`);
  const count = await timed('b.count()', () => b.count());
  const branch = count.value > 10
    ? await timed('b.groupBy(l_shipmode) (count > 10)', () => b.groupBy('l_shipmode').select('l_shipmode', sum('revenue').as('revenue'), countStar().as('lines')).orderBy('l_shipmode').collect(), (t: ArrowTable) => `${t.numRows} groups`)
    : await timed('b.limit(10) (count ≤ 10)', () => b.limit(10).collect(), (t: ArrowTable) => `${t.numRows} rows`);
  const total = max.ms + min.ms + ceRows.ms + count.ms + branch.ms;
  console.log(`  ${'total'.padEnd(34)} ${total.toFixed(1).padStart(8)} ms`);
  return total;
}

async function main(): Promise<void> {
  const sfArg = process.argv.indexOf('--sf');
  const sf = sfArg > 0 ? Number(process.argv[sfArg + 1]) : 0.1;
  let t0 = performance.now();
  // Two environments over the same data: one never caches, one caches b.
  const plain = TableEnvironment.create();
  const env = TableEnvironment.create({ cache: { memoryBudgetBytes: 512 * 1024 * 1024 } });
  plain.registerTpch(sf);
  env.registerTpch(sf);
  console.log(`TPC-H scale factor ${sf} generated in ${(performance.now() - t0).toFixed(0)} ms (twice: one environment without the cache, one with)\n`);

  console.log('1. Without the cache: every action recomputes b from lineitem and orders');
  const recomputed = await program(buildB(plain));

  console.log('\n2. With b.cache(): the first action computes b and writes it; the others read it');
  const b = buildB(env).cache(); // lazy: runs nothing
  console.log('\n   b.explain() before the first action: this run would write the cache (CacheSink)\n');
  console.log(indent(String(await b.explain())));
  const cached = await program(b);
  console.log(`\n   ${(recomputed / cached).toFixed(1)}× faster with the cache (${recomputed.toFixed(0)} ms → ${cached.toFixed(0)} ms)`);

  console.log("\n3. A query on b now reads the cache: b.select('revenue').filter(revenue > 90000).explain()\n   (the CacheSource reads one column and skips batches whose min/max rule the filter out)\n");
  console.log(indent(String(await b.select(col('revenue')).filter(col('revenue').gt(90000)).explain())));

  console.log('\n4. The top 3 rows of ce, and the group-by, from the cache\n');
  const max = Number(await b.max('revenue'));
  const min = Number(await b.min('revenue'));
  console.log(indent(formatTable(await ce(b, min, max).orderBy(desc('norm'), 'l_orderkey').limit(3).collect())));
  console.log(indent(formatTable(await b.groupBy('l_shipmode').select('l_shipmode', sum('revenue').as('revenue'), countStar().as('lines')).orderBy('l_shipmode').collect())));

  console.log('\n5. env.cacheManager.list() (SHOW CACHES) and stats()\n');
  showCaches(env);

  console.log('\n6. await b.invalidateCache(): memory released; b stays marked, so the next action re-creates the entry\n');
  await b.invalidateCache();
  showCaches(env);
  t0 = performance.now();
  const n = await b.count();
  console.log(`\n   b.count() = ${n} in ${(performance.now() - t0).toFixed(0)} ms (recomputed and cached again): ${env.cacheManager.stats().entries} entry, ${formatBytes(env.cacheManager.stats().memoryBytes)} resident`);

  await env.close(); // releases every entry (and spill files)
  await plain.close();
}

function showCaches(env: TableEnvironment): void {
  for (const e of env.cacheManager.list()) {
    console.log(`   ${e.id}  ${e.state}  rows=${e.rows}  bytes=${formatBytes(e.bytes)}  tier=${e.tier}  hits=${e.hits}  partitions=${e.partitions}  tables=${e.tables.join(',')}${e.reason ? `  (${e.reason})` : ''}`);
    console.log(`     ${e.label}`);
  }
  const s = env.cacheManager.stats();
  console.log(`   stats: ${s.entries} entries, ${s.marks} marks, ${formatBytes(s.memoryBytes)} in memory, ${formatBytes(s.diskBytes)} on disk, ${s.hits} hits, ${s.misses} misses, ${s.evictions} evictions, ${s.lost} lost`);
}

function indent(text: string): string {
  return text.trimEnd().split('\n').map((l) => `   ${l}`).join('\n');
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
  process.exitCode = 1;
});
