/**
 * A progress line on stderr for statements that run longer than a second:
 * rows read so far (the runtime reports them through `onProgress`), the
 * round of an ML training and its loss when the algorithm has one
 * (`training`), and the elapsed time. Only on a terminal; cleared when the
 * statement ends.
 */
import cliProgress from 'cli-progress';

/** Delay before the progress line appears. */
const SHOW_AFTER_MS = 1000;
const SPINNER = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';

/** Progress reporting for one statement: `update` from onProgress, `stop` when it ends. */
export interface ProgressReporter {
  /** Total rows read by the sources so far. */
  update(rowsRead: number): void;
  /** A training round ended (`round` from 0; `loss` when known). */
  training(fn: string, round: number, loss?: number): void;
  /** A round of a table iteration (env.iterate, WITH RECURSIVE) ended, with the rows its variables held. */
  iteration(round: number, rows: number): void;
  /** Marks the statement as being cancelled (the line says so). */
  cancelling(): void;
  /** Removes the line. */
  stop(): void;
}

/** A reporter that shows nothing (not a terminal, or `--no-progress`). */
export const noProgress: ProgressReporter = { update() {}, training() {}, iteration() {}, cancelling() {}, stop() {} };

/** Starts a progress reporter writing to `stream` (a TTY). */
export function startProgress(stream: NodeJS.WritableStream): ProgressReporter {
  const started = performance.now();
  let rows: number | undefined;
  let train = '';
  let state = 'running';
  let bar: cliProgress.SingleBar | undefined;
  const format = (): string => {
    const elapsed = (performance.now() - started) / 1000;
    const spin = SPINNER[Math.floor(elapsed * 10) % SPINNER.length];
    const read = rows === undefined ? '' : `${rows.toLocaleString('en-US')} rows read · `;
    return ` ${spin} ${state}… ${train}${read}${elapsed.toFixed(1)} s${state === 'running' ? ' · Ctrl-C to cancel' : ''}`;
  };
  const timer = setTimeout(() => {
    bar = new cliProgress.SingleBar({ stream, format, hideCursor: true, clearOnComplete: true, linewrap: false, fps: 10 });
    bar.start(1, 0);
  }, SHOW_AFTER_MS);
  timer.unref();
  return {
    update(n) { rows = n; },
    training(fn, round, loss) { train = `${fn} round ${round + 1}${loss !== undefined ? ` · loss ${loss.toPrecision(4)}` : ''} · `; },
    iteration(round, n) { train = `iteration round ${round + 1} · ${n.toLocaleString('en-US')} rows · `; },
    cancelling() { state = 'cancelling'; },
    stop() {
      clearTimeout(timer);
      bar?.stop();
      bar = undefined;
    },
  };
}
