/**
 * The run state one table-valued iteration shares between its operators
 * (the gates after the heads, the round limit, the exit): records per round,
 * the round limit's verdict, a stop request from the exit, round times.
 *
 * Decision: a plain per-run object (`ctx.shared` under the iteration's id,
 * like the coordinator), so a restarted run starts clean and no operator
 * needs an extra edge to tell another something that carries no rows. The
 * plan-level `IterationStats` outlives the run: EXPLAIN ANALYZE reads it.
 */
import { noteIterationRound } from './progress.js';

/** What EXPLAIN ANALYZE reports of one iteration run. */
export class IterationStats {
  /** Rounds the body ran (the terminating epoch), −1 while running. */
  rounds = -1;
  /** Milliseconds from the start of each round to the next (round 0 first). */
  readonly roundMs: number[] = [];

  reset(): void {
    this.rounds = -1;
    this.roundMs.length = 0;
  }

  /** `rounds=N round_ms=[…]`, the first and last few rounds when there are many. */
  describe(): string {
    const r = this.rounds >= 0 ? this.rounds : this.roundMs.length;
    const ms = this.roundMs.map((x) => x.toFixed(1));
    const shown = ms.length <= 8 ? ms.join(', ') : `${ms.slice(0, 4).join(', ')}, …, ${ms.slice(-3).join(', ')}`;
    const total = this.roundMs.reduce((a, b) => a + b, 0);
    return `rounds=${r}${ms.length > 0 ? ` round_ms=[${shown}] avg_round=${(total / ms.length).toFixed(2)}ms` : ''}`;
  }
}

/** Told the exit vertex of an iteration and the statistics its runs fill (EXPLAIN ANALYZE annotates that vertex). */
export type IterationStatsSink = (exitVertex: number, stats: IterationStats) => void;

export class TableIterationState {
  /** No exit needs more rows (satisfied LIMITs above them): the gates drop everything, so the loop ends. */
  stopRequested = false;
  /** Exit subtasks that still want rows (a loop shared by several results has several exits). */
  liveExits = 0;
  /** Gate subtasks not ended yet: the last one to end checks the round limit. */
  liveGates = 0;
  /** Records the heads released per epoch (over every variable): epoch N's count says whether N is a fixpoint. */
  private readonly records = new Map<number, number>();
  /** The round limit withheld its record for this epoch although the loop would have gone on (−1 = never). */
  limitReachedAt = -1;
  private roundStart = performance.now();
  /** Rounds whose end the first gate saw. */
  private roundsEnded = 0;

  constructor(readonly stats: IterationStats) {
    stats.reset();
  }

  count(epoch: number, rows: number): void {
    this.records.set(epoch, (this.records.get(epoch) ?? 0) + rows);
  }

  recordsAt(epoch: number): number {
    return this.records.get(epoch) ?? 0;
  }

  /** Round `epoch` ended (the first gate's watermark passed it). */
  roundEnded(epoch: number): void {
    if (epoch < this.roundsEnded) return;
    const now = performance.now();
    this.stats.roundMs.push(now - this.roundStart);
    this.roundStart = now;
    this.roundsEnded = epoch + 1;
    noteIterationRound(epoch, this.records.get(epoch) ?? 0);
    for (const e of [...this.records.keys()]) if (e < epoch) this.records.delete(e);
  }
}

/** The shared-object key of an iteration's state. */
export function tableIterationKey(iterationId: number): string {
  return `eddy.table-iteration.${iterationId}.state`;
}
