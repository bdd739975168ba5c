/**
 * ITERATION-SEMANTICS.md S12 (failover): S7 — a synchronous reducer over
 * four not-replayed sources, feedback through a keyed stage — with
 * checkpoints and an operator that throws once after N records. After the
 * restore the last value reported for each of rounds 0..4 is 1,998,000 and
 * the run terminates; callbacks made before the restored checkpoint are not
 * made again. Also: without checkpoints a bounded iteration restarts from
 * round 0, and checkpoint files go when the job ends.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Iterations, ReplayableDataStreamList } from '../../src/iteration/index.js';
import { FOUR_RANGES, envOf } from './helpers/streams.js';
import { s7Reducer } from './helpers/s7.js';

const V = { v: 'INTEGER' } as const;
let dir: string | undefined;
afterEach(() => { if (dir) rmSync(dir, { recursive: true, force: true }); dir = undefined; });

/** Runs S7 with a keyed stage that throws once after `failAfter` records; returns the reducer's reports and the output row count. */
async function s7(p: number, failAfter: number, checkpoint: { dir?: string; intervalMs?: number } | undefined) {
  const env = envOf(p);
  if (checkpoint !== undefined) env.enableCheckpointing({ intervalMs: 2, ...checkpoint });
  env.setRestartStrategy({ attempts: 1 });
  const reports: string[] = [];
  const failed = { count: 0, seen: 0 };
  const [out] = Iterations.iterateBoundedStreamsUntilTermination(
    [env.fromRows([], { schema: V, parallelism: p })],
    ReplayableDataStreamList.notReplay(env.fromRows(FOUR_RANGES, { parallelism: p })),
    {},
    ([x], [d]) => {
      const reducer = x!.connect(d!).process(s7Reducer(reports)).setParallelism(1);
      const keyed = reducer.keyBy('v').map((r) => {
        // Counts over all subtasks and attempts: throws exactly once, at the failAfter-th record.
        if (++failed.seen === failAfter && failed.count === 0) { failed.count++; throw new Error('injected failure'); }
        return r;
      }).setParallelism(p);
      return { feedbackVariableStreams: [keyed], outputStreams: [reducer] };
    },
  );
  const rows = await out!.collect();
  return { reports, rows: rows.length, failed: failed.count };
}

/** The last report per round, and whether the run terminated. */
function lastPerRound(reports: readonly string[]): Record<string, number> {
  const last: Record<string, number> = {};
  for (const r of reports) { if (r === 'terminated') continue; const [w, s] = r.split(':'); last[w!] = Number(s); }
  return last;
}

describe.each([1, 4])('S12 failover at parallelism %i', (p) => {
  it.each([1000, 4000, 8000, 15900])('a failure after %i records: rounds 0..4 each end at 1,998,000, then terminated', async (n) => {
    dir = mkdtempSync(join(tmpdir(), 'eddy-s12-'));
    // A checkpoint at every point between two scheduler steps: the restore resumes right where the last one was taken.
    const r = await s7(p, n, { dir, intervalMs: 0 });
    expect(r.failed).toBe(1);
    expect(lastPerRound(r.reports)).toEqual({ 0: 1998000, 1: 1998000, 2: 1998000, 3: 1998000, 4: 1998000 });
    expect(r.reports.at(-1)).toBe('terminated');
    expect(r.reports.filter((x) => x === 'terminated')).toHaveLength(1);
    // Rounds whose callback came before the failure are not reported again (8000+ records: round 0 is done).
    if (n >= 8000) expect(r.reports.filter((x) => x.startsWith('0:'))).toHaveLength(1);
    // Checkpoint files of the finished job are gone.
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('S12 without checkpoints', () => {
  it('a failed bounded iteration restarts from round 0 and ends as a run without failure', async () => {
    const r = await s7(1, 4000, undefined);
    expect(r.failed).toBe(1);
    // The failed attempt reported some rounds; the restart reports 0..4 again, from round 0.
    const restartAt = r.reports.lastIndexOf('0:1998000');
    expect(restartAt).toBeGreaterThan(0);
    expect(r.reports.slice(restartAt)).toEqual(['0:1998000', '1:1998000', '2:1998000', '3:1998000', '4:1998000', 'terminated']);
  });

  it('with checkpoints in memory (no directory) the restore resumes after the checkpoint', async () => {
    // A checkpoint at every quiescent point (a 2 ms interval made this depend on how fast rounds ran).
    const r = await s7(1, 8000, { intervalMs: 0 });
    expect(r.failed).toBe(1);
    expect(lastPerRound(r.reports)).toEqual({ 0: 1998000, 1: 1998000, 2: 1998000, 3: 1998000, 4: 1998000 });
    // Round 0's callback was made before the failure (8000 records ≈ rounds 0–1) and is not made again.
    expect(r.reports.filter((x) => x.startsWith('0:'))).toHaveLength(1);
  });
});

describe('a job that cannot be checkpointed', () => {
  it('fails with a clear message naming the source, not as an internal error, and is not retried', async () => {
    const { TableEnvironment } = await import('../../src/index.js');
    const env = TableEnvironment.create();
    try {
      env.registerTable('t', env.fromRecords([{ v: 1 }, { v: 2 }]));
      env.streams.enableCheckpointing({ intervalMs: 0 }).setRestartStrategy({ attempts: 3 });
      const err = await env.streams.fromTable(env.from('t')).map((r) => r).collect().then(() => null, (e: Error) => e);
      expect(err?.message).toMatch(/checkpointing is on, but source FromTable#\d+\[0\] cannot be checkpointed/);
      expect(err?.message).not.toMatch(/internal error/);
    } finally {
      await env.close();
    }
  });
});
