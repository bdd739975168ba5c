/**
 * EXPLAIN and EXPLAIN ANALYZE with worker stages (src/api/run-graphs.ts, query-explain.ts):
 * EXPLAIN's Physical Plan is the parallelism-1 graph the calling thread runs after the stages,
 * each chosen stage a placeholder scan (`stage N`); EXPLAIN ANALYZE runs the stages a run runs,
 * annotates the rest, and adds one `ran:` line per stage from its trace.
 */
import * as arrow from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { workerStats } from './helpers.js';

describe('EXPLAIN at parallelism 2 with worker stages', { timeout: 120_000 }, () => {
  const N = 60_000;
  const t = arrow.tableFromArrays({
    k: Int32Array.from({ length: N }, (_, i) => (i * 7919) % 5_000),
    v: Float64Array.from({ length: N }, (_, i) => (i % 997) + i / N),
  });
  const p1 = TableEnvironment.create({ parallelism: 1 });
  const p2 = TableEnvironment.create({ parallelism: 2, workers: 'always', batchSize: 4096 });
  for (const e of [p1, p2]) e.registerTable('t', t);
  afterAll(async () => { await p1.close(); await p2.close(); });
  const sql = 'SELECT k, sum(v) AS s, count(*) AS c FROM t WHERE v > 3 GROUP BY k';
  const physical = (text: string): string => text.slice(text.indexOf('== Physical Plan'), text.indexOf('== Worker Stages'));

  it('EXPLAIN: the rest of the plan at p=1 over a placeholder scan of the stage, and the stage line', async () => {
    const before = workerStats(p2).stages;
    const text = await p2.sql(sql).explain();
    expect(physical(text)).toMatch(/Scan\(stage 1\) \[p=1\]/);
    expect(physical(text)).not.toMatch(/\[p=2\]|<- hash|Scan\(t:/);
    expect(text).toMatch(/== Worker Stages ==\n1\. partial stage over t \(60,000 rows\): shipped/);
    expect(workerStats(p2).stages).toBe(before); // nothing ran
  });

  it('EXPLAIN ANALYZE runs the stage, annotates the rest, and says how the stage ran; same answer as p1', async () => {
    const before = workerStats(p2).stages;
    const text = await p2.sql(sql).explain({ analyze: true });
    expect(workerStats(p2).stages).toBe(before + 1);
    const groups = (await p1.sql(sql).collect()).numRows;
    expect(physical(text)).toMatch(new RegExp(`Scan\\(stage \\d+\\) \\[p=1\\] {2}rows=${groups} batches=\\d+ time=`));
    expect(physical(text)).not.toContain('[p=2]');
    expect(text).toMatch(/\n1\. partial stage over t \(60,000 rows\): shipped[^\n]*\nran: partial stage, 2 rounds, [\d.]+ ms wall, calling thread [\d.]+ ms CPU, shares' job CPU [\d.]+ \+ [\d.]+ ms\n/);
    expect(text).toMatch(new RegExp(`\\n${groups} rows in [\\d.]+ ms$`));
    expectSameResult(fromArrow(await p2.sql(sql).collect()), fromArrow(await p1.sql(sql).collect()));
  });

  it('EXPLAIN ANALYZE shows its own stages only, while other queries run stages on the same environment', async () => {
    const other = 'SELECT k % 10 AS g, max(v) AS m FROM t GROUP BY k % 10';
    const others = (): Promise<unknown>[] => Array.from({ length: 2 }, () => p2.sql(other).collect());
    const explained = p2.sql(sql).explain({ analyze: true });
    await Promise.all([...others(), explained, ...others()]);
    const text = await explained;
    // One stage ran for this query: one decision and one `ran:` line, whatever ran meanwhile.
    expect(text.match(/\nran: /g)?.length).toBe(1);
    expect(text.match(/\n\d+\. [a-z ]+ stage over /g)?.length).toBe(1);
    // The stage's result is named by its line in the list, not by how many stages the environment ran.
    expect(workerStats(p2).stages).toBeGreaterThan(3);
    expect(physical(text)).toMatch(/Scan\(stage 1( partial)?\) \[p=1\]/);
  });
});
