/** Helpers for the stream-level iteration tests. */
import { StreamEnvironment } from '../../../src/iteration/stream/environment.js';
import type { DataStream } from '../../../src/iteration/stream/data-stream.js';
import type { ProcessOperator, Row } from '../../../src/iteration/stream/process.js';
import { END } from '../../../src/exec/operator.js';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
export const ep = (e: number): string => (e >= END ? 'END' : String(e));

export function envOf(parallelism = 1): StreamEnvironment {
  return new StreamEnvironment({ parallelism, batchSize: 1024 });
}

/** 4 × 0..999 (split over `p` subtasks in order, so with p = 4 each subtask has 0..999). */
export const FOUR_RANGES: Row[] = Array.from({ length: 4000 }, (_, i) => ({ v: i % 1000 }));
export const RANGE_SUM = 1_998_000;

/** An async iterable that yields `rows`, then never ends (until the job is cancelled). */
export function neverEnding(rows: readonly Row[]): AsyncIterable<Row> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<Row> {
      let i = 0;
      let wake: ((r: IteratorResult<Row>) => void) | undefined;
      return {
        next: () => (i < rows.length ? Promise.resolve({ value: rows[i++]!, done: false }) : new Promise((r) => { wake = r; })),
        return: () => { wake?.({ value: undefined, done: true }); return Promise.resolve({ value: undefined, done: true }); },
      };
    },
  };
}

/** map v → v + 1 that logs what it sees (per subtask) into `log`. */
export function plusOne(x: DataStream, log: string[]): DataStream {
  return x.process((): ProcessOperator => ({
    processElement(row, ctx, out) { log.push(`[${ctx.subtaskIndex}] e${ep(ctx.epoch)} ${String(row['v'])}`); out.collect({ v: (row['v'] as number) + 1 }); },
    onEpochWatermarkIncremented(w, ctx) { log.push(`[${ctx.subtaskIndex}] wm ${w}`); },
    onIterationTerminated(ctx) { log.push(`[${ctx.subtaskIndex}] terminated`); },
  }), { name: 'PlusOne' });
}

/** The callbacks of subtask `s` in a log written by plusOne-style operators. */
export function callbacks(log: readonly string[], s = 0): string[] {
  return log.filter((l) => l.startsWith(`[${s}] wm`) || l === `[${s}] terminated`).map((l) => l.slice(l.indexOf(']') + 2));
}

/** Records the epoch of every row: outputs rows { v, e }. */
export function withEpochs(x: DataStream): DataStream {
  return x.process((): ProcessOperator => ({
    processElement(row, ctx, out) { out.collect({ v: row['v'], e: ctx.epoch >= END ? -1 : ctx.epoch }); },
  }), { schema: { v: 'INTEGER', e: 'INTEGER' }, name: 'Epochs' });
}

export const wmsUpTo = (n: number): string[] => [...Array.from({ length: n }, (_, i) => `wm ${i}`), 'terminated'];
