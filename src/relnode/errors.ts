/**
 * The error taxonomy. Every user-facing message says what is wrong, where, and
 * what would work instead. InternalError marks an engine bug.
 */
import { formatAtSpan, type SourceSpan } from './source-span.js';

/** A place in SQL text: 1-based line and column. */
export interface SourceLocation {
  readonly line: number;
  readonly column: number;
}

/** Base class of every error eddy throws on purpose. */
export class EddyError extends Error {
  override name = 'EddyError';
  /**
   * Where the expression that raised it was written in SQL text (a runtime error in a kernel; set
   * once, by the innermost expression with a span: kernels/compile.ts). The runtime renders it
   * with a caret (exec/runtime/run-options.ts).
   */
  at?: SourceSpan;
  /**
   * Where in SQL text the message is placed, once it is: the message then reads "line L, column C:
   * ..." with the line quoted and a caret (formatted once, by `locate` / `locatedAt`). Code that
   * would place an error asks this field, never the message text; a wrapper that keeps the
   * message keeps the location (worker replies carry it too).
   */
  location?: SourceLocation;
}

/**
 * `err` marked as placed at (line, column): its message was already formatted there (a parse or
 * bind error rendered with formatSqlError). Returns `err`.
 */
export function locatedAt<E extends EddyError>(err: E, line: number, column: number): E {
  err.location = { line, column };
  return err;
}

/** `err` with its message placed at `span` (the caret rendering, once) unless it has a place already. Returns `err`. */
export function locate<E extends EddyError>(err: E, span: SourceSpan): E {
  if (err.location !== undefined) return err;
  err.message = formatAtSpan(span, err.message);
  return locatedAt(err, span.line, span.column);
}

/** A SQL text that does not parse; carries the position of the offending token (its message is placed there). */
export class ParseError extends EddyError {
  override name = 'ParseError';
  constructor(message: string, readonly line?: number, readonly column?: number) {
    super(message);
    if (line !== undefined && column !== undefined) this.location = { line, column };
  }
}

/** A plan that is wrong as the user wrote it: unknown column, type mismatch, bad argument. */
export class ValidationError extends EddyError {
  override name = 'ValidationError';
}

/** A failure while a job runs (an operator threw, a file is malformed, the job was cancelled). */
export class ExecutionError extends EddyError {
  override name = 'ExecutionError';
  /**
   * The engine's place of a failure inside a running job, for debugging: the operator instance and
   * the callback it failed in (`Project#1[0], processBatch`). Not part of the message, which says
   * where in the query it happened in the user's terms (a SQL caret, the expression).
   */
  readonly operator?: string;
  constructor(message: string, options?: { cause?: unknown; operator?: string }) {
    super(message, options);
    if (options?.operator !== undefined) this.operator = options.operator;
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

/**
 * `err`, placed at `at` when it is eddy's error about the data or the query with no place yet (the
 * innermost place wins): an aggregate or window call's state raising while its value is computed.
 * The runtime renders the place with a caret (exec/runtime/run-options.ts). Returns `err` to rethrow.
 */
export function placeError(err: unknown, at: SourceSpan | undefined): unknown {
  if (at !== undefined && err instanceof EddyError && !(err instanceof InternalError) && !(err instanceof CancelledError) && err.at === undefined) err.at = at;
  return err;
}
