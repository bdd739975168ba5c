/**
 * Snapshots of a run: a consistent cut taken between two scheduler steps.
 *
 * Decision (DESIGN.md "What the runtime grows for iteration", issue #8): one
 * cooperative scheduler runs every subtask, so between two steps nothing is
 * in flight except what sits in channel queues — no barriers are needed. A
 * cut is taken only when the run is quiescent: no operator has pending work
 * (deferred steps and continuations are closures and cannot be captured),
 * no watermark re-evaluation is owed, and nothing is being delivered. It
 * holds every operator's state (`snapshotState`), the runtime's bookkeeping
 * per instance (watermarks seen and forwarded, last epoch, ended inputs — so
 * callbacks already made are not made again after a restore), every
 * channel's queue (batches are immutable and captured by reference; feedback
 * records in flight included) and watermark, every source's position and any
 * event it produced that the run has not handled yet, and the state of
 * shared objects (an iteration's coordinator). Restoring builds a fresh run
 * of the same graph and applies the cut before the first step.
 */
import { InternalError, ValidationError } from '../../relnode/errors.js';
import type { SourceEvent } from '../operator.js';
import type { Channel, Event } from './channel.js';
import type { OpInstance, SourceInst } from './instance.js';

/** The runtime's bookkeeping and the operator state of one operator subtask. */
export interface OperatorSnapshot {
  readonly state: unknown;
  readonly watermark: number;
  readonly inputWatermarks: readonly number[];
  readonly inputEnded: readonly boolean[];
  readonly announced: number;
  readonly forwarded: number;
  readonly maxEpochIn: number;
  readonly finished: boolean;
}

/** One source subtask: its position, whether it ended, and an event it produced that was not handled. */
export interface SourceSnapshot {
  readonly state: unknown;
  readonly done: boolean;
  readonly forwarded: number;
  readonly ready?: { readonly ev: SourceEvent | null };
}

/** One channel: queued events (in order), the last watermark its consumer saw, closed by a LIMIT. */
export interface ChannelSnapshot {
  readonly events: readonly Event[];
  readonly wm: number;
  readonly closed: boolean;
}

/** A consistent cut of a run (see the header); instances and channels in the run's fixed order. */
export interface RunSnapshot {
  readonly operators: readonly OperatorSnapshot[];
  readonly sources: readonly SourceSnapshot[];
  readonly channels: readonly ChannelSnapshot[];
  readonly shared: readonly (readonly [string, unknown])[];
  readonly rowsRead: number;
}

/** An object that takes part in checkpoints. */
interface Snapshottable {
  snapshotState(): unknown;
  restoreState(state: unknown): void;
}

export function isSnapshottable(x: unknown): x is Snapshottable {
  return typeof x === 'object' && x !== null && typeof (x as Snapshottable).snapshotState === 'function' && typeof (x as Snapshottable).restoreState === 'function';
}

/** What the snapshot code reads from and writes to a run. */
export interface SnapshotTarget {
  readonly ops: readonly OpInstance[];
  readonly sources: readonly SourceInst[];
  readonly sharedObjects: Map<string, unknown>;
  rowsRead: number;
  /** Every channel, in a fixed order (consumer instance, input, producer). */
  channels(): readonly Channel[];
  /** Marks a channel as holding queued events. */
  markPending(ch: Channel): void;
}

/** Takes the cut (the caller checked that the run is quiescent). */
export function takeSnapshot(run: SnapshotTarget): RunSnapshot {
  const operators = run.ops.map((o): OperatorSnapshot => {
    if (o.op.snapshotState === undefined) throw new ValidationError(`checkpointing is on, but operator ${o.name} cannot be checkpointed: it has no snapshotState`);
    return {
      state: o.op.snapshotState(),
      watermark: o.watermark,
      inputWatermarks: [...o.inputWatermarks],
      inputEnded: [...o.inputEnded],
      announced: o.announced,
      forwarded: o.forwarded,
      maxEpochIn: o.maxEpochIn,
      finished: o.finished,
    };
  });
  const sources = run.sources.map((s): SourceSnapshot => {
    if (!s.done && s.source?.snapshot === undefined) throw new ValidationError(`checkpointing is on, but source ${s.name} cannot be checkpointed (it cannot resume from a position); turn checkpointing off for this job`);
    return {
      state: s.done ? undefined : s.source!.snapshot!(),
      done: s.done,
      forwarded: s.forwarded,
      ...(s.ready !== undefined ? { ready: s.ready } : {}),
    };
  });
  const channels = run.channels().map((ch): ChannelSnapshot => ({ events: ch.queue.toArray(), wm: ch.wm, closed: ch.closed }));
  const shared: (readonly [string, unknown])[] = [];
  for (const [k, v] of run.sharedObjects) if (isSnapshottable(v)) shared.push([k, v.snapshotState()]);
  return { operators, sources, channels, shared, rowsRead: run.rowsRead };
}

/** Applies a cut to a freshly built run of the same graph: before sources open (their factories get `restored`). */
export function restoreBookkeeping(run: SnapshotTarget, snap: RunSnapshot): void {
  if (snap.operators.length !== run.ops.length || snap.sources.length !== run.sources.length) throw new InternalError('a checkpoint of a different job graph');
  const chans = run.channels();
  if (snap.channels.length !== chans.length) throw new InternalError('a checkpoint of a different job graph');
  run.ops.forEach((o, i) => {
    const s = snap.operators[i]!;
    o.watermark = s.watermark;
    s.inputWatermarks.forEach((w, k) => { o.inputWatermarks[k] = w; });
    s.inputEnded.forEach((e, k) => { o.inputEnded[k] = e; });
    o.announced = s.announced;
    o.forwarded = s.forwarded;
    o.maxEpochIn = s.maxEpochIn;
    o.finished = s.finished;
  });
  run.sources.forEach((src, i) => {
    const s = snap.sources[i]!;
    src.done = s.done;
    src.forwarded = s.forwarded;
    if (s.ready !== undefined) src.ready = s.ready;
  });
  chans.forEach((ch, i) => {
    const s = snap.channels[i]!;
    ch.wm = s.wm;
    ch.closed = s.closed;
    for (const e of s.events) ch.queue.push(e);
    if (s.events.length > 0) run.markPending(ch);
  });
  run.rowsRead = snap.rowsRead;
}

/** Restores one operator's state (after its `open`). */
export function restoreOperator(o: OpInstance, state: unknown): void {
  if (o.op.restoreState === undefined) {
    if (state !== undefined) throw new InternalError(`operator ${o.name} has checkpointed state but no restoreState`);
    return;
  }
  o.op.restoreState(state);
}
