/**
 * Runs SQL scripts (`-c`, `-f`, stdin, `.read`): statements and dot commands
 * in order, stopping at the first error — or, with `keepGoing` (the CLI's
 * `--keep-going`), printing each error and going on to the next statement, as
 * `make -k` does: the outcome is then 'error' if any statement failed.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { ShellError } from './errors.js';
import type { Outcome, Session } from './session.js';
import { StatementSplitter } from './splitter.js';

/** How a script reacts to a failing statement. */
export interface ScriptOptions {
  /** Print the error and run the next statement instead of stopping (the outcome is still 'error'). */
  readonly keepGoing?: boolean;
}

/** A script's outcomes so far: whether to stop after an item, and what the script ends with. */
export class ScriptOutcome {
  private failed = false;
  constructor(private readonly keepGoing: boolean) {}
  /** Whether to stop after an item with outcome `o`: at `.quit`, and at an error unless going on (which is remembered). */
  stops(o: Outcome): boolean {
    if (o === 'ok') return false;
    if (o === 'error' && this.keepGoing) { this.failed = true; return false; }
    return true;
  }
  /** The outcome of a script that ran to its end. */
  get end(): Outcome {
    return this.failed ? 'error' : 'ok';
  }
}

/**
 * Runs the lines of a script. Returns 'error' after the first failing item
 * (it is printed, prefixed with `source` when given), 'quit' at `.quit`;
 * with `keepGoing`, 'error' only at the end, when any item failed.
 */
export async function runLines(session: Session, lines: AsyncIterable<string> | Iterable<string>, source?: string, options: ScriptOptions = {}): Promise<Outcome> {
  const splitter = new StatementSplitter();
  const outcomes = new ScriptOutcome(options.keepGoing === true);
  for await (const line of lines) {
    for (const item of splitter.push(line)) {
      const o = await session.run(item, source);
      if (outcomes.stops(o)) return o;
    }
  }
  const last = splitter.end();
  if (last) {
    const o = await session.run(last, source);
    if (outcomes.stops(o)) return o;
  }
  return outcomes.end;
}

/** Runs a SQL text (a `-c` argument). */
export function runText(session: Session, text: string, source?: string, options: ScriptOptions = {}): Promise<Outcome> {
  return runLines(session, text.split(/\r?\n/), source, options);
}

/** Lines of a stream, read as they arrive. */
export function streamLines(input: NodeJS.ReadableStream): AsyncIterable<string> {
  return createInterface({ input, terminal: false, crlfDelay: Infinity });
}

/** Runs a script file (`-f`, `.read`); a missing file is a ShellError. */
export async function runFile(session: Session, path: string, options: ScriptOptions = {}): Promise<Outcome> {
  try {
    const s = await stat(path);
    if (s.isDirectory()) throw new ShellError(`${path} is a directory, not a SQL script`);
  } catch (e) {
    if (e instanceof ShellError) throw e;
    throw new ShellError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  return runLines(session, streamLines(createReadStream(path, 'utf8')), path, options);
}
