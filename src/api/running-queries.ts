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
    const controller = signal === undefined ? undefined : new AbortController();
    const onAbort = (): void => controller?.abort(signal?.reason);
    if (signal?.aborted) controller!.abort(signal.reason);
    else signal?.addEventListener('abort', onAbort, { once: true });
    let finish!: () => void;
    const t: Tracked = { controller, suspended: false, ended: new Promise<void>((r) => { finish = r; }) };
    this.live.add(t);
    const byClose = (): boolean => this.closed && signal?.aborted !== true;
    return {
      signal: controller?.signal ?? this.closing.signal,
      suspend: (s) => { t.suspended = s; },
      check: () => { if (byClose()) throw new CancelledError(CLOSED_MESSAGE); },
      explain: (e) => (e instanceof CancelledError && byClose() ? new CancelledError(CLOSED_MESSAGE, { cause: e }) : e),
      end: () => {
        signal?.removeEventListener('abort', onAbort);
        this.live.delete(t);
        finish();
      },
    };
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
