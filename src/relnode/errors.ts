/**
 * The error taxonomy. Every user-facing message says what is wrong, where, and
 * what would work instead. InternalError marks an engine bug.
 */

/** Base class of every error eddy throws on purpose. */
export class EddyError extends Error {
  override name = 'EddyError';
}

/** A SQL text that does not parse; carries the position of the offending token. */
export class ParseError extends EddyError {
  override name = 'ParseError';
  constructor(message: string, readonly line?: number, readonly column?: number) {
    super(message);
  }
}

/** A plan that is wrong as the user wrote it: unknown column, type mismatch, bad argument. */
export class ValidationError extends EddyError {
  override name = 'ValidationError';
}

/** A failure while a job runs (an operator threw, a file is malformed, the job was cancelled). */
export class ExecutionError extends EddyError {
  override name = 'ExecutionError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The job was cancelled by the user or by an AbortSignal. */
export class CancelledError extends ExecutionError {
  override name = 'CancelledError';
}

/** A cache entry could not be read or written. */
export class CacheError extends EddyError {
  override name = 'CacheError';
}

/** An iteration was built or run wrongly. */
export class IterationError extends EddyError {
  override name = 'IterationError';
}

/**
 * An iteration stopped at its round limit without a fixpoint (maxRounds with
 * 'error' / ERROR AT RECURSION LIMIT, or the environment's round cap). It is
 * the query's answer, not an operator failure: it reaches the caller as is.
 */
export class IterationLimitError extends IterationError {
  override name = 'IterationLimitError';
}

/** An engine bug: the message says so and how to report it. */
export class InternalError extends EddyError {
  override name = 'InternalError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(`internal error (a bug in eddy; please report it with the query that caused it): ${message}`, options);
  }
}
