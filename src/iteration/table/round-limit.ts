/**
 * The termination criteria of a table-valued iteration: one operator that
 * joins the `until` rule (go on while the until plan is non-empty) and the
 * round limit (maxRounds, or the environment's round cap). At the watermark
 * of round w it emits one record — the loop goes on — iff until (when there
 * is one) had rows in round w and w + 1 < limit; it withholds the record when
 * only the limit stops the loop, and says so in the shared state, so the
 * exit can fail an iteration that hit its limit without a fixpoint.
 *
 * Decision: a criteria stream as the stream library's TerminateOnMaxIter is
 * (only the record's existence counts, at the first head), built for the
 * vertex level; a replace iteration with maxRounds N makes exactly N
 * applications of the body.
 */
import type { RecordBatch } from 'apache-arrow';
import type { Operator, OperatorContext } from '../../exec/operator.js';
import { batchFromRows } from '../../exec/operators/values.js';
import { field, schemaOf, type Schema } from '../../relnode/types.js';
import { IterationStats, TableIterationState, tableIterationKey } from './state.js';

/** The criteria record's schema (one BOOLEAN column). */
export const CRITERIA_SCHEMA: Schema = schemaOf([field('go_on', 'BOOLEAN', false)]);

export interface RoundLimitSpec {
  readonly iterationId: number;
  /** True when input 0 is the until plan (else it carries only watermarks). */
  readonly hasUntil: boolean;
  /** The loop runs at most this many rounds (Infinity: no limit). */
  readonly limit: number;
  readonly stats: IterationStats;
}

export class RoundLimitOperator implements Operator {
  private ctx!: OperatorContext;
  private state!: TableIterationState;
  private readonly seen = new Map<number, number>();
  private record: RecordBatch | undefined;

  constructor(private readonly spec: RoundLimitSpec) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.state = ctx.shared(tableIterationKey(this.spec.iterationId), () => new TableIterationState(this.spec.stats));
  }

  processBatch(_input: number, batch: RecordBatch, epoch: number): void {
    if (this.spec.hasUntil) this.seen.set(epoch, (this.seen.get(epoch) ?? 0) + batch.numRows);
  }

  onEpochWatermarkIncremented(w: number): void {
    const goOn = !this.spec.hasUntil || (this.seen.get(w) ?? 0) > 0;
    for (const e of [...this.seen.keys()]) if (e <= w) this.seen.delete(e);
    // Every exit finished early (LIMITs above are satisfied): end the loop even if the body makes rows from nothing
    // (a global aggregate answers an empty round), which the gates' dropping alone would not stop.
    if (!goOn || this.state.stopRequested) return;
    if (w + 1 < this.spec.limit) this.ctx.emit((this.record ??= batchFromRows([[true]], CRITERIA_SCHEMA)), w);
    else if (this.state.limitReachedAt < 0) this.state.limitReachedAt = w + 1;
  }

  finish(): void {}
  close(): void {}
}
