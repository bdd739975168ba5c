/**
 * The options of one run and how a failing operator callback ends it: split
 * from scheduler.ts (which re-exports both) to keep that file about delivery.
 */
import { CancelledError, EddyError, ExecutionError, InternalError, IterationLimitError, locate, locatedAt } from '../../relnode/errors.js';
import type { FeedbackOptions } from './feedback-queue.js';
import type { RunSnapshot } from './snapshot.js';

/** The error a failing operator callback ends the job with (a JobFailure unwinds the delivery stack). */
export function wrapFailure(inst: { readonly name: string; readonly vertex?: { readonly namedByUser?: boolean } }, what: string, e: unknown): JobFailure {
  if (e instanceof JobFailure) return e;
  const err = e instanceof Error ? e : new Error(String(e));
  // A cancellation and an iteration's round limit are answers to the caller, not failures of one operator: passed on as they are.
  if (err instanceof CancelledError || err instanceof IterationLimitError) return new JobFailure(err);
  // eddy's own errors about the data or the query (a failed CAST, an overflow, the memory limit) say what
  // went wrong and where in the user's query — the SQL position of the failing expression, with a caret,
  // when it has one (kernels/compile.ts sets `at`) — as parse and bind errors do. The operator instance
  // and callback mean nothing to a SQL or Table API user: they stay on the error as `operator` (and the
  // original error as `cause`) for debugging, not in the message — unless the user built and named the
  // operator (the DataStream API: `Map#1[0]` is theirs; job.ts namedByUser). Anything else (an exception
  // in user code, an internal error) is about the operator, which leads.
  const operator = err instanceof ExecutionError && err.operator !== undefined ? err.operator : `${inst.name}, ${what}`;
  const userFacing = err instanceof EddyError && !(err instanceof InternalError);
  if (!userFacing) return new JobFailure(new ExecutionError(`operator ${inst.name} failed in ${what}: ${err instanceof EddyError ? err.message : `${err.name}: ${err.message}`}`, { cause: err, operator }));
  return new JobFailure(userFailure(err as EddyError, operator, inst.vertex?.namedByUser === true ? operator : undefined));
}

/** A user-facing error as the job's failure: placed at its SQL position with a caret (unless already placed), else naming `named` when given. */
function userFailure(err: EddyError, operator: string, named: string | undefined): ExecutionError {
  if (err.location === undefined && err.at !== undefined) return locate(new ExecutionError(err.message, { cause: err, operator }), err.at);
  const out = new ExecutionError(named === undefined ? err.message : `${err.message} (in operator ${named})`, { cause: err, operator });
  return err.location === undefined ? out : locatedAt(out, err.location.line, err.location.column);
}

/** Options of one run. */
export interface RunOptions {
  readonly batchSize: number;
  readonly signal?: AbortSignal;
  /** Called with the total rows read by sources so far, at most every ~100 ms. */
  readonly onProgress?: (rowsRead: number) => void;
  /** Bytes of operator state the query may hold (exec/memory.ts); default unlimited. */
  readonly memoryLimit?: number;
  /** Memory budget and spill store of the run's feedback channels (iterations). */
  readonly feedback?: FeedbackOptions;
  /** Start from this checkpoint (a snapshot of a run of the same graph) instead of from the beginning. */
  readonly restore?: RunSnapshot;
  /**
   * Take a snapshot at the first quiescent point after every `intervalMs`
   * and hand it to `take` (awaited: the run waits while it is written).
   */
  readonly checkpoint?: { readonly intervalMs: number; take(snapshot: RunSnapshot): void | Promise<void> };
  /**
   * Attribute each callback's own time to its operator (`timeMs`, EXPLAIN
   * ANALYZE); default true. Two clock reads per callback are a fifth of an
   * iteration round's cost, so jobs whose metrics nobody reads (stream jobs)
   * turn it off.
   */
  readonly selfTime?: boolean;
  /**
   * Cut a big batch's delivery to the step budget (step-budget.ts); default true. The budget
   * keeps the calling thread's event loop responsive and costs two process-CPU clock reads per
   * delivery. A worker thread's loop serves only cancellation (which also arrives through a
   * shared flag), and on it the process clock counts every thread's CPU, so its deliveries
   * would shrink for the other threads' work: worker jobs turn it off and deliver whole batches.
   */
  readonly sliceDeliveries?: boolean;
}

/** Thrown inside delivery to unwind the stack; carries the already-wrapped error. */
export class JobFailure extends Error {
  constructor(readonly error: Error) { super(error.message); }
}
