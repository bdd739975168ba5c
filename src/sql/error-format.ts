/**
 * Renders a message about a place in SQL text: the line and column, the
 * message, the quoted line and a caret under the offending token. Used for
 * parse errors here and by the binder for name and type errors.
 */

/**
 * "line 3, column 12: <message>\n  3 | SELECT qty FROM lineitem\n    |        ^^^" — quotes the line of the SQL
 * text with a caret under the token (`length` carets, at least one, clipped to the end of the line; 1-based
 * `line`/`column`). Tabs in the quoted line are kept under the caret so it stays aligned.
 */
export function formatSqlError(text: string, pos: { line: number; column: number; length?: number }, message: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  const lineText = lines[pos.line - 1];
  const head = `line ${pos.line}, column ${pos.column}: ${message}`;
  if (lineText === undefined) return head;
  const gutter = String(pos.line);
  const start = Math.min(Math.max(pos.column - 1, 0), lineText.length);
  const padding = lineText.slice(0, start).replace(/[^\t]/g, ' ');
  const carets = '^'.repeat(Math.max(1, Math.min(pos.length ?? 1, lineText.length - start)));
  return `${head}\n  ${gutter} | ${lineText}\n  ${' '.repeat(gutter.length)} | ${padding}${carets}`;
}
