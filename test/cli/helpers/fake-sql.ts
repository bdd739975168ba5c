/**
 * A tiny stand-in for SQL in the shell's in-process tests: the REPL loop and
 * dot commands are tested without depending on the SQL layer. The shell runs
 * SQL only through `env.executeSql`, so the fake replaces that method for
 * the test file that installs it. Test files of one vitest worker share
 * modules (vitest.config.ts: `isolate: false`), so the returned function
 * must put the real method back (`afterAll`).
 */
import { tableFromArrays } from 'apache-arrow';
import { TableEnvironment } from '../../../src/api/environment.js';
import type { SqlOptions, SqlResult } from '../../../src/api/sql-statements.js';
import { CancelledError, ParseError, ValidationError } from '../../../src/relnode/errors.js';

async function fakeExecute(text: string, options?: SqlOptions): Promise<SqlResult> {
  const statement = text.replace(/--.*$/gm, '').replace(/\s+/g, ' ').trim();
  const sel = /^select (\d+)$/i.exec(statement);
  if (sel) return { kind: 'rows', table: tableFromArrays({ n: Int32Array.of(Number(sel[1])) }), statement };
  if (/^slow$/i.test(statement)) {
    options?.onProgress?.(42);
    await new Promise((_, reject) => options?.signal?.addEventListener('abort', () => reject(new CancelledError('query cancelled'))));
  }
  if (/^bug$/i.test(statement)) throw new TypeError("Cannot read properties of undefined (reading 'x')");
  if (/^insert/i.test(statement)) return { kind: 'status', message: 'INSERT 3', rowsAffected: 3, statement };
  if (/^show caches$/i.test(statement)) throw new ValidationError('SHOW CACHES is not supported');
  const line = text.split('\n').length - statement.split('\n').length + 1;
  throw new ParseError(`line ${line}, column 1: unexpected "${statement.split(/\s+/)[0]}"`, line, 1);
}

/**
 * Installs the fake: `SELECT n` (one INTEGER row), `SLOW` (waits for cancellation), `BUG` (a TypeError),
 * `INSERT ...` (a status), `SHOW CACHES` (fails). Returns the function that restores the real `executeSql`.
 */
export function installFakeSql(): () => void {
  const real = Object.getOwnPropertyDescriptor(TableEnvironment.prototype, 'executeSql');
  TableEnvironment.prototype.executeSql = function executeSql(this: TableEnvironment, text: string, options?: SqlOptions) { return fakeExecute(text, options); };
  return () => { if (real) Object.defineProperty(TableEnvironment.prototype, 'executeSql', real); };
}
