/**
 * More failover (issue #8 "Tests"): S12 in its asynchronous form (the
 * reducer forwards records at once instead of at the watermark), restore of
 * cache-backed list state, and a checkpoint write that fails half-way (the
 * in-process form of a crash while writing one): the job restarts from the
 * latest good checkpoint and ends as a run without failure.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Iterations, ReplayableDataStreamList } from '../../src/iteration/index.js';
import type { CoProcessOperator, ProcessFactory, Row } from '../../src/iteration/stream/process.js';
import { runWithFailover } from '../../src/iteration/failover.js';
import { FOUR_RANGES, RANGE_SUM, envOf } from './helpers/streams.js';
import { s7Reducer } from './helpers/s7.js';

/** Makes the next checkpoint file write stop half-way with an I/O error (armed by a test). */
const writes = vi.hoisted(() => ({ failNext: false, failed: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    writeSync: (fd: number, buf: NodeJS.ArrayBufferView, off?: number, len?: number, ...rest: unknown[]) => {
      if (writes.failNext && ArrayBuffer.isView(buf) && typeof off === 'number' && typeof len === 'number' && len > 16) {
        writes.failNext = false;
        writes.failed++;
        fs.writeSync(fd, buf, off, Math.floor(len / 2)); // half of the checkpoint reaches the disk …
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }); // … then the write fails
      }
      return (fs.writeSync as (...a: unknown[]) => number)(fd, buf, off, len, ...rest);
    },
  };
});

const V = { v: 'INTEGER' } as const;
let dir: string | undefined;
afterEach(() => { if (dir) rmSync(dir, { recursive: true, force: true }); dir = undefined; writes.failNext = false; });

/** S9's asynchronous reducer over S7's data: forwards records of epoch < 4 at once, reports `w:sum` at each watermark. */
function asyncReducer(reports: string[]): ProcessFactory<CoProcessOperator> {
  return () => {
    let sums = new Map<number, number>();
    const add = (row: Row, e: number, out: { collect(r: Row): void }): void => {
      sums.set(e, (sums.get(e) ?? 0) + (row['v'] as number));
      if (e < 4) out.collect(row);
    };
    return {
      processElement1(row, ctx, out) { add(row, ctx.epoch, out); },
      processElement2(row, ctx, out) { add(row, ctx.epoch, out); },
      onEpochWatermarkIncremented(w) { reports.push(`${w}:${sums.get(w) ?? 0}`); sums.delete(w); },
      onIterationTerminated() { reports.push('terminated'); },
      snapshotState: () => sums,
      restoreState(s) { sums = s as Map<number, number>; },
    };
  };
}

/** A reducer that keeps the data in list state (not replayed) and, at watermark w, reports `w:` + the sum of that state plus the feedback of epoch w, emitting one record per data row while w < 4. */
function listStateReducer(reports: string[]): ProcessFactory<CoProcessOperator> {
  return () => {
    let fed = new Map<number, number>();
    return {
      processElement1(row, ctx) { fed.set(ctx.epoch, (fed.get(ctx.epoch) ?? 0) + 1); },
      processBatch2(b, ctx) { ctx.getListState('data').addBatch(b); },
      onEpochWatermarkIncremented(w, ctx, out) {
        let sum = 0;
        const st = ctx.getListState('data');
        for (const r of st.rows()) sum += r['v'] as number;
        reports.push(`${w}:${sum}:${fed.get(w) ?? 0}`);
        fed.delete(w);
        if (w < 4) for (const r of st.rows()) out.collect(r);
      },
      onIterationTerminated() { reports.push('terminated'); },
      snapshotState: () => fed,
      restoreState(s) { fed = s as Map<number, number>; },
    };
  };
}

/** S7's job with `reducer`, a keyed stage that throws once after `failAfter` records, checkpoints at every quiescent point into a directory. */
function job(p: number, failAfter: number, reducer: (reports: string[]) => ProcessFactory<CoProcessOperator>) {
  const env = envOf(p);
  dir = mkdtempSync(join(tmpdir(), 'eddy-s12b-'));
  env.enableCheckpointing({ dir, intervalMs: 0 }).setRestartStrategy({ attempts: 1 });
  env.listState ??= undefined;
  const reports: string[] = [];
  const failed = { count: 0, seen: 0 };
  const [out] = Iterations.iterateBoundedStreamsUntilTermination(
    [env.fromRows([], { schema: V, parallelism: p })],
    ReplayableDataStreamList.notReplay(env.fromRows(FOUR_RANGES, { parallelism: p })),
    {},
    ([x], [d]) => {
      const red = x!.connect(d!).process(reducer(reports)).setParallelism(1);
      const keyed = red.keyBy('v').map((r) => {
        if (++failed.seen === failAfter && failed.count === 0) { failed.count++; throw new Error('injected failure'); }
        return r;
      }).setParallelism(p);
      return { feedbackVariableStreams: [keyed], outputStreams: [red] };
    },
  );
  return { out: out!, reports, failed };
}

function lastPerRound(reports: readonly string[]): Record<string, string> {
  const last: Record<string, string> = {};
  for (const r of reports) { if (r === 'terminated') continue; const i = r.indexOf(':'); last[r.slice(0, i)] = r.slice(i + 1); }
  return last;
}

describe.each([1, 4])('S12 asynchronous at parallelism %i', (p) => {
  it.each([1000, 4000, 8000, 15900])('a failure after %i records: rounds 0..4 each end at 1,998,000, then terminated', async (n) => {
    const { out, reports, failed } = job(p, n, asyncReducer);
    await out.collect();
    expect(failed.count).toBe(1);
    const s = String(RANGE_SUM);
    expect(lastPerRound(reports)).toEqual({ 0: s, 1: s, 2: s, 3: s, 4: s });
    expect(reports.filter((x) => x === 'terminated')).toHaveLength(1);
    expect(reports.at(-1)).toBe('terminated');
    expect(readdirSync(dir!)).toEqual([]);
  });
});

describe('restore of cache-backed list state', () => {
  it.each([[1, 6000], [4, 12000]])('at parallelism %i, a failure after %i records: the cached data is back after the restore', async (p, n) => {
    const { out, reports, failed } = job(p, n, listStateReducer);
    await out.collect();
    expect(failed.count).toBe(1);
    // Every round sees the whole cached data set (4,000 rows summing 1,998,000) and, from round 1 on, 4,000 fed-back records.
    const want = Object.fromEntries([0, 1, 2, 3, 4].map((w) => [w, `${RANGE_SUM}:${w === 0 ? 0 : 4000}`]));
    expect(lastPerRound(reports)).toEqual(want);
    // The restore happened after the data was cached (round 0 is done before record 6,000 goes round).
    expect(reports.filter((x) => x.startsWith('0:'))).toHaveLength(1);
  });
});

describe('a checkpoint write that fails half-way', () => {
  it('leaves the latest good checkpoint intact; the job restarts from it and ends as a run without failure', async () => {
    const reports: string[] = [];
    const env = envOf(2);
    const [out] = Iterations.iterateBoundedStreamsUntilTermination(
      [env.fromRows([], { schema: V, parallelism: 2 })],
      ReplayableDataStreamList.notReplay(env.fromRows(FOUR_RANGES, { parallelism: 2 })),
      {},
      ([x], [d]) => {
        const red = x!.connect(d!).process(s7Reducer(reports)).setParallelism(1);
        let seen = 0;
        // Arms the failing write once round 1 is under way (several good checkpoints exist by then).
        const keyed = red.keyBy('v').map((r) => { if (++seen === 6000) writes.failNext = true; return r; }).setParallelism(2);
        return { feedbackVariableStreams: [keyed], outputStreams: [red] };
      },
    );
    dir = mkdtempSync(join(tmpdir(), 'eddy-chkfail-'));
    const restarts: { fromCheckpoint: boolean; error: string }[] = [];
    const graph = env.jobOf(out!, 'test');
    let rows = 0;
    for await (const b of runWithFailover(graph, { batchSize: 1024 }, { checkpoint: { intervalMs: 0, dir }, restartAttempts: 1, onRestart: (i) => restarts.push({ fromCheckpoint: i.fromCheckpoint, error: i.error.message }) })) rows += b.numRows;
    expect(writes.failed).toBeGreaterThanOrEqual(1);
    expect(restarts).toHaveLength(1);
    expect(restarts[0]!.fromCheckpoint).toBe(true);
    expect(restarts[0]!.error).toMatch(/ENOSPC/);
    const s = String(RANGE_SUM);
    expect(lastPerRound(reports)).toEqual({ 0: s, 1: s, 2: s, 3: s, 4: s });
    expect(reports.filter((x) => x === 'terminated')).toHaveLength(1);
    expect(rows).toBeGreaterThan(0);
    expect(readdirSync(dir)).toEqual([]); // no temporary file and no checkpoint left behind
  });
});
