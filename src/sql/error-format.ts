/**
 * Renders a message about a place in SQL text: the line and column, the
 * message, the quoted line and a caret under the offending token. Used for
 * parse errors here and by the binder for name and type errors; runtime errors
 * render the same way from an expression's span (relnode/source-span.ts).
 */
import { formatAtSpan } from '../relnode/source-span.js';

/**
 * "line 3, column 12: <message>\n  3 | SELECT qty FROM lineitem\n    |        ^^^" — quotes the line of the SQL
 * text with a caret under the token (`length` carets, at least one, clipped to the end of the line; 1-based
 * `line`/`column`). Tabs in the quoted line are kept under the caret so it stays aligned.
 */
export function formatSqlError(text: string, pos: { line: number; column: number; length?: number }, message: string): string {
  const lineText = text.split(/\r\n|\r|\n/)[pos.line - 1];
  if (lineText === undefined) return `line ${pos.line}, column ${pos.column}: ${message}`;
  return formatAtSpan({ line: pos.line, column: pos.column, length: pos.length ?? 1, lineText, lineStart: 0 }, message);
}
