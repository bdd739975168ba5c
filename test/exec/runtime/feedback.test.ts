/**
 * The runtime's iteration support (DESIGN.md "What the runtime grows for
 * iteration"): feedback edges closing a cycle, operators owning their
 * watermarks, side outputs, the mailbox, per-run shared objects, and sources
 * that wait without blocking the loop.
 */
import { describe, expect, it } from 'vitest';
import { Int32, makeData, type RecordBatch } from 'apache-arrow';
import { batchFromColumns } from '../../../src/exec/batch.js';
import { JobGraphBuilder, explainJob, type JobGraph } from '../../../src/exec/job.js';
import { END, type Operator, type OperatorContext, type SourceFactory } from '../../../src/exec/operator.js';
import { executeJob, type BatchSpill } from '../../../src/exec/runtime.js';
import { field, schemaOf } from '../../../src/relnode/types.js';

const S = schemaOf([field('v', 'INTEGER')]);

function ints(values: number[]): RecordBatch {
  return batchFromColumns(['v'], [makeData({ type: new Int32(), length: values.length, nullCount: 0, data: Int32Array.from(values) })]);
}
function valuesOf(b: RecordBatch): number[] {
  return Array.from((b.data.children[0]!.values as Int32Array).subarray(0, b.numRows));
}
function rowsSource(values: number[]): SourceFactory {
  return () => {
    let done = false;
    return { next: () => { if (done) return null; done = true; return ints(values); }, close: () => { done = true; } };
  };
}
const fwd = { kind: 'forward' } as const;

/**
 * A toy head: forwards everything, counts feedback rows per epoch, emits EW(0)
 * when the initial input ends and, for each feedback watermark e, EW(e) — or
 * END when epoch e brought no feedback rows.
 */
function toyHead(log: string[]): Operator {
  let ctx!: OperatorContext;
  const counts = new Map<number, number>();
  return {
    open(c) { ctx = c; },
    processBatch(input, batch, epoch) {
      if (input === 1) counts.set(epoch, (counts.get(epoch) ?? 0) + batch.numRows);
      ctx.emit(batch, epoch);
    },
    onInputWatermark(input, w) {
      log.push(`head in${input} wm ${w === END ? 'END' : w}`);
      if (input === 0 && w === END) ctx.emitWatermark(0);
      if (input === 1 && w < END) ctx.post(() => ctx.emitWatermark((counts.get(w) ?? 0) === 0 ? END : w));
    },
    finish() { log.push('head finish'); },
    close() {},
  };
}
/** A toy tail: epoch + 1 on records and watermarks. */
function toyTail(): Operator {
  let ctx!: OperatorContext;
  return {
    open(c) { ctx = c; },
    processBatch(_i, batch, epoch) { if (epoch < END) ctx.emit(batch, epoch + 1); },
    onInputWatermark(_i, w) { ctx.emitWatermark(w >= END ? END : w + 1); },
    finish() {},
    close() {},
  };
}
/** map v → v + 1 that records what it sees. */
function plusOne(log: string[]): Operator {
  let ctx!: OperatorContext;
  return {
    open(c) { ctx = c; },
    processBatch(_i, b, epoch) { log.push(`map e${epoch}: ${valuesOf(b)}`); ctx.emit(ints(valuesOf(b).map((v) => v + 1)), epoch); },
    onEpochWatermarkIncremented(w) { log.push(`map wm ${w}`); },
    onIterationTerminated() { log.push('map terminated'); },
    finish() {},
    close() {},
  };
}
function below(n: number): Operator {
  let ctx!: OperatorContext;
  return {
    open(c) { ctx = c; },
    processBatch(_i, b, epoch) { const kept = valuesOf(b).filter((v) => v < n); if (kept.length > 0) ctx.emit(ints(kept), epoch); },
    finish() {},
    close() {},
  };
}

async function collect(g: JobGraphBuilder, out: number): Promise<number[]> {
  const got: number[] = [];
  for await (const b of executeJob(g.build(out), { batchSize: 1024 })) got.push(...valuesOf(b));
  return got;
}

describe('feedback edges', () => {
  it('a cycle through a feedback edge runs rounds until the head ends it (S1 shape)', async () => {
    const log: string[] = [];
    const g = new JobGraphBuilder();
    const src = g.addSource('Init', 1, S, rowsSource([0]));
    const head = g.addOperator('Head', 1, S, () => toyHead(log), [{ from: src, partitioner: fwd }], undefined, { manualWatermarks: true, multiEpoch: true, feedbackInputs: 1 });
    const map = g.addOperator('Map', 1, S, () => plusOne(log), [{ from: head, partitioner: fwd }]);
    const filter = g.addOperator('Filter', 1, S, () => below(3), [{ from: map, partitioner: fwd }]);
    const tail = g.addOperator('Tail', 1, S, toyTail, [{ from: filter, partitioner: fwd }], undefined, { manualWatermarks: true });
    g.connectFeedback(head, 1, tail, fwd);
    expect(await collect(g, map)).toEqual([1, 2, 3]);
    // Feedback rows are forwarded at once, so epoch 1's record may come before watermark 0 (allowed).
    expect(log.filter((l) => l.startsWith('map e'))).toEqual(['map e0: 0', 'map e1: 1', 'map e2: 2']);
    expect(log.filter((l) => l.startsWith('map wm') || l === 'map terminated')).toEqual(['map wm 0', 'map wm 1', 'map wm 2', 'map terminated']);
    expect(log.indexOf('map wm 1')).toBeGreaterThan(log.indexOf('map e1: 1'));
    expect(log.indexOf('map wm 2')).toBeGreaterThan(log.indexOf('map e2: 2'));
    expect(log.at(-1)).toBe('head finish');
    expect(explainJob(g.build(map))).toContain('feedback from Tail#4');
  });

  it('an unconnected feedback input is an internal error at build time', () => {
    const g = new JobGraphBuilder();
    const src = g.addSource('Init', 1, S, rowsSource([0]));
    const head = g.addOperator('Head', 1, S, () => toyHead([]), [{ from: src, partitioner: fwd }], undefined, { manualWatermarks: true, feedbackInputs: 1 });
    expect(() => g.build(head)).toThrow(/feedback input 1 of vertex 1 \(Head\) is not connected/);
  });

  it('feedback channels queue: a head never runs re-entrantly inside its own emit', async () => {
    let depth = 0;
    let maxDepth = 0;
    const g = new JobGraphBuilder();
    const src = g.addSource('Init', 1, S, rowsSource([0]));
    const head = g.addOperator('Head', 1, S, () => {
      const inner = toyHead([]);
      return { ...inner, processBatch(i, b, e) { depth++; maxDepth = Math.max(maxDepth, depth); inner.processBatch(i, b, e); depth--; } };
    }, [{ from: src, partitioner: fwd }], undefined, { manualWatermarks: true, multiEpoch: true, feedbackInputs: 1 });
    const filter = g.addOperator('Filter', 1, S, () => below(50), [{ from: g.addOperator('Map', 1, S, () => plusOne([]), [{ from: head, partitioner: fwd }]), partitioner: fwd }]);
    const tail = g.addOperator('Tail', 1, S, toyTail, [{ from: filter, partitioner: fwd }], undefined, { manualWatermarks: true });
    g.connectFeedback(head, 1, tail, fwd);
    expect((await collect(g, head)).length).toBe(50);
    expect(maxDepth).toBe(1);
  });
});

/** A tail that fans each record out into `copies` batches of `rows` rows (epoch + 1), while the epoch is below `rounds`. */
function fanOutTail(copies: number, rows: number, rounds: number): Operator {
  let ctx!: OperatorContext;
  return {
    open(c) { ctx = c; },
    processBatch(_i, _b, epoch) {
      if (epoch + 1 >= rounds) return;
      for (let k = 0; k < copies; k++) ctx.emit(ints(Array.from({ length: rows }, (_, i) => i)), epoch + 1);
    },
    onInputWatermark(_i, w) { ctx.emitWatermark(w >= END ? END : w + 1); },
    finish() {}, close() {},
  };
}

/** A head that only forwards epoch 0 and epoch ≥ 1 feedback records whose value is 0 (one per batch). */
function loopGraph(counted: number[]): JobGraph {
  const g = new JobGraphBuilder();
  const src = g.addSource('Init', 1, S, rowsSource([0]));
  const head = g.addOperator('Head', 1, S, () => {
    const inner = toyHead([]);
    return {
      ...inner,
      processBatch(i, b, e) { if (i === 1) counted.push(b.numRows); inner.processBatch(i, i === 1 ? ints([0]) : b, e); },
    };
  }, [{ from: src, partitioner: fwd }], undefined, { manualWatermarks: true, multiEpoch: true, feedbackInputs: 1 });
  const tail = g.addOperator('Tail', 1, S, () => fanOutTail(20, 1000, 3), [{ from: head, partitioner: fwd }], undefined, { manualWatermarks: true });
  g.connectFeedback(head, 1, tail, fwd);
  return g.build(head);
}
function loopJob(spill: BatchSpill | undefined, budgetBytes: number, counted: number[], memoryLimit?: number) {
  return executeJob(loopGraph(counted), { batchSize: 1024, feedback: { budgetBytes, ...(spill ? { spill } : {}) }, ...(memoryLimit ? { memoryLimit } : {}) });
}

describe('feedback queues spill past their byte budget', () => {
  it('spills batches past the budget and reads them back in order, removing every file', async () => {
    const files = new Map<object, RecordBatch>();
    let written = 0;
    const spill: BatchSpill = {
      write: (b) => { const h = {}; files.set(h, b); written++; return h; },
      read: (h) => files.get(h)!,
      remove: (h) => { files.delete(h); },
    };
    const counted: number[] = [];
    const job = loopJob(spill, 16_000, counted);
    let out = 0;
    for await (const b of job) out += b.numRows;
    // Round 1: 20 batches of 1000 rows fed back; round 2: 20 per epoch-1 batch forwarded (20) = 400.
    expect(counted.length).toBe(20 + 400);
    expect(counted.every((n) => n === 1000)).toBe(true);
    expect(out).toBe(1 + 20 + 400);
    const st = job.feedbackStats();
    expect(written).toBeGreaterThan(300);
    expect(st.spilledBatches).toBe(written);
    expect(st.peakBytes).toBeLessThanOrEqual(16_000);
    expect(files.size).toBe(0);
  });

  it('without a spill store the queue keeps everything in memory, counted against the memory limit', async () => {
    const counted: number[] = [];
    const job = loopJob(undefined, 16_000, counted);
    for await (const _ of job) { /* run */ }
    expect(counted.length).toBe(420);
    expect(job.feedbackStats().peakBytes).toBeGreaterThan(16_000);
    const limited = loopJob(undefined, 16_000, [], 50_000);
    await expect((async () => { for await (const _ of limited) { /* run */ } })()).rejects.toThrow(/feedback queue/);
  });
});

describe('side outputs, mailbox, shared objects', () => {
  it('routes emitTo(1) only to edges reading output 1', async () => {
    const g = new JobGraphBuilder();
    const src = g.addSource('Src', 1, S, rowsSource([1, 2, 3, 4]));
    const split = g.addOperator('Split', 1, S, () => {
      let ctx!: OperatorContext;
      return {
        open(c) { ctx = c; },
        processBatch(_i, b) { const v = valuesOf(b); ctx.emit(ints(v.filter((x) => x % 2 === 0))); ctx.emitTo(1, ints(v.filter((x) => x % 2 === 1))); },
        finish() {}, close() {},
      };
    }, [{ from: src, partitioner: fwd }], undefined, { sideOutputs: [S] });
    const odd = g.addOperator('Odd', 1, S, () => below(100), [{ from: split, partitioner: fwd, output: 1 }]);
    expect(await collect(g, odd)).toEqual([1, 3]);
    const g2 = new JobGraphBuilder();
    expect(() => g2.addOperator('X', 1, S, () => below(1), [{ from: g2.addSource('S', 1, S, rowsSource([])), partitioner: fwd, output: 1 }])).toThrow(/has no output 1/);
  });

  it('posted tasks run later from the loop, in order; shared objects are per run', async () => {
    const order: string[] = [];
    const made: object[] = [];
    const g = new JobGraphBuilder();
    const src = g.addSource('Src', 2, S, rowsSource([7]));
    const op = g.addOperator('Op', 2, S, () => {
      let ctx!: OperatorContext;
      return {
        open(c) { ctx = c; made.push(c.shared('coordinator', () => ({ id: made.length }))); },
        processBatch(_i, b) {
          order.push(`batch ${ctx.subtaskIndex}`);
          ctx.post(() => { order.push(`task ${ctx.subtaskIndex}`); ctx.emit(b); });
          order.push(`after post ${ctx.subtaskIndex}`);
        },
        finish() {}, close() {},
      };
    }, [{ from: src, partitioner: fwd }]);
    const job = g.build(op);
    const got: number[] = [];
    for await (const b of executeJob(job, { batchSize: 16 })) got.push(...valuesOf(b));
    expect(got).toEqual([7, 7]);
    expect(order.indexOf('after post 0')).toBeLessThan(order.indexOf('task 0'));
    expect(made[0]).toBe(made[1]);
    for await (const _ of executeJob(job, { batchSize: 16 })) { /* second run */ }
    expect(made[2]).not.toBe(made[0]);
    expect(made[2]).toBe(made[3]);
  });

  it('a waiting source does not block another source or pending work', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const seen: number[] = [];
    const g = new JobGraphBuilder();
    let sent = false;
    const slow = g.addSource('Slow', 1, S, () => ({
      next: async () => { if (sent) return null; await gate; sent = true; return ints([100]); },
      close: () => {},
    }));
    let n = 0;
    const fast = g.addSource('Fast', 1, S, () => ({
      next: () => { if (n === 5) { release(); return null; } return ints([n++]); },
      close: () => {},
    }));
    const u = g.addOperator('Union', 1, S, () => {
      let ctx!: OperatorContext;
      return { open(c) { ctx = c; }, processBatch(_i, b) { seen.push(...valuesOf(b)); ctx.emit(b); }, finish() {}, close() {} };
    }, [{ from: slow, partitioner: fwd }, { from: fast, partitioner: fwd }]);
    await collect(g, u);
    expect(seen).toEqual([0, 1, 2, 3, 4, 100]);
  });

  it('a source that never answers does not make the job uncancellable', async () => {
    const g = new JobGraphBuilder();
    const src = g.addSource('Never', 1, S, () => ({ next: () => new Promise<null>(() => {}), close: () => {} }));
    const op = g.addOperator('Op', 1, S, () => below(10), [{ from: src, partitioner: fwd }]);
    const ctrl = new AbortController();
    const t0 = performance.now();
    setTimeout(() => ctrl.abort(), 50);
    await expect((async () => { for await (const _ of executeJob(g.build(op), { batchSize: 16, signal: ctrl.signal })) { /* none */ } })()).rejects.toThrow(/cancelled/);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});
