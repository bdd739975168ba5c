/**
 * A planned query's job graph is lowered when first read (planner.ts): at parallelism 2 a plan
 * that runs no worker stage runs lowered at parallelism 1 (api/run-graphs.ts), and its
 * parallelism-2 graph is never lowered; EXPLAIN shows (and lowers) that parallelism-1 graph too; a
 * run that writes a cache entry reads the parallelism-2 graph.
 */
import { tableFromArrays, Table as ArrowTable } from 'apache-arrow';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { JobGraphBuilder, type JobGraph } from '../../src/exec/job.js';
import { TableEnvironment } from '../../src/api/environment.js';

/** A table of four batches (four partitions: a parallel scan splits it). */
const table = new ArrowTable([0, 1, 2, 3].map((b) => tableFromArrays({ k: Int32Array.from([1, 2, 2, 3].map((k) => k + b)), v: Float64Array.from([1, 2, 3, 4]) }).batches[0]!));

describe('lowering a planned query', () => {
  const envs: TableEnvironment[] = [];
  /** The largest vertex parallelism of each graph lowered since the spy started. */
  let lowered: number[] = [];
  const build = JobGraphBuilder.prototype.build;
  beforeAll(() => {
    vi.spyOn(JobGraphBuilder.prototype, 'build').mockImplementation(function (this: JobGraphBuilder, output: number): JobGraph {
      const g = build.call(this, output);
      lowered.push(Math.max(...g.vertices.map((v) => v.parallelism)));
      return g;
    });
  });
  afterAll(() => { vi.restoreAllMocks(); });
  afterEach(async () => { for (const e of envs.splice(0)) await e.close(); lowered = []; });
  const env = (parallelism: number): TableEnvironment => {
    const e = TableEnvironment.create({ parallelism });
    e.registerTable('t', table);
    envs.push(e);
    return e;
  };

  it('lowers a stageless plan at parallelism 2 once, at parallelism 1, and reuses that graph', async () => {
    const e = env(2);
    const q = 'SELECT k, sum(v) AS s FROM t GROUP BY k ORDER BY k';
    for (let i = 0; i < 3; i++) expect((await e.sql(q).toArray()).map((r) => [r.k, r.s])).toEqual([[1, 1], [2, 6], [3, 10], [4, 10], [5, 9], [6, 4]]);
    // Runs 1 and 2 plan afresh (a plan is kept when planned the second time: physical-plans.ts), run 3 reuses it.
    expect(lowered).toEqual([1, 1]);
  });

  it('EXPLAIN lowers what a run runs (parallelism 1); a cache write reads the planned graph (parallelism 2)', async () => {
    const e = env(2);
    const text = await e.sql('SELECT k, count(*) AS n FROM t GROUP BY k').explain();
    expect(text).toContain('[p=1]');
    expect(text).not.toContain('[p=2]');
    expect(lowered).toEqual([1]);
    const c = e.sql('SELECT k, v FROM t WHERE v > 2').cache();
    expect(await c.explain()).toContain('[p=2]');
    expect(lowered).toEqual([1, 2]);
    expect((await c.toArray()).length).toBe(8);
    expect(lowered).toEqual([1, 2, 2]);
  });
});
