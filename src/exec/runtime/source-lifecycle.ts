/**
 * Creating and closing a run's source instances (the operators' open and
 * close are plain calls in scheduler.ts).
 *
 * Why a file of its own: a source factory may be asynchronous (a file source
 * opening its file), and a small query must not await anything it does not
 * need — so sources are created in order, synchronously while the factories
 * are, and only the first asynchronous factory makes the rest wait for it.
 * Closing is the other end of the same contract: every source is closed once,
 * after a failure too, and feedback queues release their spill files then.
 */
import type { RunOptions } from './run-options.js';
import type { OpInstance, SourceInst } from './instance.js';

/** What opening and closing sources needs of the run. */
export interface SourceHost {
  readonly sources: readonly SourceInst[];
  readonly ops: readonly OpInstance[];
  readonly options: RunOptions;
  shared<T>(key: string, create: () => T): T;
}

/** Creates the source instances from index `from` on, in order; the first asynchronous factory makes the rest wait for it. */
export function openSources(run: SourceHost, from: number): Promise<void> | undefined {
  const restore = run.options.restore;
  const ctrl = run.options.signal;
  for (let i = from; i < run.sources.length; i++) {
    const s = run.sources[i]!;
    if (s.done) continue; // ended before the checkpoint
    const restored = restore?.sources[i]!.state;
    const r = s.vertex.factory({
      ...(restore !== undefined ? { restored } : {}),
      name: s.name,
      subtaskIndex: s.subtask,
      parallelism: s.vertex.parallelism,
      batchSize: run.options.batchSize,
      signal: ctrl ?? new AbortController().signal,
      shared: (key, create) => run.shared(key, create),
    });
    if (r instanceof Promise) return r.then((source) => { s.source = source; return openSources(run, i + 1); });
    s.source = r;
  }
  return undefined;
}

/** Stops a source nobody reads any more (idempotent). */
export function stopSource(s: SourceInst): void {
  if (s.done) return;
  s.done = true;
  void s.source?.close();
}

/** Closes every operator and source of the run once; the first error (already thrown) wins, later ones are ignored. */
export function closeRun(run: SourceHost): void {
  // Feedback queues may hold spilled batches: release them (their files go now, not at exit).
  for (const o of run.ops) for (const chs of o.inputChannels) for (const ch of chs) if (ch.feedback) { try { ch.queue.clear(); } catch { /* first error wins */ } }
  for (const o of run.ops) {
    if (o.closed) continue;
    o.closed = true;
    try { o.op.close(); } catch { /* closing after a failure: the first error wins */ }
  }
  for (const s of run.sources) {
    s.done = true;
    try { void s.source?.close(); } catch { /* ignore */ }
  }
}
