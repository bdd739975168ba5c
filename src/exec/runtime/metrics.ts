/**
 * Run metrics: per-instance counters and self-time attribution.
 *
 * Decision: time is attributed to the innermost running instance only
 * (synchronous delivery nests a consumer's call inside its producer's), so a
 * stack of start times is kept and a parent's clock pauses while a child
 * runs. Per-vertex metrics are sums over the vertex's subtasks.
 */
import type { JobGraph } from '../job.js';
import type { OperatorMetrics } from '../operator.js';

/** Metrics of one vertex, summed over its subtasks. */
export interface VertexMetrics extends OperatorMetrics {
  readonly vertex: number;
  readonly name: string;
}

/** Fresh zeroed counters. */
export function newMetrics(): OperatorMetrics {
  return { rowsIn: 0, batchesIn: 0, rowsOut: 0, batchesOut: 0, timeMs: 0 };
}

/** Attributes wall time to whoever is innermost on the stack. */
export class SelfTimer {
  private readonly stack: { m: OperatorMetrics; start: number }[] = [];

  /** Runs `f`, adding its own time (minus nested `timed` calls) to `m.timeMs`. */
  timed<T>(m: OperatorMetrics, f: () => T): T {
    const now = performance.now();
    const top = this.stack[this.stack.length - 1];
    if (top) top.m.timeMs += now - top.start;
    this.stack.push({ m, start: now });
    try {
      return f();
    } finally {
      const end = performance.now();
      const me = this.stack.pop()!;
      me.m.timeMs += end - me.start;
      const parent = this.stack[this.stack.length - 1];
      if (parent) parent.start = end;
    }
  }
}

/** Sums instance metrics per vertex. */
export function metricsByVertex(graph: JobGraph, byVertex: readonly (readonly { readonly metrics: OperatorMetrics }[])[]): VertexMetrics[] {
  return byVertex.map((insts, vertex) => {
    const m: VertexMetrics = { vertex, name: graph.vertices[vertex]!.name, ...newMetrics() };
    for (const i of insts) { m.rowsIn += i.metrics.rowsIn; m.batchesIn += i.metrics.batchesIn; m.rowsOut += i.metrics.rowsOut; m.batchesOut += i.metrics.batchesOut; m.timeMs += i.metrics.timeMs; }
    return m;
  });
}
