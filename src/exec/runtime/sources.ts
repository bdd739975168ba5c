/**
 * Pulling sources: which source goes next, and how an asynchronous source
 * waits without blocking the loop.
 *
 * Decision: the loop prefers a source whose output can be consumed now (so a
 * hash join's build branch runs to END before its probe branch is pulled),
 * round-robin among those; a source whose `next()` returns a promise is
 * left waiting (one outstanding call per source keeps its order) and the loop
 * goes on — it awaits sources only when nothing else can run, racing the
 * abort signal so a source that never answers cannot make a job uncancellable.
 */
import { InternalError } from '../../relnode/errors.js';
import { END, type SourceEvent } from '../operator.js';
import type { Instance, SourceInst } from './instance.js';
import type { Run } from './scheduler.js';

export class SourcePuller {
  private rr = 0;
  constructor(private readonly run: Run) {}

  /**
   * Handles one source event: a ready result of an asynchronous pull, or a new
   * pull. A pull that returns a promise leaves the source waiting and the loop
   * goes on; returns false if no source could be pulled or had a result ready.
   */
  pullOne(): boolean {
    const all = this.run.sources;
    let any = false;
    for (let i = 0; i < all.length && !any; i++) any = !all[i]!.done && all[i]!.waiting === undefined;
    if (!any) return false; // the common case inside a long iteration: no allocation
    if (all.length === 1) return this.pull(all[0]!); // one source: no choice to make (most small queries)
    // Plain loops, not filter/find with closures: pullOne runs once per pulled batch, and V8 compiles it
    // late (after many runs); inlined builtins with their callbacks made its optimized code 9 KB (TPC-H Q3,
    // bench/deopt-runs.ts).
    const live: SourceInst[] = [];
    for (let i = 0; i < all.length; i++) {
      const s = all[i]!;
      if (s.done || s.waiting !== undefined) continue;
      // A source whose asynchronous result arrived goes first (its event is already paid for).
      if (s.ready !== undefined) return this.pull(s);
      live.push(s);
    }
    const memo = new Map<Instance, boolean>();
    const preferred: SourceInst[] = [];
    for (let i = 0; i < live.length; i++) if (this.canAccept(live[i]!, memo)) preferred.push(live[i]!);
    const pool = preferred.length > 0 ? preferred : live;
    return this.pull(pool[this.rr++ % pool.length]!);
  }

  /** Handles `pick`'s ready result, or pulls it (a promise leaves it waiting). */
  private pull(pick: SourceInst): boolean {
    let ev: SourceEvent | null;
    if (pick.ready !== undefined) { ev = pick.ready.ev; pick.ready = undefined; }
    else {
      const r = pick.source!.next();
      if (r instanceof Promise) {
        pick.waiting = r.then(
          (e) => { pick.ready = { ev: e }; },
          (err: unknown) => { this.sourceError = this.sourceError ?? (err instanceof Error ? err : new Error(String(err))); },
        ).finally(() => { pick.waiting = undefined; });
        return true;
      }
      ev = r;
    }
    this.handleSourceEvent(pick, ev);
    return true;
  }

  /**
   * Waits until some outstanding asynchronous source pull settles, or the run
   * is aborted (a source that never answers must not make the job
   * uncancellable); false if no pull is outstanding.
   */
  async awaitSources(): Promise<boolean> {
    const waits: Promise<unknown>[] = this.run.sources.filter((s) => s.waiting !== undefined).map((s) => s.waiting!);
    if (waits.length === 0) return false;
    const signal = this.run.options.signal;
    if (signal?.aborted) return true;
    let onAbort: (() => void) | undefined;
    if (signal !== undefined) waits.push(new Promise<void>((r) => { onAbort = () => r(); signal.addEventListener('abort', onAbort, { once: true }); }));
    try {
      await Promise.race(waits);
    } finally {
      if (onAbort !== undefined) signal!.removeEventListener('abort', onAbort);
    }
    return true;
  }

  /** A source failed asynchronously: rethrown from the loop. */
  sourceError: Error | undefined;

  private handleSourceEvent(pick: SourceInst, ev: SourceEvent | null): void {
    if (this.run.failed || pick.done) return; // stopped while awaiting
    if (ev === null) {
      pick.done = true;
      void pick.source!.close();
      this.run.sourceWatermark(pick, END);
      return;
    }
    if ('watermark' in ev) {
      const w = ev.watermark;
      if (w < END && pick.vertex.multiEpoch !== true) throw new InternalError(`source ${pick.name} sent watermark ${w} but is not declared multiEpoch`);
      this.run.sourceWatermark(pick, w);
      return;
    }
    const batch = 'epoch' in ev ? ev.batch : ev;
    const epoch = 'epoch' in ev ? ev.epoch : 0;
    if (epoch !== 0 && pick.vertex.multiEpoch !== true) throw new InternalError(`source ${pick.name} sent a batch of epoch ${epoch} but is not declared multiEpoch`);
    pick.metrics.rowsIn += batch.numRows;
    pick.metrics.batchesIn++;
    this.run.rowsRead += batch.numRows;
    this.run.sourceEmit(pick, batch, epoch);
  }

  /** True if a batch emitted by `inst` can be processed now rather than only buffered. */
  private canAccept(inst: Instance, memo: Map<Instance, boolean>): boolean {
    const m = memo.get(inst);
    if (m !== undefined) return m;
    memo.set(inst, false);
    let ok = inst.sink !== undefined;
    for (const o of inst.outputs) {
      for (const ch of o.channels) {
        if (ok) break;
        if (ch.closed) continue;
        if (ch.queue.length < 4 && ch.consumer.accepts(ch.input) && this.canAccept(ch.consumer, memo)) ok = true;
      }
    }
    memo.set(inst, ok);
    return ok;
  }

}
