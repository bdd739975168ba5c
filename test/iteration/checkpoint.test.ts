/**
 * Checkpoint files (iteration/checkpoint.ts) and failover (iteration/failover.ts):
 * atomic writes, the latest good checkpoint survives a crash while writing,
 * and a failed job restarts from it to the failure-free result.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordBatch } from 'apache-arrow';
import { JobGraphBuilder, type JobGraph } from '../../src/exec/job.js';
import type { Operator, OperatorContext, SourceFactory } from '../../src/exec/operator.js';
import type { RunSnapshot } from '../../src/exec/runtime.js';
import { CheckpointStore, decodeSnapshot, encodeSnapshot } from '../../src/iteration/checkpoint.js';
import { runWithFailover } from '../../src/iteration/failover.js';
import { S, fwd, ints, valuesOf } from './helpers/nodes.js';

let dir: string | undefined;
afterEach(() => { if (dir) rmSync(dir, { recursive: true, force: true }); dir = undefined; });
const tempDir = (): string => (dir = mkdtempSync(join(tmpdir(), 'eddy-chk-test-')));

/** A snapshot-shaped value with batches in operator state and in a channel queue. */
function sampleSnapshot(tag: number): RunSnapshot {
  return {
    operators: [{ state: { rows: [ints([tag, 2, 3])], counts: new Map([[1, 10n]]), seen: new Set(['a']) }, watermark: 3, inputWatermarks: [3], inputEnded: [false], announced: -1, forwarded: 3, maxEpochIn: 4, finished: false }],
    sources: [{ state: 7, done: false, forwarded: -1 }],
    channels: [{ events: [{ t: 'batch', batch: ints([9, 8]), epoch: 4 }, { t: 'wm', epoch: 4 }], wm: 3, closed: false }],
    shared: [['coordinator', { epoch: tag }]],
    rowsRead: 42,
  };
}

describe('checkpoint encoding', () => {
  it('round-trips states with record batches, Maps, Sets and bigints', () => {
    const back = decodeSnapshot(encodeSnapshot(sampleSnapshot(1)));
    const st = back.operators[0]!.state as { rows: RecordBatch[]; counts: Map<number, bigint>; seen: Set<string> };
    expect(valuesOf(st.rows[0]!)).toEqual([1, 2, 3]);
    expect(st.counts.get(1)).toBe(10n);
    expect(st.seen.has('a')).toBe(true);
    const ev = back.channels[0]!.events[0]!;
    expect(ev.t === 'batch' ? valuesOf(ev.batch) : []).toEqual([9, 8]);
    expect(back.shared).toEqual([['coordinator', { epoch: 1 }]]);
  });

  it('refuses an incomplete or corrupted file, saying which', () => {
    const bytes = encodeSnapshot(sampleSnapshot(1));
    expect(() => decodeSnapshot(bytes.subarray(0, bytes.length - 5), 'f')).toThrow(/f is incomplete/);
    const bad = Buffer.from(bytes);
    bad[bad.length - 3] ^= 0x10;
    expect(() => decodeSnapshot(bad, 'f')).toThrow(/f is corrupt/);
    expect(() => decodeSnapshot(Buffer.from('hello world, not a checkpoint'), 'f')).toThrow(/not an eddy checkpoint/);
  });

  it('state that is not structured-cloneable fails the checkpoint clearly', () => {
    const s = sampleSnapshot(1);
    const withFn = { ...s, operators: [{ ...s.operators[0]!, state: { f: () => 1 } }] };
    expect(() => encodeSnapshot(withFn)).toThrow(/must be structured-cloneable/);
  });
});

describe('checkpoint store', () => {
  it('keeps the newest two, and the latest good one survives a crash while writing the next', () => {
    const d = tempDir();
    const store = new CheckpointStore(d);
    for (const t of [1, 2, 3]) store.write(sampleSnapshot(t));
    expect(readdirSync(d).sort()).toEqual(['chk-000000002.eddy', 'chk-000000003.eddy']);
    expect(store.latest()!.snapshot.shared).toEqual([['coordinator', { epoch: 3 }]]);
    // A crash mid-write leaves a partial temporary file (ignored and removed on the next open) ...
    const next = encodeSnapshot(sampleSnapshot(4));
    writeFileSync(join(d, 'chk-000000004.eddy.tmp'), next.subarray(0, 100));
    // ... and a disk that damaged the newest complete file is survived by falling back to the one before.
    const newest = join(d, 'chk-000000003.eddy');
    writeFileSync(newest, readFileSync(newest).subarray(0, 60));
    const reopened = new CheckpointStore(d);
    expect(readdirSync(d).some((f) => f.endsWith('.tmp'))).toBe(false);
    const got = reopened.latest()!;
    expect(got.number).toBe(2);
    expect(got.snapshot.shared).toEqual([['coordinator', { epoch: 2 }]]);
    expect(reopened.write(sampleSnapshot(5))).toBe(4);
  });
});

/** Counts 0..n−1 in batches of 10; position = batches emitted. */
function counting(n: number): SourceFactory {
  return (ctx) => {
    let next = (ctx.restored as number | undefined) ?? 0;
    return {
      next: () => { if (next * 10 >= n) return null; const base = next++ * 10; return ints(Array.from({ length: 10 }, (_, i) => base + i)); },
      close: () => {},
      snapshot: () => next,
    };
  };
}
function sumJob(fail: { at: number; left: number }): JobGraph {
  const g = new JobGraphBuilder();
  const src = g.addSource('Src', 1, S, counting(300));
  const sum = g.addOperator('Sum', 1, S, (): Operator => {
    let ctx!: OperatorContext;
    let sum = 0;
    let seen = 0;
    return {
      open(c) { ctx = c; },
      processBatch(_i, b) {
        if (++seen === fail.at && fail.left > 0) { fail.left--; throw new Error('injected'); }
        for (const v of valuesOf(b)) sum += v;
      },
      finish() { ctx.emit(ints([sum])); },
      close() {},
      snapshotState: () => ({ sum, seen }),
      restoreState(s) { ({ sum, seen } = s as { sum: number; seen: number }); },
    };
  }, [{ from: src, partitioner: fwd }]);
  return g.build(sum);
}
async function collect(gen: AsyncGenerator<RecordBatch>): Promise<number[]> {
  const out: number[] = [];
  for await (const b of gen) out.push(...valuesOf(b));
  return out;
}

describe('failover', () => {
  it('restarts from the latest checkpoint file and ends with the failure-free result; files are removed at the end', async () => {
    const d = tempDir();
    const restarts: boolean[] = [];
    const out = await collect(runWithFailover(sumJob({ at: 15, left: 1 }), { batchSize: 10 }, {
      checkpoint: { intervalMs: 0, dir: d }, restartAttempts: 2, onRestart: (i) => restarts.push(i.fromCheckpoint),
    }));
    expect(out).toEqual([44850]);
    expect(restarts).toEqual([true]);
    expect(readdirSync(d)).toEqual([]);
  });

  it('without checkpoints a failed job restarts from the beginning; past the attempts it fails', async () => {
    const restarts: boolean[] = [];
    expect(await collect(runWithFailover(sumJob({ at: 15, left: 1 }), { batchSize: 10 }, { restartAttempts: 1, onRestart: (i) => restarts.push(i.fromCheckpoint) }))).toEqual([44850]);
    expect(restarts).toEqual([false]);
    await expect(collect(runWithFailover(sumJob({ at: 15, left: 5 }), { batchSize: 10 }, { restartAttempts: 1 }))).rejects.toThrow(/injected/);
  });
});
