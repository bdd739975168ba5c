/** Round events of table iterations (the REPL's progress line): one per ended round, in order, with its rows. */
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/environment.js';
import { onIterationRound, type IterationRound } from '../../../src/index.js';

const envs: TableEnvironment[] = [];
afterEach(async () => { await Promise.all(envs.splice(0).map((e) => e.close())); });

describe('iteration round events', () => {
  it('WITH RECURSIVE reports rounds 0, 1, 2, … with the rows each round read', async () => {
    const env = TableEnvironment.create();
    envs.push(env);
    const seen: IterationRound[] = [];
    const off = onIterationRound((r) => seen.push(r));
    try {
      // Round r reads the rows added before it: round 0 the anchor's 3 rows, then 3 new rows a round until x reaches 12.
      await env.sql('WITH RECURSIVE t(x) AS (SELECT * FROM (VALUES (1), (2), (3)) v(x) UNION ALL SELECT x + 3 FROM t WHERE x < 10) SELECT count(*) AS n FROM t').collect();
    } finally {
      off();
    }
    expect(seen.map((r) => r.round)).toEqual(seen.map((_, i) => i));
    expect(seen.slice(0, 4).map((r) => r.rows)).toEqual([3, 3, 3, 3]);
    expect(seen.length).toBeGreaterThanOrEqual(4);
    // Unsubscribed: a later iteration reports nothing here.
    const before = seen.length;
    await env.sql('WITH RECURSIVE t(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM t WHERE x < 3) SELECT * FROM t').collect();
    expect(seen.length).toBe(before);
  });
});
