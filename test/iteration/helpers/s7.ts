/**
 * ITERATION-SEMANTICS.md S7's synchronous reducer: caches the records of
 * epochs < 4 and, at each watermark w, reports `w:sum` and emits epoch w's
 * records (they go round through a keyed stage); reports `terminated` at the
 * end. Its state takes part in checkpoints (S12).
 */
import type { CoProcessOperator, ProcessFactory, Row } from '../../../src/iteration/stream/process.js';

export function s7Reducer(reports: string[]): ProcessFactory<CoProcessOperator> {
  return () => {
    let rows = new Map<number, Row[]>();
    let sums = new Map<number, number>();
    const add = (row: Row, e: number): void => {
      sums.set(e, (sums.get(e) ?? 0) + (row['v'] as number));
      if (e < 4) { let l = rows.get(e); if (l === undefined) rows.set(e, l = []); l.push(row); }
    };
    return {
      processElement1(row, ctx) { add(row, ctx.epoch); },
      processElement2(row, ctx) { add(row, ctx.epoch); },
      onEpochWatermarkIncremented(w, _ctx, o) {
        reports.push(`${w}:${sums.get(w) ?? 0}`);
        for (const r of rows.get(w) ?? []) o.collect(r);
        rows.delete(w);
      },
      onIterationTerminated() { reports.push('terminated'); },
      snapshotState: () => ({ rows, sums }),
      restoreState(s) { ({ rows, sums } = s as { rows: Map<number, Row[]>; sums: Map<number, number> }); },
    };
  };
}
