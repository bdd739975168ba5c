/**
 * Runs the edge sweep's calls (edge-sweep-cases.ts) in eddy and DuckDB and sorts each outcome: the
 * same value, the same refusal, eddy refusing what DuckDB answers, eddy answering what DuckDB
 * refuses, a different value, an internal error (anything but eddy's user error classes), a user
 * error whose message does not name what the user wrote, or no answer within the time bound.
 */
import { EddyError, InternalError, type TableEnvironment } from '../../src/index.js';
import { diffResults, fromArrow } from '../helpers/compare.js';
import type { Duck } from '../helpers/duckdb.js';
import type { SweepCall } from './edge-sweep-cases.js';

/** What one call gave. */
export type Outcome = 'limit' | 'same' | 'both-error' | 'eddy-error' | 'duck-error' | 'differs' | 'internal' | 'unnamed' | 'timeout';

/** One call's outcome, with the detail a failure message needs. */
export interface Finding {
  readonly call: SweepCall;
  readonly outcome: Outcome;
  readonly detail: string;
}

// A call that never answers (an await that never resolves), not a speed bound: loaded machines are slow.
const TIMEOUT_MS = 60_000;
const TEXT_LIMIT = /a text value can hold/;

async function bounded<T>(p: Promise<T>): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), TIMEOUT_MS); });
  try {
    return await Promise.race([p, t]);
  } finally {
    clearTimeout(timer);
  }
}

const ALSO_NAMED: Readonly<Record<string, string>> = { mod: '%', try_strptime: 'strptime', like_escape: 'like', ilike_escape: 'like' };

/** The words a message may name the call by (`log` for log(x), `CAST` or the type for a cast, the operator). */
function named(call: SweepCall, message: string): boolean {
  // The message proper: its first line, without the place (the quoted SQL line would always name it).
  const m = message.split('\n')[0]!.replace(/^line \d+, column \d+: /, '').toLowerCase();
  // An argument's literal that does not parse names that literal (with the caret under it).
  if (/^invalid (date|timestamp) literal/.test(m)) return true;
  // The same operation under another name: mod is %, try_strptime is strptime, like_escape is LIKE.
  const also = ALSO_NAMED[call.name.toLowerCase()];
  if (also !== undefined && m.includes(also)) return true;
  if (call.name === 'CAST' || call.name === 'TRY_CAST') return m.includes('cast') || m.includes('convert');
  return m.includes(call.name.toLowerCase());
}

/** Runs one call in both engines. */
export async function runCall(env: TableEnvironment, duck: Duck, call: SweepCall): Promise<Finding> {
  const sql = `SELECT ${call.expr} AS v`;
  // Binding errors are thrown by env.sql, runtime errors by collect; a value Arrow cannot read (a
  // TIMESTAMP past 2^53 ms) fails in fromArrow, as it would for any user reading the result.
  const mine = await bounded(Promise.resolve().then(() => env.sql(sql).collect()).then(fromArrow).catch((e: unknown) => ({ error: e })));
  if (mine === 'timeout') return { call, outcome: 'timeout', detail: `no answer within ${TIMEOUT_MS} ms` };
  // eddy's text limit (docs/sql-limits.md): DuckDB would build a string of gigabytes, which its Node
  // client cannot decode (a fatal V8 error, not an exception), so it is not asked.
  if ('error' in mine && mine.error instanceof EddyError && TEXT_LIMIT.test(mine.error.message)) return { call, outcome: 'limit', detail: mine.error.message.split('\n')[0]! };
  const theirs = await duck.query(sql).then((r) => r, (e: unknown) => ({ error: e }));
  if ('error' in mine) {
    const e = mine.error;
    const msg = e instanceof Error ? `${e.name}: ${e.message.split('\n')[0]!}` : String(e);
    if (!(e instanceof EddyError) || e instanceof InternalError) return { call, outcome: 'internal', detail: msg };
    if (!named(call, e.message)) return { call, outcome: 'unnamed', detail: msg };
    if ('error' in theirs) return { call, outcome: 'both-error', detail: msg };
    return { call, outcome: 'eddy-error', detail: `${msg}; DuckDB: ${JSON.stringify(theirs.rows[0], (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}` };
  }
  if ('error' in theirs) return { call, outcome: 'duck-error', detail: `eddy ${JSON.stringify(mine.rows[0], (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}; DuckDB: ${String(theirs.error).split('\n')[0]!}` };
  const d = diffResults(mine, theirs, { names: false, kinds: false, ordered: true });
  return d === undefined ? { call, outcome: 'same', detail: '' } : { call, outcome: 'differs', detail: d.split('\n').slice(0, 3).join(' ') };
}
