/**
 * The head of one variable stream: merges the initial variable records
 * (epoch 0) with the feedback records (already epoch + 1, from the tail),
 * counts feedback records per epoch and reports each finished round to the
 * coordinator, and releases epoch watermarks only when the coordinator says
 * so (ITERATION-SEMANTICS.md "Rounds and alignment").
 *
 * Decision: a `manualWatermarks` runtime operator whose input 0 is the
 * initial variable, then the feedback from the tail, and, on the first head,
 * the termination criteria stream (feedback edges, connected once the body
 * returned them). Counting the criteria records here keeps the criteria
 * stream inside the job (it needs no consumer of its own) and costs no extra
 * vertex. A head's side output 1 carries no records, only its watermarks:
 * the replayer reads the first head's to gate each replayed round on it, and
 * with several variable streams the heads read each other's ("links", whose
 * events a head ignores), so a job that runs one head runs them all — the
 * coordinator waits for every head.
 * Feedback records arriving after the head emitted END (those produced from
 * the terminating round's records) are dropped. A criteria stream that ends
 * (one made only from data that is not replayed) reports 0 criteria records
 * for every later round, so the iteration stops the round after its last
 * record instead of waiting for reports that never come; a criteria
 * watermark that jumps reports every epoch it passed.
 */
import type { RecordBatch } from 'apache-arrow';
import { END, type Operator, type OperatorContext } from '../exec/operator.js';
import { IterationCoordinator, coordinatorKey } from './coordinator.js';

/** The initial variable input of a head (always input 0). */
export const HEAD_INITIAL = 0;

/** What a head needs to find (or make) its run's coordinator. */
export interface HeadSpec {
  readonly iterationId: number;
  /** Sizes read when the run starts (parallelism may change until then). */
  readonly variableSubtasks: () => number;
  readonly criteriaSubtasks: () => number;
  /** Which input is the feedback from the tail. */
  readonly feedbackInput: number;
  /** Which input is the termination criteria (−1 = none); read when the run starts. */
  readonly criteriaInput: () => number;
}

export class HeadOperator implements Operator {
  private ctx!: OperatorContext;
  private coordinator!: IterationCoordinator;
  /** Feedback records per epoch, not yet reported. */
  private readonly feedbackCounts = new Map<number, number>();
  private readonly criteriaCounts = new Map<number, number>();
  private terminated = false;
  private feedbackInput = 1;
  private criteriaInput = -1;
  /** The last epoch whose criteria count this subtask reported (epoch e is decided by round e − 1's count). */
  private criteriaReported = 0;
  /** The criteria stream ended (its watermark is END): it makes no records in any later round. */
  private criteriaEnded = false;
  /** The last epoch the coordinator released here (−1 = none). */
  private released = -1;

  constructor(private readonly spec: HeadSpec) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    const s = this.spec;
    this.feedbackInput = s.feedbackInput;
    this.criteriaInput = s.criteriaInput();
    this.coordinator = ctx.shared(coordinatorKey(s.iterationId), () => new IterationCoordinator(s.variableSubtasks(), s.criteriaSubtasks()));
    this.coordinator.register({
      post: (task) => ctx.post(task),
      release: (epoch, terminated) => {
        if (this.terminated) return;
        if (terminated) this.terminated = true;
        else this.released = epoch;
        ctx.emitWatermark(epoch);
        // An ended criteria stream counts 0 for the next round too (the next decision waits for it).
        if (!terminated && this.criteriaEnded) this.reportCriteriaUpTo(epoch + 1);
      },
    });
  }

  processBatch(input: number, batch: RecordBatch, epoch: number): void {
    if (input === this.criteriaInput) { this.criteriaCounts.set(epoch, (this.criteriaCounts.get(epoch) ?? 0) + batch.numRows); return; }
    if (input === this.feedbackInput) {
      if (this.terminated || epoch >= END) return; // feedback of the terminating round: dropped
      this.feedbackCounts.set(epoch, (this.feedbackCounts.get(epoch) ?? 0) + batch.numRows);
    }
    this.ctx.emit(batch, epoch);
  }

  onInputWatermark(input: number, watermark: number): void {
    if (input === HEAD_INITIAL) {
      if (watermark >= END) this.coordinator.reportVariable(0, 0);
    } else if (input === this.feedbackInput) {
      if (watermark < END && !this.terminated) {
        const n = this.feedbackCounts.get(watermark) ?? 0;
        this.feedbackCounts.delete(watermark);
        this.coordinator.reportVariable(watermark, n);
      }
    } else if (input === this.criteriaInput) {
      if (watermark < END) this.reportCriteriaUpTo(watermark + 1); // the criteria stream finished round w: its count decides epoch w + 1
      else if (!this.terminated) {
        // The criteria stream ended (e.g. made only from data that is not replayed): every later round has no criteria record.
        this.criteriaEnded = true;
        this.reportCriteriaUpTo(this.released + 1);
      }
    }
  }

  /** Reports the criteria counts of epochs (criteriaReported, upTo] — each from the round before it — in order. */
  private reportCriteriaUpTo(upTo: number): void {
    while (this.criteriaReported < upTo) {
      const e = ++this.criteriaReported;
      const n = this.criteriaCounts.get(e - 1) ?? 0;
      this.criteriaCounts.delete(e - 1);
      this.coordinator.reportCriteria(e, n);
    }
  }

  finish(): void {}
  close(): void {}

  snapshotState(): unknown {
    return { feedbackCounts: [...this.feedbackCounts], criteriaCounts: [...this.criteriaCounts], terminated: this.terminated, criteriaReported: this.criteriaReported, criteriaEnded: this.criteriaEnded, released: this.released };
  }

  restoreState(state: unknown): void {
    const s = state as { feedbackCounts: [number, number][]; criteriaCounts: [number, number][]; terminated: boolean; criteriaReported: number; criteriaEnded: boolean; released: number };
    this.feedbackCounts.clear();
    for (const [e, n] of s.feedbackCounts) this.feedbackCounts.set(e, n);
    this.criteriaCounts.clear();
    for (const [e, n] of s.criteriaCounts) this.criteriaCounts.set(e, n);
    this.terminated = s.terminated;
    this.criteriaReported = s.criteriaReported;
    this.criteriaEnded = s.criteriaEnded;
    this.released = s.released;
  }
}
