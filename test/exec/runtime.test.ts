import { describe, expect, it } from 'vitest';
import { Int32, makeData, type RecordBatch } from 'apache-arrow';
import { batchFromColumns } from '../../src/exec/batch.js';
import { JobGraphBuilder } from '../../src/exec/job.js';
import { END, type Operator, type OperatorContext, type SourceEvent, type SourceFactory } from '../../src/exec/operator.js';
import { executeJob } from '../../src/exec/runtime.js';
import { CancelledError, ExecutionError } from '../../src/relnode/errors.js';
import { field, schemaOf } from '../../src/relnode/types.js';

const S = schemaOf([field('v', 'INTEGER')]);

function ints(values: number[]): RecordBatch {
  return batchFromColumns(['v'], [makeData({ type: new Int32(), length: values.length, nullCount: 0, data: Int32Array.from(values) })]);
}

function valuesOf(b: RecordBatch): number[] {
  const d = b.data.children[0]!;
  return Array.from((d.values as Int32Array).subarray(0, d.length));
}

/** A source emitting a scripted list of events per subtask. */
function scripted(script: (subtask: number) => SourceEvent[]): SourceFactory {
  return (ctx) => {
    const events = script(ctx.subtaskIndex);
    let closed = false;
    return {
      next: () => (closed ? null : events.shift() ?? null),
      close: () => { closed = true; },
    };
  };
}

type Log = string[];

/** Records every callback; forwards batches. */
function recorder(log: Log): Operator {
  let ctx!: OperatorContext;
  return {
    open(c) { ctx = c; },
    processBatch(input, batch, epoch) { log.push(`batch in${input} e${epoch} [${valuesOf(batch).join(',')}]`); ctx.emit(batch, epoch); },
    onEpochWatermarkIncremented(e) { log.push(`wm ${e}`); },
    onInputEnd(i) { log.push(`end in${i}`); },
    finish() { log.push('finish'); },
    close() { log.push('close'); },
  };
}

async function drain(job: AsyncIterable<RecordBatch>): Promise<number[]> {
  const out: number[] = [];
  for await (const b of job) out.push(...valuesOf(b));
  return out;
}

describe('runtime: epoch watermarks', () => {
  it('an operator fed by several parallel channels sees each watermark once, in order, after the rows it covers', async () => {
    const log: Log = [];
    const g = new JobGraphBuilder();
    const src = g.addSource('Src', 3, S, scripted((s) => [
      { batch: ints([s * 10 + 0]), epoch: 0 }, { watermark: 0 },
      { batch: ints([s * 10 + 1]), epoch: 1 }, { watermark: 1 },
      { batch: ints([s * 10 + 2]), epoch: 2 }, { watermark: 2 },
    ]), undefined, { multiEpoch: true });
    const op = g.addOperator('Rec', 1, S, () => recorder(log), [{ from: src, partitioner: { kind: 'global' } }]);
    const out = await drain(executeJob(g.build(op), { batchSize: 1024 }));
    expect(out.sort((a, b) => a - b)).toEqual([0, 1, 2, 10, 11, 12, 20, 21, 22]);
    const wms = log.filter((l) => l.startsWith('wm') || l === 'finish');
    expect(wms).toEqual(['wm 0', 'wm 1', 'wm 2', 'finish']);
    // Every row of epoch ≤ w was processed before "wm w".
    for (const w of [0, 1, 2]) {
      const at = log.indexOf(`wm ${w}`);
      const before = log.slice(0, at).filter((l) => l.startsWith('batch'));
      expect(before.filter((l) => Number(l.split(' ')[2]!.slice(1)) <= w)).toHaveLength(3 * (w + 1));
    }
    expect(log.at(-1)).toBe('close');
  });

  it('a watermark that jumps several epochs triggers one callback', async () => {
    const log: Log = [];
    const g = new JobGraphBuilder();
    const src = g.addSource('Src', 1, S, scripted(() => [{ batch: ints([1]), epoch: 0 }, { watermark: 5 }]), undefined, { multiEpoch: true });
    const op = g.addOperator('Rec', 1, S, () => recorder(log), [{ from: src, partitioner: { kind: 'forward' } }]);
    await drain(executeJob(g.build(op), { batchSize: 1024 }));
    expect(log.filter((l) => l.startsWith('wm'))).toEqual(['wm 5']);
  });

  it('watermarks are forwarded downstream after what the callback emitted', async () => {
    const log: Log = [];
    const g = new JobGraphBuilder();
    const src = g.addSource('Src', 2, S, scripted((s) => [{ batch: ints([s]), epoch: 0 }, { watermark: 0 }, { batch: ints([s + 100]), epoch: 1 }]), undefined, { multiEpoch: true });
    // Emits a sum per epoch at the watermark.
    const summer: () => Operator = () => {
      let ctx!: OperatorContext;
      const sums = new Map<number, number>();
      return {
        open(c) { ctx = c; },
        processBatch(_i, b, e) { sums.set(e, (sums.get(e) ?? 0) + valuesOf(b).reduce((x, y) => x + y, 0)); },
        onEpochWatermarkIncremented(e) { ctx.emit(ints([sums.get(e) ?? 0]), e); sums.delete(e); },
        finish() { for (const [e, v] of sums) ctx.emit(ints([v]), e); },
        close() {},
      };
    };
    const sum = g.addOperator('Sum', 1, S, summer, [{ from: src, partitioner: { kind: 'global' } }]);
    const rec = g.addOperator('Rec', 1, S, () => recorder(log), [{ from: sum, partitioner: { kind: 'forward' } }]);
    const out = await drain(executeJob(g.build(rec), { batchSize: 1024 }));
    expect(out).toEqual([1, 201]);
    expect(log.filter((l) => !l.startsWith('close'))).toEqual(['batch in0 e0 [1]', 'wm 0', 'batch in0 e1 [201]', 'end in0', 'finish']);
  });
});

describe('runtime: inputs and selection', () => {
  it('a two-input operator whose one input reached END keeps that input\'s state across epochs', async () => {
    const g = new JobGraphBuilder();
    const stat = g.addSource('Static', 1, S, scripted(() => [ints([1000])]));
    const dyn = g.addSource('Dynamic', 1, S, scripted(() => [
      { batch: ints([1]), epoch: 0 }, { watermark: 0 }, { batch: ints([2]), epoch: 1 }, { watermark: 1 }, { batch: ints([3]), epoch: 2 },
    ]), undefined, { multiEpoch: true });
    // Adds the static value (input 0, selected first) to every dynamic row (input 1).
    const adder: () => Operator = () => {
      let ctx!: OperatorContext;
      let base: number | undefined;
      let ended = false;
      return {
        open(c) { ctx = c; },
        selectInput: () => (ended ? 1 : 0),
        processBatch(i, b, e) {
          if (i === 0) base = valuesOf(b)[0];
          else { if (base === undefined) throw new Error('probe before build'); ctx.emit(ints(valuesOf(b).map((v) => v + base!)), e); }
        },
        onInputEnd(i) { if (i === 0) ended = true; },
        finish() {},
        close() {},
      };
    };
    const op = g.addOperator('Adder', 1, S, adder, [{ from: stat, partitioner: { kind: 'forward' } }, { from: dyn, partitioner: { kind: 'forward' } }]);
    expect(await drain(executeJob(g.build(op), { batchSize: 1024 }))).toEqual([1001, 1002, 1003]);
  });

  it('sources open in order whether their factories are synchronous or return promises; a rejected factory fails the job and closes the operators', async () => {
    const opened: string[] = [];
    const factory = (name: string, v: number, async: boolean): SourceFactory => (ctx) => {
      const make = (): ReturnType<SourceFactory> => { opened.push(name); return scripted(() => [ints([v])])(ctx); };
      return async ? Promise.resolve().then(make) : make();
    };
    const g = new JobGraphBuilder();
    const a = g.addSource('A', 1, S, factory('A', 1, false));
    const b = g.addSource('B', 1, S, factory('B', 2, true));
    const c = g.addSource('C', 1, S, factory('C', 3, false));
    const u = g.addOperator('Union', 1, S, () => recorder([]), [a, b, c].map((from) => ({ from, partitioner: { kind: 'forward' } as const })));
    expect((await drain(executeJob(g.build(u), { batchSize: 1024 }))).sort()).toEqual([1, 2, 3]);
    expect(opened).toEqual(['A', 'B', 'C']);

    const log: string[] = [];
    const f = new JobGraphBuilder();
    const ok = f.addSource('Ok', 1, S, scripted(() => [ints([1])]));
    const bad = f.addSource('Bad', 1, S, () => Promise.reject(new Error('no file')));
    const op = f.addOperator('Rec', 1, S, () => recorder(log), [{ from: ok, partitioner: { kind: 'forward' } }, { from: bad, partitioner: { kind: 'forward' } }]);
    await expect(drain(executeJob(f.build(op), { batchSize: 1024 }))).rejects.toThrow('no file');
    expect(log).toContain('close');
  });

  it('a shared producer feeding both inputs of a selective consumer does not deadlock (self-join shape)', async () => {
    const g = new JobGraphBuilder();
    const src = g.addSource('Src', 1, S, scripted(() => Array.from({ length: 50 }, (_, i) => ints([i]))));
    const selective: () => Operator = () => {
      let ctx!: OperatorContext;
      let built = 0;
      let ended = false;
      return {
        open(c) { ctx = c; },
        selectInput: () => (ended ? 1 : 0),
        processBatch(i, b, e) { if (i === 0) built += valuesOf(b).length; else ctx.emit(ints(valuesOf(b).map(() => built)), e); },
        onInputEnd(i) { if (i === 0) ended = true; },
        finish() {},
        close() {},
      };
    };
    const op = g.addOperator('Sel', 1, S, selective, [{ from: src, partitioner: { kind: 'forward' } }, { from: src, partitioner: { kind: 'forward' } }]);
    const out = await drain(executeJob(g.build(op), { batchSize: 1024 }));
    expect(out).toHaveLength(50);
    expect(new Set(out)).toEqual(new Set([50]));
  });

  it('hash partitioning sends equal keys to the same subtask', async () => {
    const g = new JobGraphBuilder();
    const src = g.addSource('Src', 2, S, scripted((s) => [ints([1, 2, 3, 4, 5, 6, 7, 8].map((v) => v + s * 0))]));
    const seen: Map<number, Set<number>> = new Map();
    const op = g.addOperator('P', 3, S, (sub) => {
      let ctx!: OperatorContext;
      return {
        open(c) { ctx = c; },
        processBatch(_i, b, e) { for (const v of valuesOf(b)) { if (!seen.has(v)) seen.set(v, new Set()); seen.get(v)!.add(sub); } ctx.emit(b, e); },
        finish() {},
        close() {},
      };
    }, [{ from: src, partitioner: { kind: 'hash', keys: [0] } }]);
    const out = await drain(executeJob(g.build(op), { batchSize: 1024 }));
    expect(out).toHaveLength(16);
    for (const subs of seen.values()) expect(subs.size).toBe(1);
  });
});

describe('runtime: failure and cancellation', () => {
  it('an operator that throws fails the job with its name, and every operator is closed', async () => {
    const log: Log = [];
    const g = new JobGraphBuilder();
    const src = g.addSource('Src', 1, S, scripted(() => [ints([1]), ints([2])]));
    const boom = g.addOperator('Boom', 1, S, () => ({ open() {}, processBatch() { throw new Error('kaput'); }, finish() {}, close() { log.push('boom closed'); } }), [{ from: src, partitioner: { kind: 'forward' } }]);
    const rec = g.addOperator('Rec', 1, S, () => recorder(log), [{ from: boom, partitioner: { kind: 'forward' } }]);
    const err = await drain(executeJob(g.build(rec), { batchSize: 1024 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExecutionError);
    expect(String((err as Error).message)).toMatch(/Boom#1\[0\].*kaput/);
    expect(log).toContain('boom closed');
    expect(log).toContain('close');
  });

  it('cancellation stops sources', async () => {
    const ctrl = new AbortController();
    let pulled = 0;
    let closed = false;
    const g = new JobGraphBuilder();
    const src = g.addSource('Endless', 1, S, () => ({
      next: () => { pulled++; if (pulled === 20) ctrl.abort(); return ints([pulled]); },
      close: () => { closed = true; },
    }));
    const op = g.addOperator('Rec', 1, S, () => recorder([]), [{ from: src, partitioner: { kind: 'forward' } }]);
    const err = await drain(executeJob(g.build(op), { batchSize: 1024, signal: ctrl.signal })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CancelledError);
    expect(closed).toBe(true);
    expect(pulled).toBeLessThan(25);
  });

  it('a satisfied consumer stops its upstream source early', async () => {
    let pulled = 0;
    let closed = false;
    const g = new JobGraphBuilder();
    const src = g.addSource('Endless', 1, S, () => ({ next: () => ints([++pulled]), close: () => { closed = true; } }));
    const op = g.addOperator('Take3', 1, S, () => {
      let ctx!: OperatorContext;
      let n = 0;
      return { open(c) { ctx = c; }, processBatch(_i, b, e) { if (n < 3) { ctx.emit(b, e); n++; if (n === 3) ctx.markInputSatisfied(); } }, finish() {}, close() {} };
    }, [{ from: src, partitioner: { kind: 'forward' } }]);
    expect(await drain(executeJob(g.build(op), { batchSize: 1024 }))).toEqual([1, 2, 3]);
    expect(closed).toBe(true);
    expect(pulled).toBeLessThan(10);
  });

  it('END is above every epoch', () => {
    expect(END).toBeGreaterThan(2 ** 30);
  });
});
