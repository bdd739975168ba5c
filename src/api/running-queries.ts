/**
 * The queries an environment is running, so that `env.close()` can cancel
 * them and wait for them before it releases their storage (an entry being
 * written, spill files being read).
 *
 * Each query runs under its own AbortSignal, aborted by the caller's signal
 * or by close. A query that ends because of close fails with a
 * CancelledError that says so. A streamed query whose consumer is not
 * pulling (suspended between batches) cannot be driven to its end from
 * outside; close does not wait for it, and its next pull fails the same way.
 * After close, starting a query fails at once.
 *
 * A query without a caller's signal runs under the environment's one close
 * signal instead of an AbortController of its own (creating one per query was
 * ~4% of a 10-row query's time); only a caller's signal needs a controller
 * that either can abort.
 */
import { setMaxListeners } from 'node:events';
import { CancelledError, EddyError } from '../relnode/errors.js';

/** One running query. */
export interface RunningQuery {
  /** Aborted when the caller's signal aborts or the environment closes. */
  readonly signal: AbortSignal;
  /** Marks the query as waiting for its consumer (a stream between batches), or running again. */
  suspend(suspended: boolean): void;
  /** Throws the close error when the environment closed (call after resuming). */
  check(): void;
  /** The error to throw for `e`: a cancellation caused by close says so. */
  explain(e: unknown): unknown;
  /** The query ended (call once, in a finally). */
  end(): void;
}

const CLOSED_MESSAGE = 'query cancelled: the TableEnvironment was closed while it ran';

interface Tracked {
  /** The query's own controller (a caller's signal given), else undefined: it runs under the close signal. */
  readonly controller: AbortController | undefined;
  suspended: boolean;
  readonly ended: Promise<void>;
}

/**
 * One query's registration: a class rather than an object of closures (a 10-row query's run
 * created half a dozen closures here; methods on a prototype cost nothing per query).
 */
class Query implements RunningQuery, Tracked {
  readonly controller: AbortController | undefined;
  readonly signal: AbortSignal;
  suspended = false;
  private finish: (() => void) | undefined;
  private endedPromise: Promise<void> | undefined;
  private done = false;
  private readonly onAbort: (() => void) | undefined;

  constructor(private readonly owner: RunningQueries, private readonly callerSignal: AbortSignal | undefined) {
    if (callerSignal === undefined) {
      this.controller = undefined;
      this.signal = owner.closeSignal;
      return;
    }
    const controller = (this.controller = new AbortController());
    this.signal = controller.signal;
    if (callerSignal.aborted) controller.abort(callerSignal.reason);
    else callerSignal.addEventListener('abort', (this.onAbort = () => controller.abort(callerSignal.reason)), { once: true });
  }

  /** Settles when the query ended (made only when close waits for it). */
  get ended(): Promise<void> {
    if (this.done) return Promise.resolve();
    return (this.endedPromise ??= new Promise<void>((r) => { this.finish = r; }));
  }

  suspend(s: boolean): void {
    this.suspended = s;
  }

  check(): void {
    if (this.owner.closedUnder(this.callerSignal)) throw new CancelledError(CLOSED_MESSAGE);
  }

  explain(e: unknown): unknown {
    return e instanceof CancelledError && this.owner.closedUnder(this.callerSignal) ? new CancelledError(CLOSED_MESSAGE, { cause: e }) : e;
  }

  end(): void {
    if (this.onAbort !== undefined) this.callerSignal?.removeEventListener('abort', this.onAbort);
    this.owner.forget(this);
    this.done = true;
    this.finish?.();
  }
}

/** The running queries of one environment. */
export class RunningQueries {
  private readonly live = new Set<Tracked>();
  private closed = false;
  /** Aborted by close: the signal of every query started without one of its own. */
  private readonly closing = new AbortController();

  constructor() {
    setMaxListeners(0, this.closing.signal); // shared by all concurrent queries, each removes its listeners
  }

  /** Queries running now. */
  get size(): number {
    return this.live.size;
  }

  /** Registers a query (throws when the environment is closed). */
  begin(signal: AbortSignal | undefined): RunningQuery {
    if (this.closed) throw new EddyError('this TableEnvironment is closed; create a new one');
    const q = new Query(this, signal);
    this.live.add(q);
    return q;
  }

  /** @internal True when the environment closed and `signal` (the caller's) did not abort. */
  closedUnder(signal: AbortSignal | undefined): boolean {
    return this.closed && signal?.aborted !== true;
  }

  /** @internal The signal of queries started without one of their own. */
  get closeSignal(): AbortSignal {
    return this.closing.signal;
  }

  /** @internal A query ended. */
  forget(q: Tracked): void {
    this.live.delete(q);
  }

  /** Refuses new queries, cancels the running ones and settles when those not suspended have ended. */
  async close(): Promise<void> {
    this.closed = true;
    const waits: Promise<void>[] = [];
    this.closing.abort(new CancelledError(CLOSED_MESSAGE));
    for (const t of this.live) {
      t.controller?.abort(new CancelledError(CLOSED_MESSAGE));
      if (!t.suspended) waits.push(t.ended);
    }
    await Promise.all(waits);
  }
}
