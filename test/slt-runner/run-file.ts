/**
 * Runs the records of one sqllogictest file against an engine and reports
 * an outcome per record: passed, failed, skipped (by skipif/onlyif/halt) or
 * unsupported (control records, engine-specific statements). Each record
 * runs with an AbortSignal and a timer, so a runaway query fails alone.
 */
import { dirname } from 'node:path';
import { compareExact, compareFuzzy, md5Values, renderRowsByLetter, showActual, sortValues, type Verdict } from './compare.js';
import { dialectFor, engineSpecific, hasTopLevelOrderBy, shimSql, sourceOf, type Dialect, type Source } from './dialect.js';
import type { EngineResult, SltEngine } from './engine.js';
import { resultHash } from './failure-mode.js';
import { parseSlt, recordCount, type Condition, type QueryRecord, type SltRecord, type StatementRecord } from './records.js';

/** What happened to one record. */
export type Status = 'passed' | 'failed' | 'skipped' | 'unsupported';

/** One record's outcome. */
export interface RecordOutcome {
  /** 1-based line of the record header. */
  readonly line: number;
  readonly kind: SltRecord['kind'];
  readonly status: Status;
  /** How many records this stands for (a loop block counts its body). */
  readonly count: number;
  readonly sql?: string;
  /** Why it failed, or why it is unsupported / skipped. */
  readonly reason?: string;
  readonly expected?: readonly string[];
  readonly actual?: readonly string[];
  /** For a query that returned the wrong rows: their hash (failure-mode.ts), what the allow-list records. */
  readonly resultHash?: string;
  readonly ms?: number;
}

/** Per-status record counts. */
export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  unsupported: number;
}

/** Options of a file run. */
export interface RunOptions {
  /** Engine names for skipif/onlyif (lower case). Default ['eddy']. */
  readonly engines?: readonly string[];
  /** Per-record timeout in ms. Default 10 000. */
  readonly timeoutMs?: number;
  /** Override the source detected from the path. */
  readonly source?: Source;
  /**
   * Resume after a crash: records before this line are not reported;
   * statements among them are replayed (to rebuild state), queries are not run.
   */
  readonly resumeAt?: number;
  /** Records at these lines are neither run nor reported (they hung the process before). */
  readonly skipLines?: readonly number[];
  /**
   * Wall-clock deadline (epoch ms) for the whole file: records not started by
   * then fail as "not run" (a file of runaway joins must not take hours).
   */
  readonly deadline?: number;
  /** Called before each record runs (the CLI's watchdog uses it). */
  readonly onStart?: (line: number, kind: 'statement' | 'query') => void;
  /** Called with each outcome as soon as it is known. */
  readonly onOutcome?: (o: RecordOutcome) => void;
}

/** The result of running one file. */
export interface FileRun {
  readonly path: string;
  readonly source: Source;
  readonly outcomes: RecordOutcome[];
  readonly counts: Counts;
}

/** Thrown when a record's timer fires. */
export class RecordTimeout extends Error {}

/** Runs `work` with an AbortSignal that fires after `ms`; rejects with RecordTimeout then, even if `work` ignores the signal. */
export async function withTimeout<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctrl = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new RecordTimeout(`timeout after ${ms} ms`));
      ctrl.abort(new RecordTimeout(`timeout after ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([work(ctrl.signal), timeout]);
  } catch (e) {
    // The work may reject first with its own cancellation error: report the timeout.
    throw timedOut ? new RecordTimeout(`timeout after ${ms} ms`) : e;
  } finally {
    clearTimeout(timer);
  }
}

/** True if the conditions say this engine does not run the record. */
export function skippedBy(conditions: readonly Condition[], engines: readonly string[]): boolean {
  for (const c of conditions) {
    const mine = engines.includes(c.engine);
    if (c.kind === 'skipif' && mine) return true;
    if (c.kind === 'onlyif' && !mine) return true;
  }
  return false;
}

/** Requirements that hold for eddy (DuckDB `require` lines that only concern DuckDB's own test modes). */
const MET_REQUIREMENTS: ReadonlySet<string> = new Set(['no_alternative_verify']);

function firstLine(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.split('\n')[0]!.slice(0, 500);
}

function errorMatches(expected: string, message: string): boolean {
  if (expected === '') return true;
  if (message.toLowerCase().includes(expected.toLowerCase())) return true;
  try {
    return new RegExp(expected, 'i').test(message);
  } catch {
    return false;
  }
}

/** Runs one file's text; `path` decides the dialect and resolves relative paths. */
export async function runText(path: string, text: string, engine: SltEngine, options: RunOptions = {}): Promise<FileRun> {
  const source = options.source ?? sourceOf(path);
  const dialect = dialectFor(source);
  const engines = (options.engines ?? ['eddy']).map((e) => e.toLowerCase());
  const timeoutMs = options.timeoutMs ?? 10_000;
  const resumeAt = options.resumeAt ?? 0;
  const skipLines = new Set(options.skipLines ?? []);
  const outcomes: RecordOutcome[] = [];
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, unsupported: 0 };
  const report = (o: RecordOutcome): void => {
    outcomes.push(o);
    counts[o.status] += o.count;
    options.onOutcome?.(o);
  };
  const records = parseSlt(text);
  const fileDir = dirname(path);
  const run = (sql: string): Promise<EngineResult> => withTimeout(timeoutMs, (signal) => engine.execute(sql, signal));

  for (const s of dialect.setup) {
    try {
      await run(s);
    } catch (e) {
      // Without the setup nothing in the file means what it says: every record fails.
      for (const r of records) {
        if (r.kind === 'statement' || r.kind === 'query') report({ line: r.line, kind: r.kind, count: 1, status: 'failed', sql: r.sql, reason: `setup "${s}" failed: ${firstLine(e)}` });
      }
      return { path, source, outcomes, counts };
    }
  }

  const labels = new Map<string, string>();
  let skipMode = false;
  for (let i = 0; i < records.length; i++) {
    const rec = records[i]!;
    if (skipLines.has(rec.line)) continue;
    const base = { line: rec.line, kind: rec.kind, count: recordCount(rec) };
    const replay = rec.line < resumeAt;
    if (skippedBy(rec.conditions, engines)) {
      if (!replay && (rec.kind === 'statement' || rec.kind === 'query' || rec.kind === 'control')) report({ ...base, status: 'skipped', reason: 'skipif/onlyif' });
      continue;
    }
    // When verifying, the expected block's form (`N values hashing to ...`) decides hashing, not the threshold.
    if (rec.kind === 'hash-threshold') continue;
    if (rec.kind === 'halt') {
      for (const r of records.slice(i + 1)) {
        if (!replay && (r.kind === 'statement' || r.kind === 'query')) report({ line: r.line, kind: r.kind, count: recordCount(r), status: 'skipped', reason: `halt at line ${rec.line}` });
      }
      break;
    }
    if (rec.kind === 'control') {
      if (rec.command === 'mode' && rec.args[0] === 'skip') skipMode = true;
      if (rec.command === 'mode' && rec.args[0] === 'unskip') { skipMode = false; continue; }
      if (rec.command === 'require' && MET_REQUIREMENTS.has(rec.args[0] ?? '')) continue;
      if (!replay) report({ ...base, status: 'unsupported', reason: `${rec.command} ${rec.args.join(' ')}`.trim() });
      if (rec.command === 'require') {
        // An unmet requirement skips the rest of the file (DuckDB's rule).
        for (const r of records.slice(i + 1)) {
          if (!replay && (r.kind === 'statement' || r.kind === 'query' || r.kind === 'control')) report({ line: r.line, kind: r.kind, count: recordCount(r), status: 'unsupported', reason: `require ${rec.args.join(' ')}` });
        }
        break;
      }
      continue;
    }
    if (skipMode) {
      if (!replay) report({ ...base, status: 'unsupported', reason: 'mode skip' });
      continue;
    }
    const specific = engineSpecific(shimSql(rec.sql, source, fileDir), source);
    if (specific) {
      if (!replay) report({ ...base, status: 'unsupported', sql: rec.sql, reason: specific });
      continue;
    }
    if (replay) {
      if (rec.kind === 'statement') await run(shimSql(rec.sql, source, fileDir)).catch(() => undefined);
      continue;
    }
    if (options.deadline !== undefined && Date.now() > options.deadline) {
      for (const r of records.slice(i)) {
        if ((r.kind === 'statement' || r.kind === 'query') && !skipLines.has(r.line) && !skippedBy(r.conditions, engines)) {
          report({ line: r.line, kind: r.kind, count: 1, status: 'failed', sql: r.sql, reason: 'not run: the time budget of the file ran out' });
        }
      }
      break;
    }
    options.onStart?.(rec.line, rec.kind);
    const t0 = performance.now();
    const o = rec.kind === 'statement'
      ? await runStatement(rec, dialect, run, fileDir)
      : await runQuery(rec, dialect, run, fileDir, labels);
    report({ ...base, ...o, sql: rec.sql, ms: Math.round(performance.now() - t0) });
  }
  return { path, source, outcomes, counts };
}

/** What running one record decided. */
type RecordResult = Pick<RecordOutcome, 'status' | 'reason' | 'expected' | 'actual' | 'resultHash'>;

async function runStatement(rec: StatementRecord, d: Dialect, run: (sql: string) => Promise<EngineResult>, fileDir: string): Promise<RecordResult> {
  let result: EngineResult;
  try {
    result = await run(shimSql(rec.sql, d.source, fileDir));
  } catch (e) {
    if (rec.expect !== 'error') return { status: 'failed', reason: `unexpected error: ${firstLine(e)}` };
    if (d.checkErrorText && rec.error && !errorMatches(rec.error, firstLine(e))) {
      return { status: 'failed', reason: `error message mismatch: expected "${rec.error}", got "${firstLine(e)}"` };
    }
    return { status: 'passed' };
  }
  if (rec.expect === 'error') return { status: 'failed', reason: `expected an error${rec.error ? ` (${rec.error})` : ''}, but the statement succeeded` };
  if (rec.expect === 'count') {
    const n = result.kind === 'rows' ? result.rows.length : (result.rowsAffected ?? 0);
    if (n !== rec.count) return { status: 'failed', reason: `expected count ${rec.count}, got ${n}` };
  }
  return { status: 'passed' };
}

async function runQuery(rec: QueryRecord, d: Dialect, run: (sql: string) => Promise<EngineResult>, fileDir: string, labels: Map<string, string>): Promise<RecordResult> {
  let raw: EngineResult;
  try {
    raw = await run(shimSql(rec.sql, d.source, fileDir));
  } catch (e) {
    if (rec.error === undefined) return { status: 'failed', reason: `unexpected error: ${firstLine(e)}`, expected: rec.expected };
    if (d.checkErrorText && rec.error && !errorMatches(rec.error, firstLine(e))) {
      return { status: 'failed', reason: `error message mismatch: expected "${rec.error}", got "${firstLine(e)}"` };
    }
    return { status: 'passed' };
  }
  if (rec.error !== undefined) return { status: 'failed', reason: 'expected an error, but the query succeeded' };
  // DuckDB files query DML for its row count (`query I` over an INSERT gives one row: the count).
  if (raw.kind === 'status' && raw.rowsAffected !== undefined && rec.types.length === 1) {
    raw = { kind: 'rows', names: ['Count'], kinds: ['integer'], rows: [[raw.rowsAffected]] };
  }
  if (raw.kind !== 'rows') return { status: 'failed', reason: `expected rows, got status "${raw.message}"`, expected: rec.expected };
  // The order of the rows is part of the answer only where the record pins it.
  const ordered = rec.sort === 'nosort' && hasTopLevelOrderBy(rec.sql);
  if (raw.kinds.length !== rec.types.length) {
    const actual = showActual(raw);
    return { status: 'failed', reason: `expected ${rec.types.length} columns, got ${raw.kinds.length}`, expected: rec.expected, actual, resultHash: resultHash(actual, ordered) };
  }
  const result = d.compare === 'fuzzy' ? splitMultilineText(raw) : raw;
  let verdict: Verdict;
  if (d.compare === 'exact' || (rec.expected.length === 1 && /^\d+ values hashing to [0-9a-f]{32}$/.test(rec.expected[0]!.trim()))) {
    verdict = compareExact(rec.expected, result, rec.types, rec.sort);
  } else {
    const inOrder = !d.unorderedNosort || result.rows.length <= 1 || hasTopLevelOrderBy(rec.sql);
    verdict = compareFuzzy(rec.expected, result, rec.types.length, rec.sort, { separator: d.separator, tolerance: d.tolerance, order: inOrder ? 'ordered' : 'unordered' });
  }
  if (verdict.ok && rec.label !== undefined) {
    const hash = md5Values(sortValues(renderRowsByLetter(result, rec.types), rec.sort));
    const before = labels.get(rec.label);
    if (before !== undefined && before !== hash) verdict = { ok: false, reason: `label "${rec.label}" hashes to ${hash}, but an earlier query with that label hashed to ${before}` };
    else labels.set(rec.label, hash);
  }
  if (verdict.ok) return { status: 'passed' };
  const actual = showActual(result);
  return { status: 'failed', reason: verdict.reason, expected: rec.expected, actual, resultHash: resultHash(actual, ordered) };
}

/**
 * A one-column result whose text values span lines (EXPLAIN's plan) becomes
 * one row per non-empty line, so expected blocks (which cannot hold blank
 * lines) list the plan line by line.
 */
export function splitMultilineText(result: EngineResult & { kind: 'rows' }): EngineResult & { kind: 'rows' } {
  if (result.kinds.length !== 1 || !result.rows.some((r) => typeof r[0] === 'string' && r[0].includes('\n'))) return result;
  const rows = result.rows.flatMap((r) => (typeof r[0] === 'string' ? r[0].split('\n').filter((l) => l.trim() !== '').map((l) => [l]) : [r]));
  return { ...result, rows };
}
