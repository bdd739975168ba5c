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

type LexState = 'normal' | 'single' | 'double' | 'block';

/** Incremental splitter: `push` each line, `end` at end of input. */
export class StatementSplitter {
  private text = '';
  private state: LexState = 'normal';
  /** True once the current statement has a character outside comments and whitespace. */
  private significant = false;
  private startLine = 0;
  private startColumn = 0;
  private lineNo = 0;

  constructor(private readonly options: SplitterOptions = {}) {}

  /** True while a statement (or a comment or literal) is open: the REPL shows its continuation prompt. */
  get pending(): boolean {
    return this.significant || this.state !== 'normal';
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
      const ch = line[i]!;
      switch (this.state) {
        case 'single':
        case 'double':
          this.text += ch;
          if (ch === (this.state === 'single' ? "'" : '"')) this.state = 'normal';
          continue;
        case 'block':
          if (this.significant) this.text += ch;
          if (ch === '*' && line[i + 1] === '/') {
            if (this.significant) this.text += '/';
            i++;
            this.state = 'normal';
          }
          continue;
        case 'normal':
          break;
      }
      if (ch === '-' && line[i + 1] === '-') {
        if (this.significant) this.text += line.slice(i);
        break; // the rest of the line is a comment
      }
      if (ch === '/' && line[i + 1] === '*') {
        if (this.significant) this.text += '/*';
        i++;
        this.state = 'block';
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
      this.text += ch;
      if (ch === "'") this.state = 'single';
      else if (ch === '"') this.state = 'double';
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
    this.state = 'normal';
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
  let state: LexState = 'normal';
  const parts: string[] = [];
  for (const line of lines) {
    let kept = line;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i]!;
      if (state === 'single' || state === 'double') {
        if (ch === (state === 'single' ? "'" : '"')) state = 'normal';
      } else if (state === 'block') {
        if (ch === '*' && line[i + 1] === '/') { state = 'normal'; i++; }
      } else if (ch === '-' && line[i + 1] === '-') {
        kept = line.slice(0, i);
        break;
      } else if (ch === '/' && line[i + 1] === '*') { state = 'block'; i++; }
      else if (ch === "'") state = 'single';
      else if (ch === '"') state = 'double';
    }
    if (state === 'single' || state === 'double') return undefined;
    if (kept.trim()) parts.push(kept.trim());
  }
  return parts.join(' ');
}
