/**
 * A shell session: one environment, the output settings (`.mode`,
 * `.timing`, `.maxrows`), and running input items — SQL statements through
 * `env.executeSql` with cancellation and progress, dot commands through
 * `commands.ts` — printing results to `out` and errors to `err`. Status
 * lines and timings go with the results only when `out` is a terminal;
 * otherwise to `err`, so redirected output holds nothing but results.
 */
import { once } from 'node:events';
import type { Table as ArrowTable } from 'apache-arrow';
import { Type } from 'apache-arrow';
import type { TableEnvironment } from '../api/environment.js';
import type { SqlResult } from '../api/sql-statements.js';
import type { CacheStats } from '../cache/report.js';
import { runDotCommand } from './commands.js';
import { describeError } from './errors.js';
import { renderResult, type OutputMode } from './modes.js';
import { noProgress, startProgress, type ProgressReporter } from './progress.js';
import { onTrainingRound } from '../ml/index.js';
import { onIterationRound } from '../iteration/table/progress.js';
import { positionedText, type InputItem } from './splitter.js';

/** What running an item led to. */
export type Outcome = 'ok' | 'error' | 'quit';

/** Where a session writes: results to `out`, errors, notices and progress to `err`. */
export interface SessionIO {
  readonly out: NodeJS.WritableStream & { readonly isTTY?: boolean; readonly columns?: number };
  readonly err: NodeJS.WritableStream & { readonly isTTY?: boolean };
}

/** Initial settings of a session. */
export interface SessionSettings {
  readonly mode?: OutputMode;
  /** Print the elapsed time after each result. */
  readonly timing?: boolean;
  /** Rows a table shows before truncating. */
  readonly maxRows?: number;
  /** Show a progress line on `err` for long statements (only if `err` is a TTY). */
  readonly progress?: boolean;
}

interface Running {
  readonly controller: AbortController;
  readonly progress: ProgressReporter;
  cancelRequests: number;
}

/** A shell session over an environment. */
export class Session {
  /** The output mode (`.mode`). */
  mode: OutputMode;
  /** Print elapsed time after results (`.timing`). */
  timing: boolean;
  /** Rows a table shows before truncating (`.maxrows`). */
  maxRows: number;
  /** Nesting depth of `.read` (bounded to stop a script that reads itself). */
  readDepth = 0;
  private readonly progress: boolean;
  private running: Running | undefined;
  /** Ctrl-C between statements (say, of a `.read` script): the next item is not run. */
  private interrupted = false;
  private namesCache: { tables: string[]; columns: string[] } | undefined;

  constructor(readonly env: TableEnvironment, readonly io: SessionIO, settings: SessionSettings = {}) {
    this.mode = settings.mode ?? 'table';
    this.timing = settings.timing ?? false;
    this.maxRows = settings.maxRows ?? 40;
    this.progress = (settings.progress ?? true) && io.err.isTTY === true;
  }

  /** Writes to the result stream, waiting when it is full. */
  async write(text: string): Promise<void> {
    if (!this.io.out.write(text)) await once(this.io.out, 'drain');
  }

  /** Writes a line to the error stream. */
  notice(text: string): void {
    this.io.err.write(`${text}\n`);
  }

  /** Prints an error (with the script it came from, if any). */
  printError(e: unknown, source?: string): void {
    this.notice(`${source ? `${source}: ` : ''}${describeError(e)}`);
  }

  /** True while a statement runs. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /**
   * Cancels the running statement (Ctrl-C), or the next item when between
   * statements. Returns how many times the running statement has been asked
   * to stop (1 the first time; 1 when between statements).
   */
  cancel(): number {
    const r = this.running;
    if (!r) { this.interrupted = true; return 1; }
    r.cancelRequests++;
    r.controller.abort();
    r.progress.cancelling();
    return r.cancelRequests;
  }

  /** Forgets a Ctrl-C that came between statements (the REPL, back at its prompt). */
  clearInterrupt(): void {
    this.interrupted = false;
  }

  /** Runs one item; errors are printed, never thrown. `source` names the script it comes from. */
  async run(item: InputItem, source?: string): Promise<Outcome> {
    if (this.interrupted) {
      this.interrupted = false;
      this.notice('Cancelled');
      return 'error';
    }
    try {
      if (item.kind === 'dot') return await runDotCommand(this, item.text);
      return await this.runSql(positionedText(item), source);
    } catch (e) {
      this.printError(e, source);
      return 'error';
    } finally {
      this.namesCache = undefined;
    }
  }

  /** Runs one SQL statement and prints its result. */
  async runSql(text: string, source?: string): Promise<Outcome> {
    const controller = new AbortController();
    const progress = this.progress ? startProgress(this.io.err) : noProgress;
    const running: Running = { controller, progress, cancelRequests: 0 };
    this.running = running;
    try {
      const start = performance.now();
      const cacheBefore = this.env.cacheManager.stats();
      let result: SqlResult;
      const offTraining = onTrainingRound((r) => progress.training(r.fn, r.round, r.loss));
      const offIteration = onIterationRound((r) => progress.iteration(r.round, r.rows));
      const offRounds = (): void => { offTraining(); offIteration(); };
      try {
        result = await this.env.executeSql(text, { signal: controller.signal, onProgress: (n) => progress.update(n) });
      } finally {
        offRounds();
        progress.stop();
      }
      await this.printResult(result, performance.now() - start, controller.signal, cacheNote(cacheBefore, this.env.cacheManager.stats()));
      return 'ok';
    } catch (e) {
      this.printError(e, source);
      return 'error';
    } finally {
      this.running = undefined;
    }
  }

  /**
   * True if status lines (`INSERT 2`) and timings go with the results: when
   * stdout is a terminal, else to stderr, so redirected output holds only
   * query results (`eddy -f q.sql --format csv > out.csv` is a CSV file).
   */
  private get statusToOut(): boolean {
    return this.io.out.isTTY === true;
  }

  /** Writes a status or timing line: to the results in a terminal, else to stderr. */
  async status(text: string): Promise<void> {
    if (this.statusToOut) await this.write(`${text}\n`);
    else this.io.err.write(`${text}\n`);
  }

  /** Prints a statement's result in the current mode, with its time `ms` if timing is on and `ms >= 0`. */
  async printResult(result: SqlResult, ms: number, signal?: AbortSignal, note?: string): Promise<void> {
    const took = this.timing && ms >= 0 ? ` (${formatMs(ms)}${note ? `, ${note}` : ''})` : '';
    const separateTiming = async (): Promise<void> => { if (took) await this.status(took.trim()); };
    if (result.kind === 'status') {
      await this.status(`${result.message}${took}`);
      return;
    }
    const t = result.table;
    if (this.mode === 'table' && isPlanText(result)) {
      await this.write(`${planText(t)}\n`);
      await separateTiming();
      return;
    }
    // In a terminal the time joins a table's row-count line: `3 rows (12 ms)`.
    const inline = this.mode === 'table' && this.statusToOut && took !== '';
    const width = this.io.out.isTTY ? this.io.out.columns : undefined;
    let first = true;
    for (const chunk of renderResult(t, this.mode, { maxRows: this.maxRows, ...(width ? { maxTotalWidth: width } : {}) })) {
      if (!first) {
        await new Promise<void>((r) => setImmediate(r)); // let Ctrl-C in during long output
        if (signal?.aborted) { this.notice('(output cancelled)'); return; }
      }
      first = false;
      await this.write(inline ? chunk.replace(/\n$/, `${took}\n`) : chunk);
    }
    if (!inline) await separateTiming();
  }

  /** Table names, for completion (cached until the next statement). */
  tables(): string[] {
    return this.names().tables;
  }

  /** Column names of every table, for completion. */
  columns(): string[] {
    return this.names().columns;
  }

  private names(): { tables: string[]; columns: string[] } {
    if (!this.namesCache) {
      const tables = this.env.listTables();
      const columns = new Set<string>();
      for (const t of tables) {
        try {
          for (const f of this.env.from(t).schema.fields) columns.add(f.name);
        } catch {
          // a view whose tables were dropped: no columns to offer
        }
      }
      this.namesCache = { tables, columns: [...columns].sort() };
    }
    return this.namesCache;
  }
}

/** What a statement did with the cache, for the timing line: "read 1 cache", "wrote 1 cache", "1 cache lost". */
export function cacheNote(before: CacheStats, after: CacheStats): string | undefined {
  const parts: string[] = [];
  const read = after.hits - before.hits;
  const wrote = after.misses - before.misses;
  const lost = after.lost - before.lost;
  const n = (k: number, what: string): string => `${what} ${k} cache${k === 1 ? '' : 's'}`;
  if (read > 0) parts.push(n(read, 'read'));
  if (wrote > 0) parts.push(n(wrote, 'wrote'));
  if (lost > 0) parts.push(`${lost} cache${lost === 1 ? '' : 's'} lost`);
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/** `12 ms`, `1.52 s`. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** EXPLAIN output (one text column, from an EXPLAIN statement) prints as plain text. */
function isPlanText(result: Extract<SqlResult, { kind: 'rows' }>): boolean {
  const fields = result.table.schema.fields;
  return /^\s*explain\b/i.test(result.statement) && fields.length === 1 && [Type.Utf8, Type.Dictionary].includes(fields[0]!.type.typeId);
}

function planText(t: ArrowTable): string {
  const v = t.getChildAt(0)!;
  const lines: string[] = [];
  for (let r = 0; r < t.numRows; r++) lines.push(String(v.get(r) ?? ''));
  return lines.join('\n').replace(/\n+$/, '');
}
