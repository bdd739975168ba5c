/**
 * A pool of long-lived worker threads that run tasks for one environment (docs/multi-core.md).
 *
 * Decision: workers start lazily (on the first task), stay for later queries and end with the
 * pool (env.close()). Idle workers are unref'd, so a forgotten environment never keeps a process
 * alive. A task is one request and one reply (the coordinator's one message per stage, not per
 * batch). Cancellation is prompt: the task's promise rejects at once, the worker is told to stop,
 * and a worker that does not answer within a grace period is terminated (the next task starts a
 * fresh one). The pool is generic: the upper layer names the entry module the workers run.
 * From TypeScript sources (a `.ts` entry, under tsx or vitest) each worker first registers the
 * tsx loader; from the built JavaScript it loads the entry directly.
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { CancelledError, EddyError, ExecutionError, InternalError, locatedAt, ValidationError, type SourceLocation } from '../../relnode/errors.js';

/** A reply from a worker. */
export type WorkerReply = { readonly id: number; readonly ok: true; readonly result: unknown } | { readonly id: number; readonly ok: false; readonly error: WorkerError };

/** A worker's error as it travels: class name, message and, for an ExecutionError, the operator it failed in (worker `operator`, for debugging). */
export interface WorkerError { readonly name: string; readonly message: string; readonly operator?: string; readonly location?: SourceLocation }

/** How long a cancelled worker may take to answer before it is terminated. */
const CANCEL_GRACE_MS = 200;

interface Pending {
  readonly resolve: (v: unknown) => void;
  readonly reject: (e: unknown) => void;
}

class Slot {
  readonly worker: Worker;
  readonly pending = new Map<number, Pending>();
  /** Which worker this is: a replacement (after a crash or a reaped cancel) gets a new number. */
  readonly serial: number;
  dead = false;
  /**
   * Set while a cancelled task has neither been acknowledged nor reaped: a task posted now could
   * land on a worker about to be terminated, so new tasks wait for this first (≤ the grace period).
   */
  draining: Promise<void> | undefined;
  constructor(entry: URL, serial: number, onExit: (s: Slot) => void) {
    this.serial = serial;
    this.worker = startWorker(entry);
    this.worker.unref();
    this.worker.on('message', (m: WorkerReply) => {
      const p = this.pending.get(m.id);
      if (p === undefined) return;
      this.pending.delete(m.id);
      if (this.pending.size === 0) this.worker.unref();
      if (m.ok) p.resolve(m.result); else p.reject(rebuildError(m.error));
    });
    const fail = (e: unknown): void => {
      this.dead = true;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
      onExit(this);
    };
    this.worker.on('error', (e) => fail(new ExecutionError(`a worker thread failed: ${e instanceof Error ? e.message : String(e)}`)));
    this.worker.on('exit', (code) => fail(new ExecutionError(`a worker thread exited (code ${code})`)));
  }
}

/**
 * A module each worker imports before its entry, named by the environment variable
 * EDDY_WORKER_PRELOAD (a path or URL): benchmarks install allocation counters and GC observers in
 * the worker isolates with it (bench/lib/worker-probe.ts). Unset in normal use.
 */
function preloadOf(): string | undefined {
  const p = process.env.EDDY_WORKER_PRELOAD;
  if (p === undefined || p === '') return undefined;
  return /^[a-z]+:/.test(p) ? p : pathToFileURL(p).href;
}

/** Starts a worker on `entry`, through the tsx loader when the entry is TypeScript. */
function startWorker(entry: URL): Worker {
  const pre = preloadOf();
  const ts = entry.pathname.endsWith('.ts') || (pre?.endsWith('.ts') ?? false);
  if (!ts && pre === undefined) return new Worker(entry);
  const load = `${pre === undefined ? '' : `.then(() => import(${JSON.stringify(pre)}))`}.then(() => import(${JSON.stringify(entry.href)}))`;
  if (!ts) return new Worker(`Promise.resolve()${load}.catch((e) => { console.error(e); process.exit(1); });`, { eval: true });
  // tsx's ESM API (its package exports map './esm/api' to this file for `import`).
  const pkg = createRequire(fileURLToPath(entry)).resolve('tsx/package.json');
  const api = pathToFileURL(join(dirname(pkg), 'dist', 'esm', 'api', 'index.mjs')).href;
  const code = `import(${JSON.stringify(api)}).then((m) => { m.register(); })${load}.catch((e) => { console.error(e); process.exit(1); });`;
  return new Worker(code, { eval: true });
}

/** An error from a worker as the class it had there (the messages, and where in SQL they are placed, are the same as on one thread). */
function rebuildError(e: WorkerError): Error {
  const err = rebuildClass(e);
  if (e.location !== undefined && err instanceof EddyError) locatedAt(err, e.location.line, e.location.column);
  return err;
}

function rebuildClass(e: WorkerError): Error {
  switch (e.name) {
    case 'CancelledError': return new CancelledError(e.message);
    case 'ExecutionError': return new ExecutionError(e.message, e.operator === undefined ? {} : { operator: `worker: ${e.operator}` });
    case 'ValidationError': return new ValidationError(e.message);
    case 'InternalError': return new InternalError(e.message.replace(/^internal error \(a bug in eddy[^)]*\): /, ''));
    case 'RangeError': return new RangeError(e.message);
    default: { const x = new EddyError(e.message); x.name = e.name; return x; }
  }
}

/** Long-lived workers running `entry`; `size` of them at most. */
export class WorkerPool {
  private readonly slots: (Slot | undefined)[];
  private nextId = 1;
  private nextSerial = 1;
  private closed = false;

  /**
   * `onGone` hears the serial number of each worker that ended (crashed, exited or was reaped after
   * a cancel): a caller keeping a record per worker (ship-column-cache.ts SentColumns) drops it.
   */
  constructor(readonly size: number, private readonly entry: URL, private readonly onGone?: (serial: number) => void) {
    this.slots = new Array<Slot | undefined>(size).fill(undefined);
  }

  /** Workers alive now (started and not yet ended). */
  get live(): number {
    return this.slots.filter((s) => s !== undefined && !s.dead).length;
  }

  private slot(i: number): Slot {
    if (this.closed) throw new CancelledError('the environment is closed');
    let s = this.slots[i];
    if (s === undefined || s.dead) {
      s = new Slot(this.entry, this.nextSerial++, (gone) => { if (this.slots[i] === gone) this.slots[i] = undefined; this.onGone?.(gone.serial); });
      this.slots[i] = s;
    }
    return s;
  }

  /**
   * Runs one task on worker `i`: posts `{ id, task }` (moving `transfer`) and resolves with the
   * worker's result. `signal` cancels: the promise rejects with CancelledError at once. A function
   * `task` is called just before posting with the serial number of the worker it goes to (a worker
   * that replaces a terminated one has a new number), for tasks that depend on what that worker
   * already holds.
   */
  run<T>(i: number, task: unknown, transfer: readonly ArrayBuffer[], signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(new CancelledError('query cancelled'));
    const s = this.slot(i);
    if (s.draining !== undefined) return s.draining.then(() => this.run<T>(i, task, transfer, signal));
    if (typeof task === 'function') task = (task as (serial: number) => unknown)(s.serial);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      let onAbort: (() => void) | undefined;
      const done = (): void => { if (onAbort) signal!.removeEventListener('abort', onAbort); };
      s.pending.set(id, { resolve: (v) => { done(); resolve(v as T); }, reject: (e) => { done(); reject(e); } });
      s.worker.ref();
      try {
        s.worker.postMessage({ id, task }, transfer as ArrayBuffer[]);
      } catch {
        s.worker.postMessage({ id, task }); // an untransferable buffer (a pooled Buffer): copied instead
      }
      if (signal) {
        onAbort = () => {
          const p = s.pending.get(id);
          if (p === undefined) return;
          s.pending.delete(id);
          p.reject(new CancelledError('query cancelled'));
          s.worker.postMessage({ id, cancel: true });
          this.reap(s, id);
        };
        signal.addEventListener('abort', onAbort, { once: true });
      }
    });
  }

  /**
   * Terminates `s` unless it acknowledges cancelled task `id` within the grace period. Until one or
   * the other happens, `s.draining` holds back new tasks for this slot: before, a task posted in
   * that window went to a worker that was then terminated, and failed with "a worker thread exited".
   */
  private reap(s: Slot, id: number): void {
    let settle!: () => void;
    const drained = new Promise<void>((resolve) => { settle = resolve; });
    s.draining = drained;
    let t: NodeJS.Timeout | undefined;
    const finish = (answered: boolean): void => {
      if (t !== undefined) clearTimeout(t);
      s.worker.off('message', listener);
      if (!answered && !s.dead) { s.dead = true; void s.worker.terminate(); } // dead at once: a waiting task starts a new worker
      else if (s.pending.size === 0) s.worker.unref();
      if (s.draining === drained) s.draining = undefined;
      settle();
    };
    const listener = (m: WorkerReply): void => { if (m.id === id) finish(true); };
    s.worker.on('message', listener);
    t = setTimeout(() => finish(false), CANCEL_GRACE_MS);
    t.unref();
  }

  /** Terminates every worker; later tasks fail. */
  async close(): Promise<void> {
    this.closed = true;
    const all = this.slots.filter((s): s is Slot => s !== undefined);
    this.slots.fill(undefined);
    await Promise.all(all.map((s) => s.worker.terminate()));
  }
}
