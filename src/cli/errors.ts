/**
 * How the shell reports errors: eddy's own errors print their message (the
 * SQL layer already adds line, column and a caret); anything else is a bug
 * in eddy and says so. Never a stack trace, unless EDDY_DEBUG is set (which
 * also shows the operator a runtime error failed in).
 */
import { CancelledError, EddyError, ExecutionError, InternalError, ParseError } from '../relnode/errors.js';

/** The text the shell prints for an error (without a trailing newline). */
export function describeError(e: unknown, debug = !['', '0', undefined].includes(process.env['EDDY_DEBUG'])): string {
  // With EDDY_DEBUG, a runtime error also names the operator instance it failed in (ExecutionError.operator).
  const where = debug && e instanceof ExecutionError && e.operator !== undefined ? `\n(in operator ${e.operator})` : '';
  const trace = `${where}${debug && e instanceof Error && e.stack ? `\n${e.stack}` : ''}`;
  if (e instanceof CancelledError) return `${e.message.charAt(0).toUpperCase()}${e.message.slice(1)}${trace}`;
  if (e instanceof InternalError) return `${e.message}${trace}`;
  if (e instanceof ParseError) return `${e.message.startsWith('Syntax error') ? '' : 'Syntax error: '}${e.message}${trace}`;
  if (e instanceof EddyError) return `Error: ${e.message}${trace}`;
  const message = e instanceof Error ? `${e.name === 'Error' ? '' : `${e.name}: `}${e.message}` : String(e);
  return `internal error (a bug in eddy): ${message} — please report it with the statement that caused it${trace || (debug ? '' : '\n(set EDDY_DEBUG=1 to see the stack trace)')}`;
}

/** An error the shell itself raises (bad dot command arguments, unreadable files): printed as `Error: message`. */
export class ShellError extends EddyError {
  override name = 'ShellError';
}
