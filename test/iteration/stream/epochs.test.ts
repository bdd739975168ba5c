/**
 * The user-operator adapter against ITERATION-SEMANTICS.md "Epochs" and
 * "Operator callbacks", on a multi-epoch source (what an iteration head
 * produces): output of processElement carries the record's epoch, of
 * onEpochWatermarkIncremented(w) w, of onIterationTerminated and finish END;
 * plus list state through the environment's provider and the body scope's
 * rules for sources and sinks.
 */
import { describe, expect, it } from 'vitest';
import { Int32, makeData, type RecordBatch } from 'apache-arrow';
import { batchFromColumns } from '../../../src/exec/batch.js';
import { END, type Operator, type OperatorContext, type SourceEvent } from '../../../src/exec/operator.js';
import { field, schemaOf } from '../../../src/relnode/types.js';
import { StreamEnvironment } from '../../../src/iteration/stream/environment.js';
import { streamOf, type DataStream } from '../../../src/iteration/stream/data-stream.js';
import type { ListState, Row } from '../../../src/iteration/stream/process.js';

const V = schemaOf([field('v', 'INTEGER')]);
const EV = schemaOf([field('e', 'INTEGER'), field('v', 'INTEGER')]);
const ints = (vs: number[]): RecordBatch => batchFromColumns(['v'], [makeData({ type: new Int32(), length: vs.length, nullCount: 0, data: Int32Array.from(vs) })]);

/** A source sending epoch 0 and epoch 1 with a watermark after each (what a head sends). */
function twoEpochs(env: StreamEnvironment): DataStream {
  return env.source('Epochs', V, () => {
    const events: SourceEvent[] = [{ batch: ints([1, 2]), epoch: 0 }, { watermark: 0 }, { batch: ints([3]), epoch: 1 }, { watermark: 1 }];
    return { next: () => events.shift() ?? null, close: () => {} };
  }, 1, undefined, true);
}

/** Records the epoch of every batch it gets as rows (e, v). */
function epochRecorder(env: StreamEnvironment, input: DataStream): DataStream {
  const op = (): Operator => {
    let ctx!: OperatorContext;
    return {
      open(c) { ctx = c; },
      processBatch(_i, b, epoch) {
        const vs = b.data.children[0]!.values as Int32Array;
        const e = epoch === END ? -1 : epoch;
        ctx.emit(batchFromColumns(['e', 'v'], [
          makeData({ type: new Int32(), length: b.numRows, nullCount: 0, data: new Int32Array(b.numRows).fill(e) }),
          makeData({ type: new Int32(), length: b.numRows, nullCount: 0, data: Int32Array.from(vs.subarray(0, b.numRows)) }),
        ]));
      },
      finish() {},
      close() {},
    };
  };
  return streamOf(env, env.operator('Recorder', [input], EV, op));
}

describe('epochs of user-operator output', () => {
  it('follow the semantics table', async () => {
    const env = new StreamEnvironment();
    const log: string[] = [];
    const s = twoEpochs(env).process(() => ({
      processElement(row, ctx, out) { log.push(`e${ctx.epoch} ${String(row.v)}`); out.collect({ v: (row.v as number) * 10 }); },
      onEpochWatermarkIncremented(w, ctx, out) { log.push(`wm ${w} ctx ${ctx.epoch}`); out.collect({ v: 100 + w }); },
      onIterationTerminated(ctx, out) { log.push(`terminated ctx ${ctx.epoch === END ? 'END' : ctx.epoch}`); out.collect({ v: 200 }); },
      finish(ctx, out) { log.push(`finish ctx ${ctx.epoch === END ? 'END' : ctx.epoch}`); out.collect({ v: 300 }); },
    }));
    const rows = await epochRecorder(env, s).collect();
    expect(rows.map((r) => `${String(r.e)}:${String(r.v)}`)).toEqual(['0:10', '0:20', '0:100', '1:30', '1:101', '-1:200', '-1:300']);
    expect(log).toEqual(['e0 1', 'e0 2', 'wm 0 ctx 0', 'e1 3', 'wm 1 ctx 1', 'terminated ctx END', 'finish ctx END']);
  });

  it('outside an iteration, finish output keeps the runtime epoch (0) and no termination callback runs', async () => {
    const env = new StreamEnvironment();
    const log: string[] = [];
    const s = env.fromRows([{ v: 1 }]).process(() => ({
      onIterationTerminated() { log.push('terminated'); },
      finish(ctx, out) { log.push(`finish ${ctx.epoch}`); out.collect({ v: 9 }); },
    }));
    expect((await epochRecorder(env, s).collect()).map((r) => r.e)).toEqual([0]);
    expect(log).toEqual(['finish 0']);
  });

  it('union keeps the epoch of each batch', async () => {
    const env = new StreamEnvironment();
    const rows = await epochRecorder(env, twoEpochs(env).union(env.fromRows([{ v: 7 }]))).collect();
    expect(rows.map((r) => `${String(r.e)}:${String(r.v)}`).sort()).toEqual(['0:1', '0:2', '0:7', '1:3']);
  });
});

describe('list state', () => {
  it('goes through the environment\'s provider, one per subtask and name', async () => {
    const made: string[] = [];
    const provider = (sub: number, name: string, op: string): ListState => {
      made.push(`${op}/${name}/${sub}`);
      const rows: Row[] = [];
      return {
        add: (r) => { rows.push(r); }, addBatch: () => { throw new Error('unused'); },
        rows: () => rows, batches: () => [], get size() { return rows.length; }, clear: () => { rows.length = 0; },
      };
    };
    const env = new StreamEnvironment({ parallelism: 2, listState: provider });
    const s = env.fromRows([{ v: 1 }, { v: 2 }, { v: 3 }, { v: 4 }], { parallelism: 2 }).process(() => ({
      processElement(row, ctx) { ctx.getListState('seen').add(row); },
      finish(ctx, out) { const st = ctx.getListState('seen'); out.collect({ v: st.size }); },
    }));
    const sizes = (await s.collect()).map((r) => r.v as number).sort();
    expect(sizes).toEqual([2, 2]);
    expect(made.sort()).toEqual(['Process#1[0]/seen/0', 'Process#1[1]/seen/1']);
  });
});

describe('iteration body scope', () => {
  it('rejects sources and actions while a body is built, and wraps operators', async () => {
    const env = new StreamEnvironment();
    const outside = env.fromRows([{ v: 1 }]);
    const wrapped: string[] = [];
    env.graph.currentScope = { wrapOperator: (f, name) => { wrapped.push(name); return f; } };
    try {
      expect(() => env.fromRows([{ v: 1 }])).toThrow(/a source \(FromRows\) is unsupported inside an iteration body/);
      const m = outside.map((r) => r);
      expect(wrapped).toEqual(['Map']);
      await expect(m.collect()).rejects.toThrow(/a sink \(collect, rows or batches\) is unsupported inside an iteration body/);
    } finally {
      env.graph.currentScope = undefined;
    }
  });
});
