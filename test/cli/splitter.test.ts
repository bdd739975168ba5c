import { describe, expect, it } from 'vitest';
import { historyEntry, positionedText, splitInput, StatementSplitter } from '../../src/cli/splitter.js';

const texts = (input: string): string[] => splitInput(input).map((i) => (i.kind === 'dot' ? `DOT ${i.text}` : i.text));

describe('StatementSplitter', () => {
  it('splits several statements on one line and drops empty ones', () => {
    expect(texts('SELECT 1; SELECT 2;;  ;SELECT 3')).toEqual(['SELECT 1', 'SELECT 2', 'SELECT 3']);
  });

  it('keeps semicolons inside strings, quoted names and comments', () => {
    expect(texts(`SELECT 'a;b', "c;d" FROM t; -- x; y\nSELECT /* ; */ 2;`)).toEqual([`SELECT 'a;b', "c;d" FROM t`, 'SELECT /* ; */ 2']);
    expect(texts(`SELECT 'it''s; fine';`)).toEqual([`SELECT 'it''s; fine'`]);
  });

  it('continues statements, strings and block comments over lines', () => {
    const s = new StatementSplitter();
    expect(s.push('SELECT')).toEqual([]);
    expect(s.pending).toBe(true);
    expect(s.push("  'multi")).toEqual([]);
    expect(s.push("line;'; SELECT 2;")).toMatchObject([{ kind: 'sql', text: "SELECT\n  'multi\nline;'", line: 1, column: 1 }, { kind: 'sql', text: 'SELECT 2', line: 3, column: 9 }]);
    expect(s.pending).toBe(false);
    expect(s.push('/* open')).toEqual([]);
    expect(s.pending).toBe(true);
    expect(s.push('comment */')).toEqual([]);
    expect(s.pending).toBe(false);
  });

  it('treats a line starting with "." at a statement boundary as a dot command', () => {
    expect(texts('.mode csv\nSELECT 1;\n  .tables;\nSELECT\n.5;')).toEqual(['DOT .mode csv', 'SELECT 1', 'DOT .tables', 'SELECT\n.5']);
  });

  it('recognizes bare exit/quit/help only when asked (the REPL)', () => {
    const s = new StatementSplitter({ bareCommands: true });
    expect(s.push('quit')).toEqual([{ kind: 'dot', text: '.quit', line: 1 }]);
    expect(s.push('HELP;')).toEqual([{ kind: 'dot', text: '.help', line: 2 }]);
    expect(texts('exit')).toEqual(['exit']);
  });

  it('returns the unterminated last statement at the end, and skips comment-only input', () => {
    expect(texts('SELECT 1')).toEqual(['SELECT 1']);
    expect(texts('-- only a comment\n/* and another */')).toEqual([]);
  });

  it('locates statements so error lines match the script', () => {
    const items = splitInput('-- header\n\n  SELECT\n  x;');
    expect(items).toEqual([{ kind: 'sql', text: 'SELECT\n  x', line: 3, column: 3 }]);
    expect(positionedText(items[0] as never)).toBe('\n\nSELECT\n  x');
    const rel = new StatementSplitter({ relativeLines: true });
    rel.push('SELECT 1;');
    expect(rel.push('SELECT 2;')).toMatchObject([{ line: 1 }]);
  });

  it('reset drops an open statement', () => {
    const s = new StatementSplitter();
    s.push("SELECT 'abc");
    s.reset();
    expect(s.pending).toBe(false);
    expect(s.push('SELECT 1;')).toMatchObject([{ text: 'SELECT 1' }]);
  });
});

describe('historyEntry', () => {
  it('joins lines and drops line comments', () => {
    expect(historyEntry(['SELECT a, -- the key', '  b', 'FROM t;'])).toBe('SELECT a, b FROM t;');
    expect(historyEntry(["SELECT '--not a comment'", 'FROM t;'])).toBe("SELECT '--not a comment' FROM t;");
  });

  it('gives up when a literal spans lines', () => {
    expect(historyEntry(["SELECT 'a", "b';"])).toBeUndefined();
  });
});
