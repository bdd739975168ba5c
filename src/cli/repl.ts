/**
 * The interactive shell: node:readline with prompts, persistent history,
 * tab completion and Ctrl-C / Ctrl-D handling around a Session. Lines typed
 * while a statement runs are queued and run after it.
 */
import { createInterface, type Interface } from 'node:readline';
import { DOT_COMMAND_NAMES } from './commands.js';
import { completeLine } from './completer.js';
import { HISTORY_SIZE, loadHistory, saveHistory } from './history.js';
import type { Session } from './session.js';
import { historyEntry, StatementSplitter } from './splitter.js';

/** The prompt at a statement boundary. */
export const PROMPT = 'eddy> ';
/** The prompt inside a statement (no `;` yet). */
export const CONTINUATION_PROMPT = '  ..> ';

/** Options of `runRepl`. */
export interface ReplOptions {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  /** Treat the streams as a terminal (raw keys, prompts, completion); tests force it. */
  readonly terminal: boolean;
  /** The history file; none when undefined. */
  readonly historyFile?: string;
  /** Called at the third Ctrl-C while a statement ignores cancellation (the CLI exits the process). */
  readonly onForceExit?: () => void;
}

interface ReadlineInternals {
  history: string[];
  line: string;
  clearLine?: () => void;
}

/** Runs the REPL until `.quit`, Ctrl-D or a second Ctrl-C at an empty prompt. */
export function runRepl(session: Session, options: ReplOptions): Promise<void> {
  const { output, historyFile } = options;
  const rl = createInterface({
    input: options.input,
    output,
    terminal: options.terminal,
    prompt: PROMPT,
    completer: (line: string): [string[], string] => completeLine(line, { dotCommands: DOT_COMMAND_NAMES, tables: () => session.tables(), columns: () => session.columns() }),
    history: historyFile ? loadHistory(historyFile) : [],
    historySize: historyFile || options.terminal ? HISTORY_SIZE : 0,
    removeHistoryDuplicates: true,
    tabSize: 4,
  });
  const internals = rl as unknown as ReadlineInternals & Interface;
  const splitter = new StatementSplitter({ relativeLines: true, bareCommands: true });
  const queue: string[] = [];
  let statementLines: string[] = [];
  let busy = false;
  /** Ctrl-C while busy: stop running what is queued. */
  let interrupted = false;
  let closed = false;
  let quitting = false;
  let ctrlCAtPrompt = false;
  let historyWarned = false;

  return new Promise<void>((resolve) => {
    const finish = (): void => {
      if (quitting) return;
      quitting = true;
      persistHistory();
      if (!closed) rl.close();
      resolve();
    };

    const persistHistory = (): void => {
      if (!historyFile) return;
      const problem = saveHistory(historyFile, internals.history);
      if (problem && !historyWarned) { historyWarned = true; session.notice(problem); }
    };

    /** Replaces the history entries of a statement typed over several lines by one entry. */
    const foldHistory = (lines: readonly string[]): void => {
      const typed = lines.filter((l) => l.trim() !== '');
      if (typed.length < 2) return;
      const entry = historyEntry(typed);
      if (entry === undefined) return;
      const h = internals.history;
      const set = new Set(typed);
      let removed = 0;
      while (removed < typed.length && h.length > 0 && set.has(h[0]!)) { h.shift(); removed++; }
      const dup = h.indexOf(entry);
      if (dup >= 0) h.splice(dup, 1);
      h.unshift(entry);
    };

    const showPrompt = (): void => {
      rl.setPrompt(splitter.pending ? CONTINUATION_PROMPT : PROMPT);
      rl.prompt();
    };

    const pump = async (): Promise<void> => {
      if (busy) return;
      busy = true;
      try {
        while (queue.length > 0 && !quitting) {
          const line = queue.shift()!;
          statementLines.push(line);
          const items = splitter.push(line);
          if (!splitter.pending) { foldHistory(statementLines); statementLines = []; }
          for (const item of items) {
            if ((await session.run(item)) === 'quit') { finish(); return; }
            if (interrupted) break;
          }
          if (interrupted) {
            // Ctrl-C abandons everything in flight: the rest of the line, lines typed ahead, an open statement.
            queue.length = 0;
            splitter.reset();
            statementLines = [];
          }
        }
      } finally {
        busy = false;
        interrupted = false;
        session.clearInterrupt();
      }
      persistHistory();
      if (closed) finish();
      else if (!quitting) showPrompt();
    };

    rl.on('line', (line) => {
      ctrlCAtPrompt = false;
      queue.push(line);
      pump().catch((e: unknown) => { session.printError(e); showPrompt(); });
    });

    rl.on('SIGINT', () => {
      if (busy) {
        interrupted = true;
        queue.length = 0;
        const n = session.cancel();
        if (n === 2) session.notice('\ncancelling… press Ctrl-C again to leave eddy');
        if (n >= 3) { persistHistory(); options.onForceExit?.(); }
        return;
      }
      const hadInput = internals.line.length > 0 || splitter.pending;
      if (internals.clearLine) internals.clearLine.call(rl);
      else output.write('\n');
      splitter.reset();
      statementLines = [];
      if (!hadInput) {
        if (ctrlCAtPrompt) { finish(); return; }
        output.write('(press Ctrl-C again or type .quit to exit)\n');
        ctrlCAtPrompt = true;
      } else {
        ctrlCAtPrompt = false;
      }
      showPrompt();
    });

    rl.on('close', () => {
      // Ctrl-D or end of input: leave once the running statement (if any) is done.
      closed = true;
      if (quitting) return;
      if (options.terminal) output.write('\n');
      if (busy) { queue.length = 0; session.cancel(); } else finish();
    });

    showPrompt();
  });
}
