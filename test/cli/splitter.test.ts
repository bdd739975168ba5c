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

  it('knows dollar quotes and escape strings as the SQL lexer does', () => {
    expect(texts("SELECT $$it's; -- x$$, $tag$a $$ ; b$tag$; SELECT 2;")).toEqual(["SELECT $$it's; -- x$$, $tag$a $$ ; b$tag$", 'SELECT 2']);
    expect(texts("SELECT E'it\\'s; fine', e'a''; b\\\\'; SELECT 2;")).toEqual(["SELECT E'it\\'s; fine', e'a''; b\\\\'", 'SELECT 2']);
    // Not openers: `$1` (a parameter), `$` inside a name, E at the end of a name (`somE'x'` is a name and a string).
    expect(texts("SELECT $1, a$$b; SELECT somE'x\\'; SELECT 3;")).toEqual(['SELECT $1, a$$b', "SELECT somE'x\\'", 'SELECT 3']);
    // Tags are case-sensitive: $A$ does not close $a$.
    expect(texts('SELECT $a$ ; $A$ ; $a$; SELECT 4;')).toEqual(['SELECT $a$ ; $A$ ; $a$', 'SELECT 4']);
  });

  it('continues dollar quotes and escape strings over lines, and returns an unterminated one at the end', () => {
    const s = new StatementSplitter();
    expect(s.push('SELECT $body$ first;')).toEqual([]);
    expect(s.pending).toBe(true);
    expect(s.push('second; $body$;')).toMatchObject([{ kind: 'sql', text: 'SELECT $body$ first;\nsecond; $body$' }]);
    expect(s.pending).toBe(false);
    expect(s.push("SELECT E'a\\")).toEqual([]); // the backslash escapes the line break, not the next line's quote
    expect(s.push("'; SELECT E'b\\';")).toMatchObject([{ text: "SELECT E'a\\\n'" }]);
    expect(s.pending).toBe(true);
    expect(s.push("';")).toMatchObject([{ text: "SELECT E'b\\';\n'" }]);
    expect(texts('SELECT $$ never closed;\nSELECT 1;')).toEqual(['SELECT $$ never closed;\nSELECT 1;']);
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
    expect(historyEntry(['SELECT $$a', 'b$$;'])).toBeUndefined();
    expect(historyEntry(["SELECT E'a\\'", "b';"])).toBeUndefined();
    expect(historyEntry(["SELECT $$it's$$, E'\\'' -- c", 'FROM t;'])).toBe("SELECT $$it's$$, E'\\'' FROM t;");
  });
});
