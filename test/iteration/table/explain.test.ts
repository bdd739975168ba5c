/**
 * EXPLAIN of iterations: the body indented under Iterate in the logical and
 * optimized plans (the optimizer rewrites bodies like any plan), the loop in
 * the physical plan (heads, the body under its feedback edge), and EXPLAIN
 * ANALYZE's rounds and per-round times on the exit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/environment.js';
import { col } from '../../../src/api/expr.js';

const envs: TableEnvironment[] = [];
afterEach(async () => { await Promise.all(envs.splice(0).map((e) => e.close())); });

function build(): { env: TableEnvironment; result: ReturnType<TableEnvironment['iterate']>[string] } {
  const env = TableEnvironment.create({ parallelism: 1 }); // the plans and rounds pinned here are p1's
  envs.push(env);
  const edges = env.fromRecords([{ src: 1, dst: 2, w: 1.5 }, { src: 2, dst: 3, w: 2.5 }, { src: 3, dst: 1, w: 0.5 }]);
  const { r } = env.iterate({
    variables: { r: env.fromRecords([{ node: 1, hops: 0 }]) },
    data: { edges },
    mode: 'accumulate',
    maxRounds: 4,
    // The filter over the join's output belongs below it (push-down-filter) and `w` is never read (prune-columns).
    body: (v, d) => ({ next: { r: v.r.join(d.edges, col('node').eq(col('src'))).filter('hops < 10').select('dst AS node', 'hops + 1 AS hops') } }),
  });
  return { env, result: r };
}

describe('EXPLAIN of iterations', () => {
  it('shows the body under Iterate, optimized like any plan, and the loop in the physical plan', async () => {
    const { result } = build();
    const text = await result.explain();
    const logical = text.split('== Optimized Plan ==')[0]!;
    const optimized = text.split('== Optimized Plan ==')[1]!.split('== Physical Plan ==')[0]!;
    const physical = text.split('== Physical Plan ==')[1]!;
    expect(logical).toMatch(/^Iterate\(mode=\[accumulate\].*maxRounds=\[4\]/m);
    expect(logical).toMatch(/\n {6}Join\(type=\[inner\]/);
    expect(logical).toMatch(/\n {8}FeedbackRef\(variable=\[0\], view=\[current\]\)/);
    expect(logical).toMatch(/\n {8}DataRef\(index=\[0\]\)/);
    // Optimized: the filter sits on the feedback side of the join now.
    expect(optimized).toMatch(/Filter\(condition=\[\(hops < 10\)\]\)\n\s+FeedbackRef/);
    expect(physical).toMatch(/^IterateExit\(stream\)/m);
    expect(physical).toMatch(/Head\(iteration \d+\)/);
    expect(physical).toMatch(/feedback from Tail#\d+\(iteration \d+\) \[p=1\]:/);
    expect(physical).toMatch(/SeenSet\(new rows\)/);
    expect(physical).toMatch(/feedback from RoundLimit#\d+\(limit=4\) \[p=1\] <- rebalance:/);
  });

  it('EXPLAIN ANALYZE reports the rounds and their times', async () => {
    const { result } = build();
    const text = await result.explain({ analyze: true });
    expect(text).toMatch(/IterateExit\(stream\) \[p=1\]\s+rows=5 .*rounds=4 round_ms=\[[\d., ]+\] avg_round=[\d.]+ms/);
    expect((await result.collect()).numRows).toBe(5); // hops 0 to 4
  });
});
