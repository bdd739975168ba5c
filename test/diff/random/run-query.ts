/**
 * Runs one generated query on DuckDB and on eddy and classifies the outcome:
 * pass, mismatch (a multiset difference, or eddy's rows not sorted as the
 * ORDER BY asks), eddy error, eddy timeout, or discarded (DuckDB rejects the
 * query). Ordered results are checked as a multiset (floats within 1e-9)
 * plus eddy's own rows being sorted by the ORDER BY keys, which is robust to
 * ties and to floats that differ in the last bits between the engines.
 */
import type { TableEnvironment } from '../../../src/index.js';
import { Table as ArrowTable, type RecordBatch } from 'apache-arrow';
import { diffResults, fromArrow, normalizeValue, type ResultSet } from '../../helpers/compare.js';
import { duckKind, type Duck } from '../../helpers/duckdb.js';
import type { OrderKey, Query } from './model.js';

/** The result of running one query on both engines. */
export type Outcome =
  | { readonly kind: 'pass'; readonly rows: number }
  /** DuckDB rejected the query: it does not count. */
  | { readonly kind: 'discard'; readonly reason: string; readonly eddyAccepted: boolean }
  | { readonly kind: 'mismatch'; readonly detail: string }
  | { readonly kind: 'error'; readonly errorName: string; readonly message: string }
  | { readonly kind: 'timeout'; readonly ms: number };

/** The engines a query runs on. */
export interface QueryEngines {
  readonly env: TableEnvironment;
  readonly duck: Duck;
}

const TOLERANCE = 1e-9;

/** Compares two non-null values of one column exactly (eddy sorted its own values, so no tolerance). */
function cmpValue(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a === b ? 0 : a < b ? -1 : 1;
  if (typeof a === 'bigint' || typeof b === 'bigint') {
    const x = BigInt(a as bigint | number);
    const y = BigInt(b as bigint | number);
    return x === y ? 0 : x < y ? -1 : 1;
  }
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  const sa = String(a);
  const sb = String(b);
  return sa === sb ? 0 : sa < sb ? -1 : 1;
}

/** The first place where `rows` break the ORDER BY keys, or undefined when sorted. */
export function orderViolation(rows: readonly (readonly unknown[])[], keys: readonly OrderKey[]): string | undefined {
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1]!;
    const b = rows[i]!;
    for (const k of keys) {
      const x = a[k.col];
      const y = b[k.col];
      const nullsFirst = k.nulls === 'FIRST';
      let c: number;
      if (x === null || y === null) c = x === y ? 0 : (x === null) === nullsFirst ? -1 : 1;
      else c = cmpValue(x, y) * (k.desc ? -1 : 1);
      if (c < 0) break;
      if (c > 0) return `rows ${i - 1} and ${i} are out of order on column ${k.col + 1}: (${a.map(String).join(', ')}) before (${b.map(String).join(', ')})`;
    }
  }
  return undefined;
}

function errorOf(e: unknown): { name: string; message: string } {
  if (e instanceof Error) return { name: e.constructor?.name && e.constructor.name !== 'Error' ? e.constructor.name : e.name, message: e.message };
  return { name: 'unknown', message: String(e) };
}

/** Results above this many rows are not compared (a minimizer step can turn a join into a cross product). */
export const MAX_ROWS = 200_000;

/** DuckDB's result, or undefined when it has more than MAX_ROWS rows (read as a stream, so huge results never materialize). */
async function duckRows(duck: Duck, sql: string): Promise<ResultSet | undefined> {
  const reader = await duck.conn.streamAndReadUntil(sql, MAX_ROWS + 1);
  if (!reader.done || reader.currentRowCount > MAX_ROWS) return undefined;
  const names = reader.columnNames();
  const kinds = reader.columnTypes().map(duckKind);
  return { names, kinds, rows: reader.getRowsJS().map((r) => r.map((v, i) => normalizeValue(v, kinds[i]!))) };
}

/** eddy's result, streamed; undefined when it passes `max` rows (the stream is cancelled). */
async function eddyRows(env: TableEnvironment, sql: string, max: number, controller: AbortController): Promise<ResultSet | undefined> {
  const table = env.sql(sql);
  const batches: RecordBatch[] = [];
  let rows = 0;
  for await (const b of table.stream({ signal: controller.signal })) {
    batches.push(b);
    rows += b.numRows;
    if (rows > max) { controller.abort(); return undefined; }
  }
  if (batches.length === 0) return fromArrow(await table.collect({ signal: controller.signal }));
  // Batches may differ in schema details (a dictionary in one, plain strings in the next): normalize each.
  const parts = batches.map((b) => fromArrow(new ArrowTable(b)));
  return { names: parts[0]!.names, kinds: parts[0]!.kinds, rows: parts.flatMap((p) => p.rows) };
}

/** Runs `sql` (the rendering of `query`) on both engines and compares; each engine gets `timeoutMs`. */
export async function runQuery(engines: QueryEngines, query: Query, sql: string, timeoutMs: number): Promise<Outcome> {
  let expected: ResultSet | undefined;
  let duckTimedOut = false;
  const duckTimer = setTimeout(() => { duckTimedOut = true; engines.duck.conn.interrupt(); }, timeoutMs);
  try {
    expected = await duckRows(engines.duck, sql);
  } catch (e) {
    if (duckTimedOut) return { kind: 'discard', reason: `DuckDB took over ${timeoutMs} ms`, eddyAccepted: true };
    let eddyAccepted = false;
    try { engines.env.sql(sql); eddyAccepted = true; } catch { /* both reject */ }
    return { kind: 'discard', reason: errorOf(e).message.split('\n')[0]!, eddyAccepted };
  } finally {
    clearTimeout(duckTimer);
  }
  if (expected === undefined) return { kind: 'discard', reason: `DuckDB's result has over ${MAX_ROWS} rows`, eddyAccepted: true };
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; controller.abort(); }, timeoutMs);
  let actual: ResultSet | undefined;
  try {
    actual = await eddyRows(engines.env, sql, Math.max(MAX_ROWS, expected.rows.length), controller);
  } catch (e) {
    if (timedOut) return { kind: 'timeout', ms: timeoutMs };
    const { name, message } = errorOf(e);
    return { kind: 'error', errorName: name, message };
  } finally {
    clearTimeout(timer);
  }
  if (actual === undefined) return { kind: 'mismatch', detail: `row count differs: eddy returned over ${MAX_ROWS} rows, expected ${expected.rows.length}` };
  const diff = diffResults(actual, expected, { tolerance: TOLERANCE });
  if (diff !== undefined) return { kind: 'mismatch', detail: diff };
  if (query.order && query.order.length > 0) {
    const v = orderViolation(actual.rows, query.order);
    if (v !== undefined) return { kind: 'mismatch', detail: `eddy's rows are not in ORDER BY order: ${v}` };
  }
  return { kind: 'pass', rows: actual.rows.length };
}

/** True if two failing outcomes are the same kind of failure (for the minimizer). */
export function sameFailure(a: Outcome, b: Outcome): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'error' && b.kind === 'error') return a.errorName === b.errorName;
  if (a.kind === 'mismatch' && b.kind === 'mismatch') return a.detail.startsWith('eddy\'s rows are not') === b.detail.startsWith('eddy\'s rows are not');
  return a.kind !== 'pass' && a.kind !== 'discard';
}

/** True for outcomes that count as failures. */
export function isFailure(o: Outcome): boolean {
  return o.kind === 'mismatch' || o.kind === 'error' || o.kind === 'timeout';
}

/** A one-paragraph description of an outcome. */
export function describeOutcome(o: Outcome): string {
  switch (o.kind) {
    case 'pass': return `pass (${o.rows} rows)`;
    case 'discard': return `discarded: DuckDB rejects it (${o.reason})${o.eddyAccepted ? '; eddy accepts it' : ''}`;
    case 'mismatch': return `MISMATCH\n${o.detail}`;
    case 'error': return `EDDY ERROR (DuckDB accepts the query): ${o.errorName}: ${o.message}`;
    case 'timeout': return `EDDY TIMEOUT after ${o.ms} ms`;
  }
}
