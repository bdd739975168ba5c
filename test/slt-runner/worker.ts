/**
 * A child process that runs one sqllogictest file against a fresh eddy
 * environment and streams each record's start and outcome to the parent
 * (test/slt-runner/cli.ts), which kills and resumes it if a record blocks
 * the event loop past its timeout.
 */
import { readFileSync } from 'node:fs';
import { eddyFactory } from './engine.js';
import { runText, type RunOptions } from './run-file.js';

/** The job a parent sends. */
export interface WorkerJob {
  readonly file: string;
  readonly engines: readonly string[];
  readonly timeoutMs: number;
  readonly resumeAt: number;
  readonly skipLines: readonly number[];
  /** Epoch ms after which the file's remaining records are not run. */
  readonly deadline?: number;
}

/** Messages to the parent. */
export type WorkerMessage =
  | { readonly t: 'start'; readonly line: number; readonly kind: 'statement' | 'query' }
  | { readonly t: 'outcome'; readonly o: import('./run-file.js').RecordOutcome }
  | { readonly t: 'done' }
  | { readonly t: 'error'; readonly message: string };

function send(m: WorkerMessage): Promise<void> {
  return new Promise((res) => process.send!(m, undefined, {}, () => res()));
}

process.once('message', (job: WorkerJob) => {
  void (async () => {
    try {
      const engine = await eddyFactory();
      const opts: RunOptions = {
        engines: job.engines,
        timeoutMs: job.timeoutMs,
        resumeAt: job.resumeAt,
        skipLines: job.skipLines,
        ...(job.deadline !== undefined ? { deadline: job.deadline } : {}),
        onStart: (line, kind) => void send({ t: 'start', line, kind }),
        onOutcome: (o) => void send({ t: 'outcome', o }),
      };
      await runText(job.file, readFileSync(job.file, 'utf8'), engine, opts);
      await engine.close().catch(() => undefined);
      await send({ t: 'done' });
    } catch (e) {
      await send({ t: 'error', message: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) });
    }
    process.exit(0);
  })();
});
