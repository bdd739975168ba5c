/**
 * Splits shell input into statements and dot commands, line by line. A
 * statement ends at a `;` outside string literals, quoted identifiers and
 * comments; a line starting with `.` at a statement boundary is a dot command
 * (it needs no `;`). The REPL and the script runner feed it the same way.
 */

/** One unit of input: a SQL statement (without its `;`) or a dot command line. */
export type InputItem =
  /** `line`/`column` (1-based) locate the statement's first character in its source. */
  | { readonly kind: 'sql'; readonly text: string; readonly line: number; readonly column: number }
  | { readonly kind: 'dot'; readonly text: string; readonly line: number };

/** Options of a `StatementSplitter`. */
export interface SplitterOptions {
  /**
   * Count lines from the start of the current statement buffer rather than
   * the whole input (the REPL: error positions refer to what was just typed).
   */
  readonly relativeLines?: boolean;
  /** Treat a bare `exit`, `quit` or `help` line at a statement boundary as `.exit`/`.quit`/`.help` (the REPL). */
  readonly bareCommands?: boolean;
}

/** Where the scan is: in code, in a string (`'`, `E'`, `$tag$`), a quoted name or a block comment. */
type LexState = 'normal' | 'single' | 'escape' | 'dollar' | 'double' | 'block';

const DOLLAR_QUOTE = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;
const WORD_CHAR = /[A-Za-z0-9_$\u0080-\uffff]/;

/**
 * The quote that opens at line[i] in code, as the SQL lexer reads it (string-literals.ts): `'`, `"`, `E'` (not
 * after a name's letters: `somE'x'` is a name and a string) or a dollar quote `$$` / `$tag$` (not after a name's
 * characters, which may include `$`). Undefined when none opens there.
 */
function quoteAt(line: string, i: number): { state: LexState; open: string } | undefined {
  const ch = line[i]!;
  if (ch === "'") return { state: 'single', open: ch };
  if (ch === '"') return { state: 'double', open: ch };
  const afterWord = i > 0 && WORD_CHAR.test(line[i - 1]!);
  if ((ch === 'e' || ch === 'E') && line[i + 1] === "'" && !afterWord) return { state: 'escape', open: line.slice(i, i + 2) };
  if (ch === '$' && !afterWord) {
    DOLLAR_QUOTE.lastIndex = i;
    const m = DOLLAR_QUOTE.exec(line);
    if (m !== null) return { state: 'dollar', open: m[0] };
  }
  return undefined;
}

/**
 * Scans a string, quoted name or comment from line[i] in `state`; returns the index after its end on this line
 * (and the state becomes 'normal'), or the line's length when it goes on. `tag` is an open dollar quote's
 * delimiter.
 */
function scanQuoted(line: string, i: number, st: { state: LexState; tag: string }): number {
  const n = line.length;
  switch (st.state) {
    case 'single':
    case 'double': {
      const close = line.indexOf(st.state === 'single' ? "'" : '"', i);
      if (close < 0) return n;
      st.state = 'normal';
      return close + 1;
    }
    case 'escape': {
      for (let j = i; j < n; j++) {
        const c = line[j];
        if (c === '\\') j++; // at the line's end it escapes the line break
        else if (c === "'") {
          if (line[j + 1] === "'") { j++; continue; }
          st.state = 'normal';
          return j + 1;
        }
      }
      return n;
    }
    case 'dollar': {
      const close = line.indexOf(st.tag, i);
      if (close < 0) return n;
      st.state = 'normal';
      return close + st.tag.length;
    }
    case 'block': {
      const close = line.indexOf('*/', i);
      if (close < 0) return n;
      st.state = 'normal';
      return close + 2;
    }
    case 'normal':
      return i;
  }
}

/** Incremental splitter: `push` each line, `end` at end of input. */
export class StatementSplitter {
  private text = '';
  /** The open string, name or comment (and a dollar quote's delimiter) across lines. */
  private readonly quote = { state: 'normal' as LexState, tag: '' };
  /** True once the current statement has a character outside comments and whitespace. */
  private significant = false;
  private startLine = 0;
  private startColumn = 0;
  private lineNo = 0;

  constructor(private readonly options: SplitterOptions = {}) {}

  /** True while a statement (or a comment or literal) is open: the REPL shows its continuation prompt. */
  get pending(): boolean {
    return this.significant || this.quote.state !== 'normal';
  }

  /** Feeds one line (without its newline); returns the items it completed. */
  push(line: string): InputItem[] {
    if (this.options.relativeLines && !this.pending) this.lineNo = 0;
    this.lineNo++;
    if (!this.pending) {
      const trimmed = line.trim();
      if (trimmed.startsWith('.')) return [{ kind: 'dot', text: trimmed.replace(/;+$/, '').trimEnd(), line: this.lineNo }];
      if (this.options.bareCommands && /^(exit|quit|help)\s*;?$/i.test(trimmed)) {
        return [{ kind: 'dot', text: `.${trimmed.replace(/\s*;$/, '').toLowerCase()}`, line: this.lineNo }];
      }
    }
    const items: InputItem[] = [];
    const n = line.length;
    for (let i = 0; i < n; i++) {
      if (this.quote.state !== 'normal') {
        const next = scanQuoted(line, i, this.quote);
        if (this.significant) this.text += line.slice(i, next);
        i = next - 1;
        continue;
      }
      const ch = line[i]!;
      if (ch === '-' && line[i + 1] === '-') {
        if (this.significant) this.text += line.slice(i);
        break; // the rest of the line is a comment
      }
      if (ch === '/' && line[i + 1] === '*') {
        if (this.significant) this.text += '/*';
        i++;
        this.quote.state = 'block';
        continue;
      }
      if (ch === ';') {
        if (this.significant) items.push(this.take());
        continue;
      }
      if (ch === ' ' || ch === '\t' || ch === '\r') {
        if (this.significant) this.text += ch;
        continue;
      }
      if (!this.significant) {
        this.significant = true;
        this.startLine = this.lineNo;
        this.startColumn = i + 1;
      }
      const q = quoteAt(line, i);
      if (q === undefined) {
        this.text += ch;
        continue;
      }
      this.text += q.open;
      i += q.open.length - 1;
      this.quote.state = q.state;
      this.quote.tag = q.open;
    }
    if (this.significant) this.text += '\n';
    return items;
  }

  /** At end of input: the unterminated last statement, if any (a script's last `;` is optional). */
  end(): InputItem | undefined {
    const item = this.significant ? this.take() : undefined;
    this.reset();
    return item;
  }

  /** Discards the open statement (Ctrl-C in the REPL). */
  reset(): void {
    this.text = '';
    this.quote.state = 'normal';
    this.significant = false;
  }

  private take(): InputItem {
    const item: InputItem = { kind: 'sql', text: this.text.trimEnd(), line: this.startLine, column: this.startColumn };
    this.text = '';
    this.significant = false;
    return item;
  }
}

/** Splits a whole text (a `-c` argument, a script) into items. */
export function splitInput(text: string, options: SplitterOptions = {}): InputItem[] {
  const s = new StatementSplitter(options);
  const items = text.split('\n').flatMap((line) => s.push(line));
  const last = s.end();
  return last ? [...items, last] : items;
}

/**
 * The statement text after as many newlines as lines before it, so the line
 * numbers the SQL layer reports are lines of the script (or of what was typed).
 * Columns stay relative to the statement: its first line is quoted without
 * whatever preceded it on that line.
 */
export function positionedText(item: Extract<InputItem, { kind: 'sql' }>): string {
  return '\n'.repeat(item.line - 1) + item.text;
}

/**
 * One history entry for a statement typed over several lines: the lines
 * joined with spaces, `--` comments dropped. Undefined when a string literal
 * or quoted name spans lines (joining would change it).
 */
export function historyEntry(lines: readonly string[]): string | undefined {
  const st = { state: 'normal' as LexState, tag: '' };
  const parts: string[] = [];
  for (const line of lines) {
    let kept = line;
    for (let i = 0; i < line.length; i++) {
      if (st.state !== 'normal') {
        i = scanQuoted(line, i, st) - 1;
        continue;
      }
      const q = quoteAt(line, i);
      if (line[i] === '-' && line[i + 1] === '-') {
        kept = line.slice(0, i);
        break;
      } else if (line[i] === '/' && line[i + 1] === '*') { st.state = 'block'; i++; }
      else if (q !== undefined) { st.state = q.state; st.tag = q.open; i += q.open.length - 1; }
    }
    if (st.state !== 'normal' && st.state !== 'block') return undefined;
    if (kept.trim()) parts.push(kept.trim());
  }
  return parts.join(' ');
}
