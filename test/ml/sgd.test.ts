/**
 * Flink ML's SGD details beyond the known answer: mini-batches smaller than
 * the data (the offset wraps at the end of the cache), regularization (L2,
 * L1, elastic net), the tolerance stopping early — against a loop written
 * here from Flink ML's update rules.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TableEnvironment } from '../../src/api/environment.js';
import { mlEnv, REGRESSION } from './helpers.js';

let env: TableEnvironment | undefined;
afterEach(async () => { await env?.close(); env = undefined; });

/** Least-squares SGD at parallelism 1: mini-batches of `batch` rows, offset wrapping; then RegularizationUtils.regularize. */
function reference(rounds: number, batch: number, reg: number, en: number, lr = 0.1, tol = -1): number[] {
  const c = [0, 0];
  let off = 0;
  for (let r = 0; r < rounds; r++) {
    const rows = REGRESSION.slice(off, Math.min(REGRESSION.length, off + batch));
    off = off + batch >= REGRESSION.length ? 0 : off + batch;
    const g = [0, 0];
    let loss = 0;
    for (const [a, b, y] of rows) {
      const diff = c[0]! * a + c[1]! * b - y;
      g[0] += diff * a; g[1] += diff * b; loss += 0.5 * diff * diff;
    }
    c[0] -= (lr / rows.length) * g[0]!; c[1] -= (lr / rows.length) * g[1]!;
    if (reg > 0) {
      if (en === 0) { c[0] *= 1 - lr * reg; c[1] *= 1 - lr * reg; } else {
        const s = lr * en * reg;
        for (let j = 0; j < 2; j++) c[j] = c[j]! > s ? c[j]! - s : c[j]! < -s ? c[j]! + s : 0;
        if (en < 1) { c[0] *= 1 - lr * (1 - en) * reg; c[1] *= 1 - lr * (1 - en) * reg; }
      }
    }
    if (loss / rows.length <= tol) break; // this round's loss (before its update) stops the loop after the update
  }
  return c;
}

describe('SGD', () => {
  it.each([[3, 0, 0], [5, 0, 0], [32, 0.1, 0], [32, 0.1, 1], [32, 0.2, 0.5], [3, 0.05, 0.3]])('global_batch_size %i, reg %d, elastic_net %d', async (batch, reg, en) => {
    env = mlEnv(1);
    const rows = await env.sql(`SELECT * FROM linear_regression(data, label := 'y', weight := 'w', global_batch_size := ${batch}, reg := ${reg}, elastic_net := ${en}, max_iter := 15)`).toArray();
    const want = reference(15, batch, reg, en);
    expect(rows[0]!['coefficient']).toBeCloseTo(want[0]!, 10);
    expect(rows[1]!['coefficient']).toBeCloseTo(want[1]!, 10);
  });

  it('a loss at or below tol stops the training early', async () => {
    env = mlEnv(1);
    const full = await env.sql("SELECT * FROM linear_regression(data, label := 'y', weight := 'w', max_iter := 200, tol := 0)").toArray();
    const early = await env.sql("SELECT * FROM linear_regression(data, label := 'y', weight := 'w', max_iter := 200, tol := 0.5)").toArray();
    expect(early[0]!['coefficient']).not.toBeCloseTo(full[0]!['coefficient'] as number, 6);
    const want = reference(200, 32, 0, 0, 0.1, 0.5);
    expect(early[0]!['coefficient']).toBeCloseTo(want[0]!, 10);
    expect(early[1]!['coefficient']).toBeCloseTo(want[1]!, 10);
  });

  it('parallelism 4 splits the global batch over the subtasks (same model when the batch covers the data)', async () => {
    env = mlEnv(4);
    const rows = await env.sql("SELECT * FROM linear_regression(data, label := 'y', weight := 'w', global_batch_size := 8, max_iter := 10)").toArray();
    const want = reference(10, 8, 0, 0);
    expect(rows[0]!['coefficient']).toBeCloseTo(want[0]!, 10);
  });
});
