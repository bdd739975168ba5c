/**
 * The exits of a table-valued iteration: what leaves the loop looks like a
 * single-epoch table to the operators above it (an aggregate over an
 * iteration's result emits once, a LIMIT stops upstream). Every exit emits
 * with epoch 0 and forwards only END (its vertex is `singleEpochOutput`).
 *
 * - `last-round` (replace mode): buffers the head's records per round and at
 *   END emits those of the terminating epoch N — the variable after the last
 *   round (as ForwardInputsOfLastRound keeps the last round).
 * - `stream` (accumulate mode): passes each round's new rows on as they come,
 *   so the result streams out while the loop runs; when every exit of the
 *   loop finished early (LIMITs above are satisfied) the loop stops.
 * - `keyed` (USING KEY): at END emits the final keyed table of its subtask.
 *
 * (The round limit is enforced by the gates, which see every round's records: gate.ts.)
 */
import type { RecordBatch } from 'apache-arrow';
import { END, type Operator, type OperatorContext } from '../../exec/operator.js';
import { coordinatorKey, type IterationCoordinator } from '../coordinator.js';
import { IterationStats, TableIterationState, tableIterationKey } from './state.js';
import type { KeyedStore } from './keyed-store.js';
import { emitAll } from './keyed-operators.js';

export type ExitKind = 'last-round' | 'stream' | 'keyed';

export interface ExitSpec {
  readonly iterationId: number;
  readonly kind: ExitKind;
  readonly stats: IterationStats;
  /** keyed: the store of this subtask. */
  readonly store?: (ctx: OperatorContext) => KeyedStore;
}

export class ExitOperator implements Operator {
  private ctx!: OperatorContext;
  private state!: TableIterationState;
  private readonly byEpoch = new Map<number, RecordBatch[]>();

  constructor(private readonly spec: ExitSpec) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.state = ctx.shared(tableIterationKey(this.spec.iterationId), () => new TableIterationState(this.spec.stats));
    this.state.liveExits++;
  }

  processBatch(_input: number, batch: RecordBatch, epoch: number): void {
    if (this.spec.kind === 'stream') { this.ctx.emit(batch, 0); return; }
    if (this.spec.kind !== 'last-round') return;
    let list = this.byEpoch.get(epoch);
    if (list === undefined) { list = []; this.byEpoch.set(epoch, list); }
    list.push(batch);
  }

  onInputWatermark(_input: number, watermark: number): void {
    // EW(w): round w did not terminate the loop, so its records are not the result.
    if (watermark < END) for (const e of [...this.byEpoch.keys()]) if (e <= watermark) this.byEpoch.delete(e);
  }

  finish(): void {
    const coordinator = this.ctx.shared<IterationCoordinator | undefined>(coordinatorKey(this.spec.iterationId), () => undefined);
    const n = coordinator?.terminationEpoch ?? -1;
    if (n < 0) {
      // Finished from above before the loop ended (a satisfied LIMIT): the loop stops once no exit wants rows.
      if (--this.state.liveExits === 0) this.state.stopRequested = true;
      return;
    }
    this.spec.stats.rounds = n;
    const out = this.spec.kind === 'last-round' ? this.byEpoch.get(n) ?? [] : this.spec.kind === 'keyed' ? this.spec.store!(this.ctx).snapshot() : [];
    this.byEpoch.clear();
    emitAll(this.ctx, out, 0);
  }

  close(): void {
    this.byEpoch.clear();
  }
}
