/**
 * An expression's SQL position and its caret rendering (relnode/source-span.ts): the quoted line
 * is the span's own line of a multi-line text, a long line keeps a window around the column (with
 * a mark that it was cut, the caret still under the expression), and tabs stay under the caret.
 */
import { describe, expect, it } from 'vitest';
import { formatAtSpan, sourceSpan } from '../../src/relnode/source-span.js';

/** The position of the first `needle` in `text`, as the parser gives it. */
function posOf(text: string, needle: string): { line: number; column: number; offset: number; length: number } {
  const offset = text.indexOf(needle);
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1, offset, length: needle.length };
}

describe('source spans', () => {
  it('quote the line of the expression with carets under it', () => {
    const text = 'SELECT a,\n  sqrt(b)\nFROM t';
    expect(formatAtSpan(sourceSpan(text, posOf(text, 'sqrt(b)')), 'bad')).toBe('line 2, column 3: bad\n  2 |   sqrt(b)\n    |   ^^^^^^^');
  });

  it('keep tabs under the caret', () => {
    const text = 'SELECT\tx,\tsqrt(b) FROM t';
    expect(formatAtSpan(sourceSpan(text, posOf(text, 'sqrt(b)')), 'bad').split('\n')[2]).toBe('    |       \t  \t^^^^^^^');
  });

  it('clip a long line around the column, the caret still under the expression', () => {
    const text = `SELECT ${'a + 1, '.repeat(200)}CAST(s AS INTEGER), ${'b, '.repeat(200)}c FROM t`;
    const span = sourceSpan(text, posOf(text, 'CAST(s AS INTEGER)'));
    expect(span.lineText.length).toBeLessThanOrEqual(160);
    expect(span.column).toBe(text.indexOf('CAST') + 1);
    const [head, quoted, carets] = formatAtSpan(span, 'bad').split('\n');
    expect(head).toBe(`line 1, column ${text.indexOf('CAST') + 1}: bad`);
    expect(quoted).toMatch(/^ {2}1 \| …/);
    expect(quoted!.indexOf('CAST(s AS INTEGER)')).toBe(carets!.indexOf('^'));
    expect(carets).toMatch(/ \^{18}$/);
  });

  it('clip carets at the end of the quoted line', () => {
    const text = 'SELECT (1 +\n 2)';
    expect(formatAtSpan(sourceSpan(text, { ...posOf(text, '(1 +'), length: 9 }), 'bad').split('\n')[2]).toBe('    |        ^^^^');
  });
});
