/**
 * Adapts a TableSource to the runtime's source contract: subtask i of P
 * reads partitions i, i+P, i+2P, ... of the source.
 */
import type { RecordBatch } from 'apache-arrow';
import type { SourceFactory } from '../exec/operator.js';
import type { RexNode } from '../relnode/rex.js';
import type { TableSource } from '../io/source.js';

/** A source factory scanning `source` with an optional projection and pushed filters. */
export function tableScanSource(source: TableSource, columns?: readonly number[], filters?: readonly RexNode[]): SourceFactory {
  return (ctx) => {
    const parts: number[] = [];
    for (let q = ctx.subtaskIndex; q < source.partitions; q += ctx.parallelism) parts.push(q);
    let it: Iterator<RecordBatch> | AsyncIterator<RecordBatch> | undefined;
    let done = false;
    const open = (): boolean => {
      const partition = parts.shift();
      if (partition === undefined) return false;
      const iterable = source.scan({ partition, batchSize: ctx.batchSize, signal: ctx.signal, ...(columns ? { columns } : {}), ...(filters ? { filters } : {}) });
      it = Symbol.asyncIterator in iterable ? (iterable as AsyncIterable<RecordBatch>)[Symbol.asyncIterator]() : (iterable as Iterable<RecordBatch>)[Symbol.iterator]();
      return true;
    };
    const next = (): RecordBatch | null | Promise<RecordBatch | null> => {
      for (;;) {
        if (done) return null;
        if (it === undefined && !open()) { done = true; return null; }
        const r = it!.next();
        if (r instanceof Promise) {
          return r.then((res) => {
            if (res.done) { it = undefined; return next(); }
            return res.value.numRows === 0 ? next() : res.value;
          });
        }
        if (r.done) { it = undefined; continue; }
        if (r.value.numRows > 0) return r.value;
      }
    };
    return {
      next,
      close() {
        done = true;
        const cur = it;
        it = undefined;
        // A scan that ran to its end has no iterator open: nothing to wait for (no promise per query).
        if (cur === undefined) return;
        return (async () => { await cur.return?.(); })();
      },
    };
  };
}
