/**
 * The gate after each head of a table-valued iteration: what FeedbackRef
 * (view `current`) lowers to. It passes the head's records on, counts them
 * per round into the iteration's shared state (the round limit's error check
 * needs the terminating round's count), and drops what the body need not see:
 * rounds at or past the round limit (the terminating round's records reach
 * the body in FLIP-176, where they would be one wasted application of the
 * body) and everything once the exit asked the loop to stop.
 *
 * Decision: a plain operator with runtime-managed watermarks between the head
 * and the body, so heads and coordinator stay those of the stream library.
 */
import type { RecordBatch } from 'apache-arrow';
import type { Operator, OperatorContext } from '../../exec/operator.js';
import { IterationLimitError } from '../../relnode/errors.js';
import { coordinatorKey, type IterationCoordinator } from '../coordinator.js';
import { IterationStats, TableIterationState, tableIterationKey } from './state.js';

export interface GateSpec {
  readonly iterationId: number;
  /** Records of epochs ≥ this are not passed to the body (Infinity: none dropped). */
  readonly dropFrom: number;
  /** The first variable's gate times the rounds (EXPLAIN ANALYZE). */
  readonly timesRounds: boolean;
  readonly stats: IterationStats;
  /** The error when the round limit stopped the loop without a fixpoint (undefined: return the state reached). */
  readonly failure?: (rounds: number) => string;
}

export class GateOperator implements Operator {
  private ctx!: OperatorContext;
  private state!: TableIterationState;

  constructor(private readonly spec: GateSpec) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.state = ctx.shared(tableIterationKey(this.spec.iterationId), () => new TableIterationState(this.spec.stats));
    this.state.liveGates++;
  }

  processBatch(_input: number, batch: RecordBatch, epoch: number): void {
    this.state.count(epoch, batch.numRows);
    if (this.state.stopRequested || epoch >= this.spec.dropFrom) return;
    this.ctx.emit(batch, epoch);
  }

  onEpochWatermarkIncremented(epoch: number): void {
    if (this.spec.timesRounds && this.ctx.subtaskIndex === 0) this.state.roundEnded(epoch);
  }

  /**
   * The last gate to end enforces the round limit: every gate has then counted every record of
   * the terminating round N (END follows them on each gate's channel). When the limit stopped
   * the loop and round N still had records (no fixpoint), the query fails.
   */
  finish(): void {
    if (--this.state.liveGates > 0 || this.spec.failure === undefined) return;
    const coordinator = this.ctx.shared<IterationCoordinator | undefined>(coordinatorKey(this.spec.iterationId), () => undefined);
    const n = coordinator?.terminationEpoch ?? -1;
    if (n >= 0 && this.state.limitReachedAt === n && this.state.recordsAt(n) > 0) throw new IterationLimitError(this.spec.failure(n));
  }

  close(): void {}
}
