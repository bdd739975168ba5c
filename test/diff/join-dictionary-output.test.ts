/**
 * A hash join whose output only a single-instance GROUP BY reads emits its
 * build side's VARCHAR columns as dictionary codes whatever the build side's
 * size (planner/lower.ts `aggregatedOf`, join-output.ts "Dictionary gather").
 * Against DuckDB on TPC-H SF 0.01 (orders: 15,000 build rows, over the 4096
 * rows of the small-build path): string group keys and arguments, NULL
 * strings, outer joins (unmatched build rows), NULL join keys, an empty probe
 * side; through the probe side of a join above it (NOT IN, EXISTS, an inner join); at parallelism 1 (the path) and 2 with workers off (no dictionary
 * output: exchanges).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KeyEncoder } from '../../src/exec/kernels/hash-encode.js';
import { useHarness, type Harness } from './harness.js';

const QUERIES: readonly [string, string][] = [
  ['string keys from a big build side',
    'SELECT o.o_orderpriority, o.o_clerk, count(*) AS n, sum(l.l_quantity) AS q FROM lineitem l JOIN orders o ON l.l_orderkey = o.o_orderkey GROUP BY o.o_orderpriority, o.o_clerk'],
  ['string arguments: min, max, count(DISTINCT)',
    'SELECT o.o_orderstatus, min(o.o_clerk) AS lo, max(o.o_comment) AS hi, count(DISTINCT o.o_clerk) AS d FROM lineitem l JOIN orders o ON l.l_orderkey = o.o_orderkey GROUP BY o.o_orderstatus'],
  ['NULL strings in the build side',
    "SELECT o.clerk, count(*) AS n FROM lineitem l JOIN (SELECT o_orderkey, CASE WHEN o_orderkey % 5 = 0 THEN NULL ELSE o_clerk END AS clerk FROM orders) o ON l.l_orderkey = o.o_orderkey GROUP BY o.clerk"],
  ['a LEFT JOIN: unmatched build rows, NULL probe strings',
    'SELECT o.o_orderpriority, l.l_shipmode, count(*) AS n FROM orders o LEFT JOIN (SELECT * FROM lineitem WHERE l_quantity > 45) l ON l.l_orderkey = o.o_orderkey GROUP BY o.o_orderpriority, l.l_shipmode'],
  ['NULL join keys on both sides',
    'SELECT o.o_clerk, count(*) AS n FROM (SELECT CASE WHEN l_orderkey % 3 = 0 THEN NULL ELSE l_orderkey END AS k FROM lineitem) l JOIN (SELECT CASE WHEN o_orderkey % 4 = 0 THEN NULL ELSE o_orderkey END AS k, o_clerk FROM orders) o ON l.k = o.k GROUP BY o.o_clerk'],
  ['an empty probe side', 'SELECT o.o_clerk, count(*) AS n FROM lineitem l JOIN orders o ON l.l_orderkey = o.o_orderkey WHERE l.l_quantity > 1000 GROUP BY o.o_clerk'],
  ['through a Filter and a Project (TPC-H Q10 shape)',
    "SELECT c.c_name, o.o_clerk, upper(o.o_orderpriority) AS p, sum(l.l_extendedprice * (1 - l.l_discount)) AS rev FROM lineitem l JOIN orders o ON l.l_orderkey = o.o_orderkey JOIN customer c ON c.c_custkey = o.o_custkey WHERE l.l_returnflag = 'R' AND o.o_clerk <> 'Clerk#000000001' GROUP BY c.c_name, o.o_clerk, upper(o.o_orderpriority)"],
  // Through the probe side of a join above (lower-marks.ts passAggregatedToProbe): the lower join's strings stay codes.
  ['through a NOT IN anti join (TPC-H Q16 shape: a nullable key keeps it above the join)',
    "SELECT o.o_orderpriority, o.o_clerk, count(DISTINCT l.sk) AS n FROM (SELECT l_orderkey, CASE WHEN l_linenumber = 7 THEN NULL ELSE l_suppkey END AS sk FROM lineitem) l JOIN orders o ON l.l_orderkey = o.o_orderkey WHERE l.sk NOT IN (SELECT s_suppkey FROM supplier WHERE s_acctbal < 0) AND o.o_clerk <> 'Clerk#000000003' GROUP BY o.o_orderpriority, o.o_clerk"],
  ['through an EXISTS semi join with a residual',
    'SELECT o.o_clerk, count(*) AS n FROM lineitem l JOIN orders o ON l.l_orderkey = o.o_orderkey WHERE EXISTS (SELECT 1 FROM part p WHERE p.p_partkey = l.l_partkey AND p.p_size < o.o_shippriority + 10) GROUP BY o.o_clerk'],
  ['through an inner join above', 'SELECT o.o_clerk, s.s_name, count(*) AS n FROM lineitem l JOIN orders o ON l.l_orderkey = o.o_orderkey JOIN supplier s ON s.s_suppkey = l.l_suppkey GROUP BY o.o_clerk, s.s_name'],
];

/** The largest dictionary the key encoder interned during `run`. */
async function largestDictionary(run: () => Promise<void>): Promise<number> {
  const spy = vi.spyOn(KeyEncoder.prototype, 'dictionaryIds');
  await run();
  const sizes = spy.mock.calls.map(([d]) => (d.dictionary as { length: number } | undefined)?.length ?? 0);
  return Math.max(0, ...sizes);
}

function suite(h: Harness, dictionaries: boolean): void {
  afterEach(() => { vi.restoreAllMocks(); });
  for (const [name, sql] of QUERIES) it(name, async () => { await h.check(h.env.sql(sql), sql); });
  it(dictionaries ? 'the GROUP BY reads the big build side through its dictionary' : 'no big dictionary reaches the GROUP BY (exchanges between)', async () => {
    const max = await largestDictionary(async () => { await h.env.sql(QUERIES[0]![1]).collect(); });
    if (dictionaries) expect(max).toBeGreaterThan(4096);
    else expect(max).toBeLessThanOrEqual(4096);
  });
  for (const q of [7, 8, 9]) {
    it(`${dictionaries ? 'the GROUP BY reads the lower join\'s build side as a dictionary' : 'no big dictionary reaches the GROUP BY'} ${QUERIES[q]![0]}`, async () => {
      const max = await largestDictionary(async () => { await h.env.sql(QUERIES[q]![1]).collect(); });
      if (dictionaries) expect(max).toBeGreaterThan(4096);
      else expect(max).toBeLessThanOrEqual(4096);
    });
  }
  it('a join whose output the query returns keeps plain strings', async () => {
    const t = await h.env.sql('SELECT o.o_clerk FROM lineitem l JOIN orders o ON l.l_orderkey = o.o_orderkey').collect();
    expect(t.schema.fields[0]!.type.toString()).toBe('Utf8');
  });
}

describe('join dictionary output, parallelism 1', () => {
  suite(useHarness({ env: { parallelism: 1 } }), true);
});

describe('join dictionary output, parallelism 2', () => {
  // Workers off: the parallelism-2 graph on this thread (with workers on, a plan that runs no
  // worker stage is lowered at parallelism 1, and its join feeds the GROUP BY directly).
  suite(useHarness({ env: { parallelism: 2, workers: 'off', parallelGraph: true } }), false);
});
