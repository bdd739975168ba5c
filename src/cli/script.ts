/**
 * Runs SQL scripts (`-c`, `-f`, stdin, `.read`): statements and dot commands
 * in order, stopping at the first error.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { ShellError } from './errors.js';
import type { Outcome, Session } from './session.js';
import { StatementSplitter } from './splitter.js';

/**
 * Runs the lines of a script. Returns 'error' after the first failing item
 * (it is printed, prefixed with `source` when given), 'quit' at `.quit`.
 */
export async function runLines(session: Session, lines: AsyncIterable<string> | Iterable<string>, source?: string): Promise<Outcome> {
  const splitter = new StatementSplitter();
  for await (const line of lines) {
    for (const item of splitter.push(line)) {
      const outcome = await session.run(item, source);
      if (outcome !== 'ok') return outcome;
    }
  }
  const last = splitter.end();
  return last ? session.run(last, source) : 'ok';
}

/** Runs a SQL text (a `-c` argument). */
export function runText(session: Session, text: string, source?: string): Promise<Outcome> {
  return runLines(session, text.split(/\r?\n/), source);
}

/** Lines of a stream, read as they arrive. */
export function streamLines(input: NodeJS.ReadableStream): AsyncIterable<string> {
  return createInterface({ input, terminal: false, crlfDelay: Infinity });
}

/** Runs a script file (`-f`, `.read`); a missing file is a ShellError. */
export async function runFile(session: Session, path: string): Promise<Outcome> {
  try {
    const s = await stat(path);
    if (s.isDirectory()) throw new ShellError(`${path} is a directory, not a SQL script`);
  } catch (e) {
    if (e instanceof ShellError) throw e;
    throw new ShellError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  return runLines(session, streamLines(createReadStream(path, 'utf8')), path);
}
