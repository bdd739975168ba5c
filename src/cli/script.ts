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

/**
 * Runs the lines of a script. Returns 'error' after the first failing item
 * (it is printed, prefixed with `source` when given), 'quit' at `.quit`;
 * with `keepGoing`, 'error' only at the end, when any item failed.
 */
export async function runLines(session: Session, lines: AsyncIterable<string> | Iterable<string>, source?: string, options: ScriptOptions = {}): Promise<Outcome> {
  const splitter = new StatementSplitter();
  let failed = false;
  const step = async (item: Parameters<Session['run']>[0]): Promise<Outcome | undefined> => {
    const outcome = await session.run(item, source);
    if (outcome === 'ok') return undefined;
    if (outcome === 'error' && options.keepGoing === true) { failed = true; return undefined; }
    return outcome;
  };
  for await (const line of lines) {
    for (const item of splitter.push(line)) {
      const stop = await step(item);
      if (stop !== undefined) return stop;
    }
  }
  const last = splitter.end();
  const stop = last ? await step(last) : undefined;
  return stop ?? (failed ? 'error' : 'ok');
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
