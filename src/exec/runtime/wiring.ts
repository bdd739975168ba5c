/**
 * Wiring a job graph into one run's instances and channels: one instance per
 * (vertex, subtask), one channel per (producer subtask, consumer subtask) of
 * every edge, and per vertex whether its output may carry several epochs.
 *
 * Why a file of its own: the wiring is decided once per run, before anything
 * is delivered, and is the only place that knows how edges become channels
 * (two passes: feedback edges point to later vertices, so every instance must
 * exist before any channel is made). The scheduler (scheduler.ts) only moves
 * events along what this built.
 */
import type { JobGraph } from '../job.js';
import { Channel } from './channel.js';
import { FeedbackQueue, type FeedbackBudget } from './feedback-queue.js';
import { OpInstance, SourceInst, type Instance, type RunHost } from './instance.js';

/** The instances and channels of one run. */
export interface Wiring {
  readonly sources: SourceInst[];
  readonly ops: OpInstance[];
  /** Instances per vertex id, by subtask. */
  readonly byVertex: Instance[][];
  /** Per vertex: whether its output may carry more than one epoch (a multi-epoch source upstream). */
  readonly multi: boolean[];
}

/** Creates `graph`'s instances for `run` and connects them; feedback channels queue through `feedback`. */
export function wire(run: RunHost, graph: JobGraph, feedback: FeedbackBudget): Wiring {
  const sources: SourceInst[] = [];
  const ops: OpInstance[] = [];
  const byVertex: Instance[][] = [];
  for (const v of graph.vertices) {
    const insts: Instance[] = [];
    for (let s = 0; s < v.parallelism; s++) {
      const inst = v.kind === 'source' ? new SourceInst(run, v, s) : new OpInstance(run, v, s, ops.length);
      if (inst instanceof SourceInst) sources.push(inst); else ops.push(inst as OpInstance);
      insts.push(inst);
    }
    byVertex.push(insts);
  }
  // Second pass: feedback edges point to later vertices, so every instance must exist first.
  for (const v of graph.vertices) {
    if (v.kind !== 'operator') continue;
    const insts = byVertex[v.id]!;
    v.inputs.forEach((e, input) => {
      for (const prod of byVertex[e.from]!) {
        const channels = insts.map((c) => {
          const ch = new Channel(prod, c as OpInstance, input, e.feedback === true ? new FeedbackQueue(feedback) : undefined);
          (c as OpInstance).inputChannels[input]!.push(ch);
          return ch;
        });
        prod.outputs.push({ partitioner: e.partitioner, output: e.output ?? 0, channels, next: prod.subtask % insts.length });
      }
    });
  }
  const multi: boolean[] = [];
  for (const v of graph.vertices) {
    multi.push(v.kind === 'source' ? v.multiEpoch === true : v.singleEpochOutput !== true && (v.multiEpoch === true || v.inputs.some((e) => e.feedback !== true && multi[e.from]!)));
  }
  return { sources, ops, byVertex, multi };
}
