/**
 * Worker threads are cancellable, clean and optional (docs/multi-core.md): an AbortSignal stops
 * a stage promptly and the pool stays usable; errors in a worker reach the caller as on one
 * thread; plans that cannot ship (file sources, cache writes) run on the calling thread with the
 * same answers, and EXPLAIN ANALYZE runs the stages a run runs; env.close() ends every worker; workers: 'off' and
 * parallelism 1 never start one.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CancelledError, ExecutionError } from '../../src/relnode/errors.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { testTempDir } from '../helpers/temp-dir.js';
import { tpchEnv } from './tpch-sql.js';
import { workerStats } from './helpers.js';

const SF = 0.01;
const p1 = tpchEnv(SF, { parallelism: 1 });
const p2 = tpchEnv(SF, { parallelism: 2, workers: 'always' });
afterAll(async () => {
  await p1.close();
  await p2.close();
});

/**
 * A stage that takes long: lineitem × nation × region × nation (187M joined rows) into a sum; unbounded
 * it runs ~50 s (lineitem × nation × region alone took ~2 s, too close to a bound for a loaded machine).
 */
const SLOW = 'SELECT sum(l_quantity * n.n_nationkey + r_regionkey + n2.n_regionkey) AS s FROM lineitem, nation n, region, nation n2';

describe('worker threads', { timeout: 180_000 }, () => {
  it('an aborted query rejects promptly with CancelledError, and the pool runs the next query', async () => {
    await p2.sql('SELECT count(*) FROM lineitem').collect(); // the workers are up
    const ac = new AbortController();
    const started = performance.now();
    const q = p2.sql(SLOW).collect({ signal: ac.signal });
    setTimeout(() => ac.abort(), 100);
    await expect(q).rejects.toBeInstanceOf(CancelledError);
    expect(performance.now() - started).toBeLessThan(10_000); // far before the unbounded run's end, even at load 20
    const count = 'SELECT l_linestatus, count(*) AS c FROM lineitem GROUP BY l_linestatus';
    expectSameResult(fromArrow(await p2.sql(count).collect()), fromArrow(await p1.sql(count).collect()));
  });

  it('a signal aborted before the query starts', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(p2.sql(SLOW).collect({ signal: ac.signal })).rejects.toBeInstanceOf(CancelledError);
  });

  it('an error in a worker is the error of the single-thread run', async () => {
    const sql = 'SELECT l_returnflag, sum(CAST(l_orderkey * 100000000000 AS INTEGER)) AS s FROM lineitem GROUP BY l_returnflag';
    const e1 = await p1.sql(sql).collect().then(() => undefined, (e: unknown) => e);
    const e2 = await p2.sql(sql).collect().then(() => undefined, (e: unknown) => e);
    expect(e1).toBeInstanceOf(ExecutionError);
    expect(e2).toBeInstanceOf(ExecutionError);
    // The same message, up to the value that overflowed first (which worker's morsel fails first varies).
    const shape = (e: unknown): string => (e as Error).message.replace(/-?\d+/g, 'N');
    expect((e1 as Error).message).toMatch(/could not cast .* to INTEGER: out of range/);
    expect(shape(e2)).toBe(shape(e1));
    expect((await p2.sql('SELECT count(*) AS c FROM nation').collect()).numRows).toBe(1);
  });

  it('plans that cannot ship run on the calling thread with the same answer', async () => {
    const dir = testTempDir('eddy-workers-');
    const file = join(dir, 'f.csv');
    writeFileSync(file, `k,v\n${Array.from({ length: 500 }, (_, i) => `${i % 7},${i}`).join('\n')}\n`);
    for (const env of [p1, p2]) env.registerTable('f', await env.fromCsv(file));
    const sql = 'SELECT k, sum(v) AS s, count(*) AS c FROM f GROUP BY k ORDER BY k';
    const before = workerStats(p2).stages;
    expectSameResult(fromArrow(await p2.sql(sql).collect()), fromArrow(await p1.sql(sql).collect()), { ordered: true });
    expect(workerStats(p2).stages).toBe(before); // a file source is not shipped

    // A cache write (cache()) runs as one job on this thread (its entry's partitions follow the parallelism).
    const agg = 'SELECT l_returnflag, sum(l_quantity) AS q FROM lineitem GROUP BY l_returnflag';
    const cached = await p2.sql(agg).cache().collect();
    expect(workerStats(p2).stages).toBe(before);
    expectSameResult(fromArrow(cached), fromArrow(await p1.sql(agg).collect()));
    // EXPLAIN ANALYZE runs what a run runs: the stage on the workers, the rest here (run-graphs.ts).
    const text = await p2.sql('SELECT l_returnflag, max(l_quantity) AS q FROM lineitem GROUP BY l_returnflag').explain({ analyze: true });
    expect(text).toMatch(/== Physical Plan \(analyzed\) ==\nScan\(stage \d+\) \[p=1\] {2}rows=3 /);
    expect(text).toMatch(/== Worker Stages ==\n1\. partial stage over lineitem \([\d,]+ rows\): shipped[^\n]*\nran: partial stage, [12] rounds?, [\d.]+ ms wall/);
    expect(workerStats(p2).stages).toBe(before + 1);
  });

  it('the options are checked: callingThreadShare is true or false, workers one of its four values', () => {
    expect(() => tpchEnv(SF, { parallelism: 2, callingThreadShare: 'yes' as never })).toThrow(/callingThreadShare must be true or false, got yes/);
    expect(() => tpchEnv(SF, { parallelism: 2, workers: 'many' as never })).toThrow(/workers must be 'auto', 'large', 'always' or 'off', got many/);
  });

  it('env.close() ends the workers; parallelism 1 and workers: off start none', async () => {
    // The calling thread takes one share by default: parallelism − 1 worker threads; without it, parallelism.
    for (const [callingThreadShare, live] of [[true, 1], [false, 2]] as const) {
      const env = tpchEnv(SF, { parallelism: 2, workers: 'always', callingThreadShare });
      await env.sql('SELECT l_linestatus, count(*) FROM lineitem GROUP BY l_linestatus').collect();
      expect(workerStats(env).live).toBe(live);
      await env.close();
      expect(workerStats(env).live).toBe(0);
    }
    for (const options of [{ parallelism: 1, workers: 'always' as const }, { parallelism: 2, workers: 'off' as const }]) {
      const e = tpchEnv(SF, options);
      await e.sql('SELECT l_linestatus, count(*) FROM lineitem GROUP BY l_linestatus').collect();
      expect(workerStats(e).live).toBe(0);
      await e.close();
    }
  });

  it('auto leaves small tables on the calling thread', async () => {
    const env = tpchEnv(SF, { parallelism: 2 });
    await env.sql('SELECT l_linestatus, count(*) FROM lineitem GROUP BY l_linestatus').collect();
    expect(workerStats(env).stages).toBe(0);
    await env.close();
  });
});
