/**
 * Termination of table-valued iterations: maxRounds with atMaxRounds
 * 'return' / 'error', the environment's round cap (maxIterationRounds), and
 * an outer LIMIT stopping an infinite accumulating iteration promptly.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/environment.js';
import type { Table } from '../../../src/api/table.js';
import { IterationLimitError } from '../../../src/relnode/errors.js';

const envs: TableEnvironment[] = [];
afterEach(async () => { await Promise.all(envs.splice(0).map((e) => e.close())); });
function make(options: Parameters<typeof TableEnvironment.create>[0] = {}): TableEnvironment {
  const env = TableEnvironment.create(options);
  envs.push(env);
  return env;
}

async function values(t: Table): Promise<number[]> {
  return (await t.collect()).toArray().map((r) => Number(r.toJSON().n)).sort((a, b) => a - b);
}

/** n → n + 1 while n < stop (Infinity: never stops). */
function counter(env: TableEnvironment, options: { stop?: number; maxRounds?: number; atMaxRounds?: 'return' | 'error'; distinct?: boolean; mode?: 'replace' | 'accumulate' }): Table {
  const seed = env.fromRecords([{ n: 1 }]);
  const { t } = env.iterate({
    variables: { t: seed },
    mode: options.mode ?? 'accumulate',
    ...(options.distinct !== undefined ? { distinct: options.distinct } : {}),
    ...(options.maxRounds !== undefined ? { maxRounds: options.maxRounds } : {}),
    ...(options.atMaxRounds !== undefined ? { atMaxRounds: options.atMaxRounds } : {}),
    body: (v) => ({ next: { t: (options.stop === undefined ? v.t : v.t.filter(`n < ${options.stop}`)).select('n + 1 AS n') } }),
  });
  return t;
}

describe('iteration limits', () => {
  for (const p of [1, 4]) {
    it(`maxRounds 'return' keeps what the rounds reached; 'error' fails unless a fixpoint came by then (p=${p})`, async () => {
      const env = make({ parallelism: p });
      expect(await values(counter(env, { maxRounds: 2 }))).toEqual([1, 2, 3]);
      expect(await values(counter(env, { maxRounds: 4, mode: 'replace' }))).toEqual([5]);
      // The limit is the answer, not an operator failure: no "operator … failed" prefix, its own error class.
      await expect(values(counter(env, { maxRounds: 5, atMaxRounds: 'error' }))).rejects.toThrow(/^recursion limit 5 reached$/);
      await expect(values(counter(env, { maxRounds: 5, atMaxRounds: 'error' }))).rejects.toBeInstanceOf(IterationLimitError);
      await expect(values(counter(env, { maxRounds: 3, atMaxRounds: 'error', mode: 'replace' }))).rejects.toThrow(/recursion limit 3 reached/);
      // The fixpoint (a round adding nothing) comes after round 3: exactly at the limit, no error.
      expect(await values(counter(env, { stop: 3, maxRounds: 3, atMaxRounds: 'error' }))).toEqual([1, 2, 3]);
      await expect(values(counter(env, { stop: 3, maxRounds: 2, atMaxRounds: 'error' }))).rejects.toThrow(/recursion limit 2 reached/);
    });

    it(`the round cap fails a runaway iteration and says how to raise it (p=${p})`, async () => {
      const env = make({ parallelism: p, maxIterationRounds: 40 });
      await expect(values(counter(env, {}))).rejects.toThrow(/round cap of 40 rounds.*maxIterationRounds/);
      await expect(values(counter(env, { mode: 'replace' }))).rejects.toThrow(/round cap of 40 rounds/);
      // A fixpoint before the cap is fine; an explicit maxRounds beyond the cap is the user's choice.
      expect(await values(counter(env, { stop: 30 }))).toHaveLength(30);
      expect(await values(counter(env, { maxRounds: 60 }))).toHaveLength(61);
    });

    it(`a LIMIT above an infinite accumulating iteration stops the whole job promptly (p=${p})`, async () => {
      const env = make({ parallelism: p });
      for (const distinct of [false, true]) {
        const start = performance.now();
        const got = await values(counter(env, { distinct }).limit(10));
        expect(got).toHaveLength(10);
        expect(performance.now() - start).toBeLessThan(5000);
        expect(env.runningQueries).toBe(0);
      }
      const explained = await counter(env, {}).limit(5).explain({ analyze: true });
      const rounds = Number(/rounds=(\d+)/.exec(explained)![1]);
      expect(rounds).toBeLessThan(20);
    });
  }

  it('a satisfied LIMIT ends the loop even when the body makes rows from no input (a global aggregate over an empty round)', async () => {
    // sum over no rows is one NULL row per round: without the stop the loop runs to the cap (here 200).
    const env = make({ maxIterationRounds: 200 });
    const rows = (await env.sql('WITH RECURSIVE t(x) AS (SELECT 1 UNION ALL SELECT sum(x + 1) FROM t WHERE x < 3) SELECT x FROM t LIMIT 10').collect()).toArray().map((r) => r.toJSON().x as number | null);
    expect(rows).toEqual([1, 2, 3, null, null, null, null, null, null, null]);
  });

  it('maxIterationRounds is checked', () => {
    expect(() => TableEnvironment.create({ maxIterationRounds: 0 })).toThrow(/maxIterationRounds must be a positive integer/);
  });
});

describe('iteration limits, shared loops', () => {
  it('a LIMIT above one result of a loop does not cut the other result short', async () => {
    const env = make();
    const res = env.iterate({
      variables: { a: env.fromRecords([{ n: 1 }]), b: env.fromRecords([{ m: 1 }]) },
      mode: 'accumulate',
      body: (v) => ({ next: { a: v.a.filter('n < 50').select('n + 1 AS n'), b: v.b.filter('m < 50').select('m + 1 AS m') } }),
    });
    const got = await res.a.limit(2).crossJoin(res.b.select('count(*) AS c')).collect();
    expect(got.toArray().map((r) => Number(r.toJSON().c))).toEqual([50, 50]);
  });
});
