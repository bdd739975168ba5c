/**
 * The coordinator of one iteration run: global epoch alignment and the
 * termination rule (ITERATION-SEMANTICS.md "Rounds and alignment").
 *
 * Decision: a plain object shared by every head subtask of one run
 * (`ctx.shared` under the iteration's id, so a restarted run gets a fresh
 * one). Heads report synchronously from their callbacks; when the last
 * report of an epoch arrives the coordinator posts the decision to every
 * head's mailbox (`ctx.post`), so no head runs re-entrantly inside another's
 * callback and decisions reach heads in epoch order.
 */
import { END } from '../exec/operator.js';

/** What a head subtask gives the coordinator: how to deliver a decision to it. */
export interface HeadHandle {
  /** Emits EW(epoch), or END when the iteration terminated; called from the head's mailbox. */
  release(epoch: number, terminated: boolean): void;
  post(task: () => void): void;
}

/** Per-epoch reports collected so far. */
interface EpochReports {
  variables: number;
  criteria: number;
  records: number;
  criteriaRecords: number;
}

export class IterationCoordinator {
  private readonly heads: HeadHandle[] = [];
  private readonly reports = new Map<number, EpochReports>();
  /**
   * Part of checkpoints (a shared object with snapshotState/restoreState):
   * reports of epochs not decided yet, the last decided epoch and the
   * termination epoch. Decisions already posted ran before any checkpoint
   * (a cut is taken only when no posted task is pending).
   */
  snapshotState(): CoordinatorState {
    return { reports: [...this.reports].map(([e, r]) => [e, { ...r }]), decided: this.decided, terminatedAt: this.terminatedAt };
  }

  restoreState(state: unknown): void {
    const s = state as CoordinatorState;
    this.reports.clear();
    for (const [e, r] of s.reports) this.reports.set(e, { ...r });
    this.decided = s.decided;
    this.terminatedAt = s.terminatedAt;
  }
  /** The last epoch decided (−1 = none). */
  private decided = -1;
  private terminatedAt = -1;

  /**
   * @param variableSubtasks total subtasks of all variable heads
   * @param criteriaSubtasks subtasks reporting termination-criteria counts (0 = no criteria)
   */
  constructor(readonly variableSubtasks: number, readonly criteriaSubtasks: number) {}

  register(head: HeadHandle): void {
    this.heads.push(head);
  }

  /** The epoch at which the iteration terminated, or −1. */
  get terminationEpoch(): number {
    return this.terminatedAt;
  }

  /** A variable head subtask finished round `epoch`: it received `records` feedback records of that epoch (0 for round 0). */
  reportVariable(epoch: number, records: number): void {
    const r = this.at(epoch);
    r.variables++;
    r.records += records;
    this.tryDecide();
  }

  /** A criteria-counting subtask saw the criteria stream's watermark reach `epoch − 1`, with `records` criteria records of round epoch − 1. */
  reportCriteria(epoch: number, records: number): void {
    const r = this.at(epoch);
    r.criteria++;
    r.criteriaRecords += records;
    this.tryDecide();
  }

  private at(epoch: number): EpochReports {
    let r = this.reports.get(epoch);
    if (r === undefined) { r = { variables: 0, criteria: 0, records: 0, criteriaRecords: 0 }; this.reports.set(epoch, r); }
    return r;
  }

  /** Decides every epoch whose reports are complete, in order. */
  private tryDecide(): void {
    for (;;) {
      if (this.terminatedAt >= 0) return;
      const e = this.decided + 1;
      const r = this.reports.get(e);
      if (r === undefined || r.variables < this.variableSubtasks) return;
      if (e > 0 && r.criteria < this.criteriaSubtasks) return;
      this.reports.delete(e);
      this.decided = e;
      const terminated = e > 0 && (r.records === 0 || (this.criteriaSubtasks > 0 && r.criteriaRecords === 0));
      if (terminated) this.terminatedAt = e;
      for (const h of this.heads) h.post(() => h.release(terminated ? END : e, terminated));
    }
  }
}

/** What a checkpoint holds of a coordinator (its heads re-register when they open). */
interface CoordinatorState {
  readonly reports: [number, EpochReports][];
  readonly decided: number;
  readonly terminatedAt: number;
}

/** The shared-object key of an iteration's coordinator. */
export function coordinatorKey(iterationId: number): string {
  return `eddy.iteration.${iterationId}.coordinator`;
}
