/**
 * Snapshots and restore (runtime/snapshot.ts): a cut taken between scheduler
 * steps holds operator states, source positions, queued channel events
 * (feedback records in flight included) and the runtime's watermark
 * bookkeeping; a run restored from it ends as a run without failure would,
 * and callbacks already made are not repeated.
 */
import { describe, expect, it } from 'vitest';
import { Int32, makeData, type RecordBatch } from 'apache-arrow';
import { batchFromColumns } from '../../../src/exec/batch.js';
import { JobGraphBuilder, type JobGraph } from '../../../src/exec/job.js';
import { END, type Operator, type OperatorContext, type SourceFactory } from '../../../src/exec/operator.js';
import { executeJob, type RunSnapshot } from '../../../src/exec/runtime.js';
import { field, schemaOf } from '../../../src/relnode/types.js';

const S = schemaOf([field('v', 'INTEGER')]);
const fwd = { kind: 'forward' } as const;
function ints(values: number[]): RecordBatch {
  return batchFromColumns(['v'], [makeData({ type: new Int32(), length: values.length, nullCount: 0, data: Int32Array.from(values) })]);
}
function valuesOf(b: RecordBatch): number[] {
  return Array.from((b.data.children[0]!.values as Int32Array).subarray(0, b.numRows));
}
/** Batches [0..9], [10..19], ... of `n` values; its position is the next batch number. */
function counting(n: number): SourceFactory {
  return (ctx) => {
    let next = (ctx.restored as number | undefined) ?? 0;
    return {
      next: () => {
        if (next * 10 >= n) return null;
        const base = next++ * 10;
        return ints(Array.from({ length: 10 }, (_, i) => base + i));
      },
      close: () => {},
      snapshot: () => next,
    };
  };
}

/** Sums its input, epoch by epoch; emits the sum at each watermark and at the end; fails once when `failAt` says so. */
function summer(log: string[], fail: { at: number; done: boolean }): Operator {
  let ctx!: OperatorContext;
  let sum = 0;
  let seen = 0;
  return {
    open(c) { ctx = c; },
    processBatch(_i, b) {
      seen++;
      if (!fail.done && seen === fail.at) { fail.done = true; throw new Error('injected failure'); }
      for (const v of valuesOf(b)) sum += v;
    },
    onEpochWatermarkIncremented(w) { log.push(`wm ${w} sum ${sum}`); },
    finish() { log.push(`finish sum ${sum}`); ctx.emit(ints([sum])); },
    close() {},
    snapshotState: () => ({ sum, seen }),
    restoreState(s) { ({ sum, seen } = s as { sum: number; seen: number }); },
  };
}

function linear(log: string[], fail: { at: number; done: boolean }): JobGraph {
  const g = new JobGraphBuilder();
  const src = g.addSource('Src', 1, S, counting(1000));
  const sum = g.addOperator('Sum', 1, S, () => summer(log, fail), [{ from: src, partitioner: fwd }]);
  return g.build(sum);
}

/**
 * Runs with a checkpoint at every quiescent point and restarts from the latest one on failure.
 * `log` holds the callbacks operators made: on a restart it is cut back to where it stood at
 * that checkpoint (callbacks after it are made again, as in Flink), so a correct restore leaves
 * it equal to a failure-free run's — no callback of before the checkpoint repeated, none lost.
 */
async function runWithRestarts(graph: JobGraph, attempts: number, log: string[] = []): Promise<{ out: number[]; checkpoints: number; restarts: number }> {
  let latest: { snap: RunSnapshot; logLength: number } | undefined;
  let checkpoints = 0;
  for (let attempt = 0; ; attempt++) {
    const out: number[] = [];
    try {
      const job = executeJob(graph, { batchSize: 10, ...(latest ? { restore: latest.snap } : {}), checkpoint: { intervalMs: 0, take: (snap) => { latest = { snap, logLength: log.length }; checkpoints++; } } });
      for await (const b of job) out.push(...valuesOf(b));
      return { out, checkpoints, restarts: attempt };
    } catch (e) {
      if (attempt >= attempts) throw e;
      log.length = latest?.logLength ?? 0;
    }
  }
}

describe('snapshot and restore', () => {
  it('a failed run restored from its latest checkpoint ends with the state of a run without failure', async () => {
    const clean: string[] = [];
    const expected = await runWithRestarts(linear(clean, { at: -1, done: true }), 0);
    expect(expected.out).toEqual([499500]);
    for (const at of [1, 2, 50, 100]) {
      const log: string[] = [];
      const r = await runWithRestarts(linear(log, { at, done: false }), 1, log);
      expect(r.out).toEqual([499500]);
      expect(r.restarts).toBe(1);
      expect(log.filter((l) => l.startsWith('finish'))).toEqual(['finish sum 499500']);
    }
  });

  it('restores feedback records in flight and does not repeat epoch callbacks', async () => {
    const build = (log: string[], fail: { at: number; done: boolean }): JobGraph => {
      const g = new JobGraphBuilder();
      const src = g.addSource('Init', 1, S, counting(30));
      // Head: forwards; EW(0) when the initial input ends; then EW(e) per feedback watermark, END after epoch 4.
      const head = g.addOperator('Head', 1, S, () => {
        let ctx!: OperatorContext;
        return {
          open(c) { ctx = c; },
          processBatch(_i, b, e) { ctx.emit(b, e); },
          onInputWatermark(input, w) {
            if (input === 0 && w === END) ctx.emitWatermark(0);
            if (input === 1 && w < END) ctx.post(() => ctx.emitWatermark(w >= 4 ? END : w));
          },
          finish() {}, close() {},
          snapshotState: () => undefined,
        };
      }, [{ from: src, partitioner: fwd }], undefined, { manualWatermarks: true, multiEpoch: true, feedbackInputs: 1 });
      // Sums per epoch (records of later epochs may arrive before a watermark: the head forwards feedback at once).
      const sum = g.addOperator('Sum', 1, S, () => {
        let ctx!: OperatorContext;
        let sums: Record<number, number> = {};
        let seen = 0;
        return {
          open(c) { ctx = c; },
          processBatch(_i, b, e) {
            seen++;
            if (!fail.done && seen === fail.at) { fail.done = true; throw new Error('injected failure'); }
            for (const v of valuesOf(b)) sums[e] = (sums[e] ?? 0) + v;
            ctx.emit(b, e);
          },
          onEpochWatermarkIncremented(w) { log.push(`wm ${w} sum ${sums[w]}`); },
          finish() { log.push(`finish sum ${Object.values(sums).reduce((a, x) => a + x, 0)}`); },
          close() {},
          snapshotState: () => ({ sums: { ...sums }, seen }),
          restoreState(st) { ({ sums, seen } = st as { sums: Record<number, number>; seen: number }); },
        };
      }, [{ from: head, partitioner: fwd }]);
      const tail = g.addOperator('Tail', 1, S, () => {
        let ctx!: OperatorContext;
        return {
          open(c) { ctx = c; },
          processBatch(_i, b, e) { if (e + 1 <= 4) ctx.emit(b, e + 1); },
          onInputWatermark(_i, w) { ctx.emitWatermark(w >= END ? END : w + 1); },
          finish() {}, close() {},
          snapshotState: () => undefined,
        };
      }, [{ from: sum, partitioner: fwd }], undefined, { manualWatermarks: true });
      g.connectFeedback(head, 1, tail, fwd);
      return g.build(sum);
    };
    const clean: string[] = [];
    await runWithRestarts(build(clean, { at: -1, done: true }), 0);
    // 3 batches (sum 435) go round 5 times: epochs 0..4, callbacks 0..3, then the end.
    expect(clean).toEqual(['wm 0 sum 435', 'wm 1 sum 435', 'wm 2 sum 435', 'wm 3 sum 435', 'finish sum 2175']);
    for (const at of [2, 5, 8, 13]) {
      const log: string[] = [];
      const r = await runWithRestarts(build(log, { at, done: false }), 1, log);
      expect(r.restarts).toBe(1);
      // Each callback happens exactly once over both attempts, with the failure-free values.
      expect(log).toEqual(clean);
    }
  });

  it('an operator without snapshotState makes checkpointing fail clearly', async () => {
    const g = new JobGraphBuilder();
    const src = g.addSource('Src', 1, S, counting(100));
    const op = g.addOperator('Plain', 1, S, () => ({ open() {}, processBatch() {}, finish() {}, close() {} }), [{ from: src, partitioner: fwd }]);
    const job = executeJob(g.build(op), { batchSize: 10, checkpoint: { intervalMs: 0, take: () => {} } });
    await expect((async () => { for await (const _ of job) { /* run */ } })()).rejects.toThrow(/Plain#1\[0\] cannot be checkpointed/);
  });
});
