/** Training-round events (the REPL's progress line): one per round, with the mean loss for the SGD models. */
import { afterEach, expect, it } from 'vitest';
import type { TableEnvironment } from '../../src/api/environment.js';
import { onTrainingRound, type TrainingRound } from '../../src/ml/index.js';
import { mlEnv } from './helpers.js';

let env: TableEnvironment | undefined;
afterEach(async () => { await env?.close(); env = undefined; });

it('reports every round, and the loss where there is one', async () => {
  env = mlEnv(2);
  const seen: TrainingRound[] = [];
  const off = onTrainingRound((r) => seen.push(r));
  try {
    await env.sql("SELECT * FROM linear_regression(data, label := 'y', weight := 'w', max_iter := 5)").toArray();
    await env.sql('SELECT * FROM kmeans(points, max_iter := 3)').toArray();
  } finally {
    off();
  }
  const lr = seen.filter((r) => r.fn === 'linear_regression');
  expect(lr.map((r) => r.round)).toEqual([0, 1, 2, 3, 4]);
  const losses = lr.map((r) => r.loss!);
  for (let i = 1; i < losses.length; i++) expect(losses[i]!).toBeLessThan(losses[i - 1]!);
  const km = seen.filter((r) => r.fn === 'kmeans');
  expect(km.map((r) => r.round)).toEqual([0, 1, 2]);
  // The last rounds' centroids are (0.1, 0.1) and (9.2, 0.2): mean squared distance (0.02·3… computed here).
  const pts = [[0, 0], [0, 0.3], [0.3, 0], [9, 0], [9, 0.6], [9.6, 0]];
  const want = pts.reduce((s, [x, y]) => s + Math.min((x! - 0.1) ** 2 + (y! - 0.1) ** 2, (x! - 9.2) ** 2 + (y! - 0.2) ** 2), 0) / 6;
  expect(km[2]!.loss).toBeCloseTo(want, 10);
  expect(km[0]!.loss!).toBeGreaterThanOrEqual(km[2]!.loss!);
  const before = seen.length;
  await env.sql('SELECT * FROM kmeans(points, max_iter := 2)').toArray();
  expect(seen.length).toBe(before);
});

it('EXPLAIN ANALYZE of a training shows its rounds and their times on the exit, run after run', async () => {
  env = mlEnv(2);
  const rounds = (text: string): number => Number(/ExitIteration \[p=1\]\s+rows=\d+ .*rounds=(\d+) round_ms=\[[\d., …]+\] avg_round=[\d.]+ms/.exec(text)?.[1]);
  expect(rounds(await env.sql("SELECT * FROM linear_regression(data, label := 'y', weight := 'w', max_iter := 5)").explain({ analyze: true }))).toBe(5);
  const km = env.sql('SELECT * FROM kmeans(points, max_iter := 12)');
  expect(rounds(await km.explain({ analyze: true }))).toBe(12);
  // A second analyzed run starts its count afresh.
  expect(rounds(await km.explain({ analyze: true }))).toBe(12);
  // Plain EXPLAIN runs nothing and shows no rounds.
  expect(await km.explain()).not.toMatch(/rounds=/);
});
