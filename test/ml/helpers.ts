/** Data of the ML tests: ITERATION-SEMANTICS.md's known-answer inputs, registered in an environment. */
import { TableEnvironment } from '../../src/api/environment.js';

export const POINTS = [[0, 0], [0, 0.3], [0.3, 0], [9, 0], [9, 0.6], [9.6, 0]] as const;
/** (x0, x1) → y, weights 1: linear regression by SGD, 20 rounds → (1.141, 1.829). */
export const REGRESSION = [[2, 1, 4], [3, 2, 7], [4, 3, 10], [2, 4, 10], [2, 2, 6], [4, 3, 10], [1, 2, 5], [5, 3, 11]] as const;

/** An environment with `points` (x, y DOUBLE) and `data` (x0 INTEGER, x1 DOUBLE, y DOUBLE, w DOUBLE). */
export function mlEnv(parallelism: number): TableEnvironment {
  const env = TableEnvironment.create({ parallelism });
  env.registerTable('points', env.fromRecords(POINTS.map(([x, y]) => ({ x, y })), { x: 'DOUBLE', y: 'DOUBLE' }));
  env.registerTable('data', env.fromRecords(REGRESSION.map(([x0, x1, y]) => ({ x0, x1, y, w: 1 })), { x0: 'INTEGER', x1: 'DOUBLE', y: 'DOUBLE', w: 'DOUBLE' }));
  return env;
}

/** Centroids as [x, y] pairs sorted by x. */
export function centroids(rows: readonly Record<string, unknown>[]): number[][] {
  return rows.map((r) => [r['x'] as number, r['y'] as number]).sort((a, b) => a[0]! - b[0]!);
}
