/**
 * The head of one variable stream: merges the initial variable records
 * (epoch 0) with the feedback records (already epoch + 1, from the tail),
 * counts feedback records per epoch and reports each finished round to the
 * coordinator, and releases epoch watermarks only when the coordinator says
 * so (ITERATION-SEMANTICS.md "Rounds and alignment").
 *
 * Decision: a `manualWatermarks` runtime operator with inputs
 * [0: initial variable, 1: feedback from the tail, 2: the termination
 * criteria stream (first head only, when there is a criteria)]. Counting the
 * criteria records here, on a feedback edge, keeps the criteria stream inside
 * the job (it needs no consumer of its own) and costs no extra vertex. The
 * head's side output 1 carries no records, only its watermarks: the replayer
 * reads it to gate each replayed round on the first head's watermark.
 * Feedback records arriving after the head emitted END (those produced from
 * the terminating round's records) are dropped.
 */
import type { RecordBatch } from 'apache-arrow';
import { END, type Operator, type OperatorContext } from '../exec/operator.js';
import { IterationCoordinator, coordinatorKey } from './coordinator.js';

/** Inputs of a head operator. */
export const HEAD_INITIAL = 0;
export const HEAD_FEEDBACK = 1;
export const HEAD_CRITERIA = 2;

/** What a head needs to find (or make) its run's coordinator. */
export interface HeadSpec {
  readonly iterationId: number;
  /** Sizes read when the run starts (parallelism may change until then). */
  readonly variableSubtasks: () => number;
  readonly criteriaSubtasks: () => number;
}

export class HeadOperator implements Operator {
  private ctx!: OperatorContext;
  private coordinator!: IterationCoordinator;
  /** Feedback records per epoch, not yet reported. */
  private readonly feedbackCounts = new Map<number, number>();
  private readonly criteriaCounts = new Map<number, number>();
  private terminated = false;

  constructor(private readonly spec: HeadSpec) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    const s = this.spec;
    this.coordinator = ctx.shared(coordinatorKey(s.iterationId), () => new IterationCoordinator(s.variableSubtasks(), s.criteriaSubtasks()));
    this.coordinator.register({
      post: (task) => ctx.post(task),
      release: (epoch, terminated) => {
        if (this.terminated) return;
        if (terminated) this.terminated = true;
        ctx.emitWatermark(epoch);
      },
    });
  }

  processBatch(input: number, batch: RecordBatch, epoch: number): void {
    if (input === HEAD_CRITERIA) { this.criteriaCounts.set(epoch, (this.criteriaCounts.get(epoch) ?? 0) + batch.numRows); return; }
    if (input === HEAD_FEEDBACK) {
      if (this.terminated || epoch >= END) return; // feedback of the terminating round: dropped
      this.feedbackCounts.set(epoch, (this.feedbackCounts.get(epoch) ?? 0) + batch.numRows);
    }
    this.ctx.emit(batch, epoch);
  }

  onInputWatermark(input: number, watermark: number): void {
    if (input === HEAD_INITIAL) {
      if (watermark >= END) this.coordinator.reportVariable(0, 0);
    } else if (input === HEAD_FEEDBACK) {
      if (watermark < END && !this.terminated) {
        const n = this.feedbackCounts.get(watermark) ?? 0;
        this.feedbackCounts.delete(watermark);
        this.coordinator.reportVariable(watermark, n);
      }
    } else if (watermark < END) {
      // The criteria stream finished round w: its count decides epoch w + 1.
      const n = this.criteriaCounts.get(watermark) ?? 0;
      this.criteriaCounts.delete(watermark);
      this.coordinator.reportCriteria(watermark + 1, n);
    }
  }

  finish(): void {}
  close(): void {}

  snapshotState(): unknown {
    return { feedbackCounts: [...this.feedbackCounts], criteriaCounts: [...this.criteriaCounts], terminated: this.terminated };
  }
}
