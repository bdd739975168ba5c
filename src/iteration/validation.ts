/**
 * The build-time checks of an iteration (ITERATION-SEMANTICS.md
 * "Validation"), with the table's messages, raised before anything runs.
 *
 * Decision: one function per row, so the message text lives in one place
 * and tests can name the row they check.
 */
import { ValidationError } from '../relnode/errors.js';

export function noVariableStream(): ValidationError {
  return new ValidationError('there should be at least one variable stream (pass the initial variable streams as the first argument)');
}

export function feedbackCountMismatch(feedback: number, initial: number): ValidationError {
  return new ValidationError(`the number of feedback streams ${feedback} does not match the initialized one ${initial}`);
}

export function feedbackParallelismMismatch(i: number, feedback: number, initial: number): ValidationError {
  return new ValidationError(`the feedback stream ${i} has parallelism ${feedback}, the initial stream ${initial}: give both the same parallelism (setParallelism)`);
}

export function feedbackIsUnion(): ValidationError {
  return new ValidationError('the feedback must come from a single operator; add a map after the union');
}

export function criteriaNotSupported(): ValidationError {
  return new ValidationError('this iteration type does not support a termination criteria (iterateUnboundedStreams never terminates; use iterateBoundedStreamsUntilTermination)');
}

export function criteriaNotInBody(): ValidationError {
  return new ValidationError('the termination criteria must be a stream of the body (made inside the body function from its inputs)');
}

export function unsupportedInBody(what: string): ValidationError {
  return new ValidationError(`${what} is unsupported inside an iteration body`);
}

export function forEachRoundOutsideBody(): ValidationError {
  return new ValidationError('forEachRound must be called inside an iteration body');
}
