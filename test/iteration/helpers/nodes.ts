/**
 * Test helpers at the stream-graph level: small runtime operators (int
 * columns named `v`) added as stream nodes, and a runner, so the iteration
 * core can be tested without the DataStream API.
 */
import { Int32, makeData, type RecordBatch } from 'apache-arrow';
import { batchFromColumns } from '../../../src/exec/batch.js';
import { END, type Operator, type OperatorContext, type SourceFactory } from '../../../src/exec/operator.js';
import { executeJob } from '../../../src/exec/runtime.js';
import { field, schemaOf } from '../../../src/relnode/types.js';
import { StreamGraph, compileStream, type StreamNode } from '../../../src/iteration/stream/graph.js';
import type { StreamRef } from '../../../src/iteration/loop.js';

export const S = schemaOf([field('v', 'INTEGER')]);
export const fwd = { kind: 'forward' } as const;

export function ints(values: readonly number[]): RecordBatch {
  return batchFromColumns(['v'], [makeData({ type: new Int32(), length: values.length, nullCount: 0, data: Int32Array.from(values) })]);
}
export function valuesOf(b: RecordBatch): number[] {
  return Array.from((b.data.children[0]!.values as Int32Array).subarray(0, b.numRows));
}
export const ep = (e: number): string => (e >= END ? 'END' : String(e));

/** A bounded source: subtask s emits `perSubtask(s)` in batches of `batchRows`. */
export function source(g: StreamGraph, perSubtask: (s: number) => number[], parallelism = 1, batchRows = 1000): StreamRef {
  const factory: SourceFactory = (ctx) => {
    const vals = perSubtask(ctx.subtaskIndex);
    let pos = 0;
    return { next: () => { if (pos >= vals.length) return null; const b = ints(vals.slice(pos, pos + batchRows)); pos += batchRows; return b; }, close: () => { pos = vals.length; } };
  };
  return { node: g.add({ name: 'Src', schema: S, parallelism, run: { kind: 'source', factory, multiEpoch: false } }), output: 0 };
}

/** A never-ending source: emits `vals` then waits (a promise that settles only when closed). */
export function endless(g: StreamGraph, perSubtask: (s: number) => number[], parallelism = 1): StreamRef {
  const factory: SourceFactory = (ctx) => {
    const vals = perSubtask(ctx.subtaskIndex);
    let sent = false;
    let wake: (() => void) | undefined;
    return {
      next: () => { if (!sent) { sent = true; return ints(vals); } return new Promise((r) => { wake = () => r(null); }); },
      close: () => { wake?.(); },
    };
  };
  return { node: g.add({ name: 'Endless', schema: S, parallelism, run: { kind: 'source', factory, multiEpoch: false } }), output: 0 };
}

/** Callbacks of a logging operator. */
export interface OpHooks {
  batch?(ctx: OperatorContext, input: number, values: number[], epoch: number): void;
  watermark?(ctx: OperatorContext, w: number): void;
  terminated?(ctx: OperatorContext): void;
  finish?(ctx: OperatorContext): void;
}

/** An operator node built from hooks. */
export function op(g: StreamGraph, name: string, inputs: readonly StreamRef[], hooks: OpHooks, parallelism = 1, partitioner: import('../../../src/exec/job.js').Partitioner = fwd): StreamRef {
  const factory = (): Operator => {
    let ctx!: OperatorContext;
    return {
      open(c) { ctx = c; },
      processBatch(i, b, e) { hooks.batch?.(ctx, i, valuesOf(b), e); },
      onEpochWatermarkIncremented(w) { hooks.watermark?.(ctx, w); },
      onIterationTerminated() { hooks.terminated?.(ctx); },
      finish() { hooks.finish?.(ctx); },
      close() {},
    };
  };
  const node = g.add({ name, schema: S, parallelism, run: { kind: 'operator', factory }, inputs: inputs.map((r) => ({ node: r.node, output: r.output, partitioner: r.node.parallelism === parallelism ? partitioner : (partitioner.kind === 'forward' ? { kind: 'rebalance' } : partitioner) })) });
  return { node, output: 0 };
}

/** map v → f(v), logging what it sees into `log` (when given). */
export function map(g: StreamGraph, input: StreamRef, f: (v: number) => number, log?: string[], parallelism = input.node.parallelism): StreamRef {
  return op(g, 'Map', [input], {
    batch: (ctx, _i, vals, e) => { log?.push(`map e${ep(e)}: ${vals.join(',')}`); ctx.emit(ints(vals.map(f)), e); },
    watermark: (_c, w) => log?.push(`map wm ${w}`),
    terminated: () => log?.push('map terminated'),
  }, parallelism);
}

export function filter(g: StreamGraph, input: StreamRef, p: (v: number) => boolean): StreamRef {
  return op(g, 'Filter', [input], { batch: (ctx, _i, vals, e) => { const k = vals.filter(p); if (k.length > 0) ctx.emit(ints(k), e); } }, input.node.parallelism);
}

/** Runtime-level TerminateOnMaxIter: one record in the callback for w iff w + 1 < n. */
export function maxIter(g: StreamGraph, input: StreamRef, n: number): StreamRef {
  return op(g, 'TerminateOnMaxIter', [input], { watermark: (ctx, w) => { if (w + 1 < n) ctx.emit(ints([0]), w); } }, 1, { kind: 'rebalance' });
}

/** A pass-through that records `value@epoch` of every record into `log`. */
export function record(g: StreamGraph, input: StreamRef, log: string[]): StreamRef {
  return op(g, 'Record', [input], { batch: (ctx, _i, vals, e) => { for (const v of vals) log.push(`${v}@${ep(e)}`); ctx.emit(ints(vals), e); } }, input.node.parallelism);
}

/** Runs the job whose output is `out` and returns its values. */
export async function run(out: StreamRef, signal?: AbortSignal): Promise<number[]> {
  const got: number[] = [];
  const { graph } = compileStream(out.node);
  for await (const b of executeJob(graph, { batchSize: 1024, ...(signal ? { signal } : {}) })) got.push(...valuesOf(b));
  return got;
}

export function newGraph(): StreamGraph {
  return new StreamGraph();
}
export type { StreamNode };
