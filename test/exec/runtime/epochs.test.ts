/**
 * Epochs stamped by the runtime (ITERATION-SEMANTICS.md "Epochs", DESIGN.md
 * "What the runtime grows for iteration") and the operators that used to
 * assume one epoch: LIMIT (stopped upstream at epoch 0 and dropped every later
 * epoch) and the hash join (kept build rows without their epoch).
 */
import { describe, expect, it } from 'vitest';
import { Int32, makeData, type RecordBatch } from 'apache-arrow';
import { batchFromColumns } from '../../../src/exec/batch.js';
import { JobGraphBuilder } from '../../../src/exec/job.js';
import type { Operator, OperatorContext, SourceEvent, SourceFactory } from '../../../src/exec/operator.js';
import { hashJoin } from '../../../src/exec/operators/hash-join.js';
import { limitOperator } from '../../../src/exec/operators/limit.js';
import { executeJob } from '../../../src/exec/runtime.js';
import { ExecutionError } from '../../../src/relnode/errors.js';
import { field, schemaOf } from '../../../src/relnode/types.js';

const S = schemaOf([field('v', 'INTEGER')]);
const S2 = schemaOf([field('a', 'INTEGER'), field('b', 'INTEGER')]);

function ints(values: number[]): RecordBatch {
  return batchFromColumns(['v'], [makeData({ type: new Int32(), length: values.length, nullCount: 0, data: Int32Array.from(values) })]);
}

function scripted(events: SourceEvent[]): SourceFactory {
  return () => ({ next: () => events.shift() ?? null, close: () => { events.length = 0; } });
}

/** Collects what reaches it as `epoch:values` strings, in order. */
function tagsOf(collected: string[]): Operator {
  return {
    open() {},
    processBatch(_i, b, epoch) {
      const cols = b.data.children.map((c) => Array.from(c.values as Int32Array).slice(0, b.numRows));
      for (let r = 0; r < b.numRows; r++) collected.push(`e${epoch}:${cols.map((c) => c[r]).join('/')}`);
    },
    finish() {},
    close() {},
  };
}

async function run(g: JobGraphBuilder, out: number): Promise<void> {
  for await (const _ of executeJob(g.build(out), { batchSize: 1024 })) { /* results are collected by the operator */ }
}

describe('LIMIT with more epochs', () => {
  it('limits each epoch and keeps upstream running when more epochs may come', async () => {
    const seen: string[] = [];
    const g = new JobGraphBuilder();
    const src = g.addSource('Src', 1, S, scripted([
      { batch: ints([1, 2, 3]), epoch: 0 }, { watermark: 0 },
      { batch: ints([4]), epoch: 1 }, { batch: ints([5, 6]), epoch: 1 }, { watermark: 1 },
      { batch: ints([7, 8]), epoch: 2 },
    ]), undefined, { multiEpoch: true });
    const lim = g.addOperator('Limit', 1, S, () => limitOperator(2, 0), [{ from: src, partitioner: { kind: 'forward' } }]);
    const sink = g.addOperator('Sink', 1, S, () => tagsOf(seen), [{ from: lim, partitioner: { kind: 'forward' } }]);
    await run(g, sink);
    expect(seen).toEqual(['e0:1', 'e0:2', 'e1:4', 'e1:5', 'e2:7', 'e2:8']);
  });

  it('in a batch query a satisfied LIMIT still stops upstream', async () => {
    let pulled = 0;
    const g = new JobGraphBuilder();
    const src = g.addSource('Endless', 1, S, () => ({ next: () => ints([++pulled]), close: () => {} }));
    const lim = g.addOperator('Limit', 1, S, () => limitOperator(3, 0), [{ from: src, partitioner: { kind: 'forward' } }]);
    const seen: string[] = [];
    const sink = g.addOperator('Sink', 1, S, () => tagsOf(seen), [{ from: lim, partitioner: { kind: 'forward' } }]);
    await run(g, sink);
    expect(seen).toEqual(['e0:1', 'e0:2', 'e0:3']);
    expect(pulled).toBeLessThan(10);
  });
});

describe('hash join with a build side that carries epochs', () => {
  it('joins epoch e of the probe side with epoch e of the build side only', async () => {
    const seen: string[] = [];
    const g = new JobGraphBuilder();
    const probe = g.addSource('Probe', 1, S, scripted([
      { batch: ints([1, 2]), epoch: 0 }, { watermark: 0 }, { batch: ints([1, 2]), epoch: 1 }, { watermark: 1 },
    ]), undefined, { multiEpoch: true });
    const build = g.addSource('Build', 1, S, scripted([
      { batch: ints([1]), epoch: 0 }, { watermark: 0 }, { batch: ints([2]), epoch: 1 }, { watermark: 1 },
    ]), undefined, { multiEpoch: true });
    const j = g.addOperator('HashJoin', 1, S2, () => hashJoin({ joinType: 'inner', leftKeys: [0], rightKeys: [0], buildSide: 'right' }),
      [{ from: probe, partitioner: { kind: 'forward' } }, { from: build, partitioner: { kind: 'forward' } }]);
    const sink = g.addOperator('Sink', 1, S2, () => tagsOf(seen), [{ from: j, partitioner: { kind: 'forward' } }]);
    await run(g, sink);
    expect(seen).toEqual(['e0:1/1', 'e1:2/2']);
  });

  it('a left join per epoch emits the unmatched rows of that epoch only', async () => {
    const seen: string[] = [];
    const g = new JobGraphBuilder();
    const probe = g.addSource('Probe', 1, S, scripted([
      { batch: ints([1, 2]), epoch: 0 }, { watermark: 0 }, { batch: ints([3]), epoch: 1 },
    ]), undefined, { multiEpoch: true });
    const build = g.addSource('Build', 1, S, scripted([
      { batch: ints([1]), epoch: 0 }, { watermark: 0 }, { batch: ints([3, 4]), epoch: 1 },
    ]), undefined, { multiEpoch: true });
    // Build = left, so the build side's unmatched rows are the outer ones.
    const j = g.addOperator('HashJoin', 1, S2, () => hashJoin({ joinType: 'left', leftKeys: [0], rightKeys: [0], buildSide: 'left' }),
      [{ from: build, partitioner: { kind: 'forward' } }, { from: probe, partitioner: { kind: 'forward' } }]);
    const sink = g.addOperator('Sink', 1, S2, () => tagsOf(seen), [{ from: j, partitioner: { kind: 'forward' } }]);
    await run(g, sink);
    expect(seen.filter((s) => !s.endsWith('/0')).sort()).toEqual(['e0:1/1', 'e1:3/3']);
    expect(seen.filter((s) => s.endsWith('/0'))).toEqual(['e1:4/0']); // NULL right side reads as 0 in the values buffer
  });
});

describe('runtime-stamped epochs', () => {
  it('output without an explicit epoch carries the input epoch, the watermark, or the last epoch at finish', async () => {
    const seen: string[] = [];
    const g = new JobGraphBuilder();
    const src = g.addSource('Src', 1, S, scripted([
      { batch: ints([1]), epoch: 0 }, { watermark: 0 }, { batch: ints([2]), epoch: 1 }, { watermark: 1 }, { batch: ints([3]), epoch: 2 },
    ]), undefined, { multiEpoch: true });
    const op = g.addOperator('Stamped', 1, S, () => {
      let ctx!: OperatorContext;
      return {
        open(c) { ctx = c; },
        processBatch(_i, b) { ctx.emit(b); },
        onEpochWatermarkIncremented(w) { ctx.emit(ints([100 + w])); },
        finish() { ctx.emit(ints([999])); },
        close() {},
      };
    }, [{ from: src, partitioner: { kind: 'forward' } }]);
    const sink = g.addOperator('Sink', 1, S, () => tagsOf(seen), [{ from: op, partitioner: { kind: 'forward' } }]);
    await run(g, sink);
    expect(seen).toEqual(['e0:1', 'e0:100', 'e1:2', 'e1:101', 'e2:3', 'e2:999']);
  });

  it('a batch of an epoch already closed by a forwarded watermark is rejected', async () => {
    const g = new JobGraphBuilder();
    const src = g.addSource('Src', 1, S, scripted([{ batch: ints([1]), epoch: 0 }, { watermark: 0 }, { batch: ints([2]), epoch: 1 }]), undefined, { multiEpoch: true });
    const op = g.addOperator('Late', 1, S, () => {
      let ctx!: OperatorContext;
      return { open(c) { ctx = c; }, processBatch(_i, b) { ctx.emit(b, 0); }, finish() {}, close() {} };
    }, [{ from: src, partitioner: { kind: 'forward' } }]);
    const err = await run(g, op).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExecutionError);
    expect(String((err as Error).message)).toMatch(/Late#1\[0\].*epoch 0 after forwarding watermark 0/);
  });

  it('a source not declared multiEpoch may not send other epochs', async () => {
    const g = new JobGraphBuilder();
    const src = g.addSource('Src', 1, S, scripted([{ batch: ints([1]), epoch: 3 }]));
    const sink = g.addOperator('Sink', 1, S, () => tagsOf([]), [{ from: src, partitioner: { kind: 'forward' } }]);
    await expect(run(g, sink)).rejects.toThrow(/not declared multiEpoch/);
  });
});
