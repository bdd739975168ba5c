/**
 * The suite's DuckDB, behind one small interface so it can run in a process of its own (the
 * default, ./duck-process.ts) or in the suite's process (`--duckdb-in-process`, this file).
 *
 * Why its own process (faults, 2026-12-07): DuckDB (1.5 on Linux) calls glibc's `malloc_trim`
 * whenever one of its worker threads has been idle for 0.5 s, when its thread count changes and
 * when a thread exits (Allocator::ThreadFlush / FlushAll). `malloc_trim` is process-wide: besides
 * trimming the top of the heap it `madvise(MADV_DONTNEED)`s every free page of every glibc arena —
 * including the main arena, where V8 keeps eddy's ArrayBuffer backing stores (calloc). DuckDB's
 * own data lives in its bundled jemalloc and is not touched. So with DuckDB in the rotation, every
 * eddy run that followed a DuckDB run (or overlapped a DuckDB thread's idle flush) re-faulted its
 * reused heap memory: calloc memsets chunks it no longer knows to be zero, and each page costs a
 * fault and a kernel zeroing — 3,000–13,000 minor faults and 20–80 ms of system CPU per eddy run
 * on TPC-H Q3/Q10/Q21 at SF 1, against tens with eddy alone or with `malloc_trim` made a no-op
 * (LD_PRELOAD shim). That is a cost of sharing a process with DuckDB, not of eddy, and it does not
 * hit DuckDB back (jemalloc). In its own process DuckDB keeps its behaviour and neither engine's
 * allocator, GC or helper threads touch the other's runs.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { RunUsage } from '../lib/run-usage.js';
import type { DataSet } from './data.js';
import { loadDuckDbTables } from './data.js';
import { duckPlain, type DuckPlain } from './duck-plain.js';

/** One timed DuckDB query: the answer (normalised when read) and, when DuckDB runs in its own process, what the run cost that process. */
export interface DuckRun {
  readonly answer: () => DuckPlain;
  /** Measured in DuckDB's own process (undefined in-process: the caller measures its own process). */
  readonly usage?: RunUsage;
}

/** A DuckDB database with the TPC-H tables loaded. */
export interface DuckSession {
  /** Where DuckDB runs. */
  readonly where: 'own process' | 'suite process';
  /** The id of the process DuckDB runs in. */
  readonly pid: number;
  /** Runs statements (untimed); resolves with the wall ms DuckDB took. */
  exec(sql: string): Promise<number>;
  /** A small answer as rows of JS values (settings, version, counts). */
  rows(sql: string): Promise<unknown[][]>;
  /** One query run to its full answer; `signal` interrupts it. */
  query(sql: string, signal?: AbortSignal): Promise<DuckRun>;
  close(): Promise<void>;
}

/** Runs `sql` on `con`, interrupted when `signal` fires. */
export async function interruptible<T>(con: DuckDBConnection, signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
  const stop = (): void => con.interrupt();
  signal?.addEventListener('abort', stop, { once: true });
  try { return await run(); } finally { signal?.removeEventListener('abort', stop); }
}

/** DuckDB in the suite's own process, tables loaded from `data`'s Parquet files. */
export async function openDuckInProcess(data: DataSet): Promise<DuckSession> {
  const instance = await DuckDBInstance.create(':memory:');
  const con = await instance.connect();
  await loadDuckDbTables(data, con);
  return {
    where: 'suite process',
    pid: process.pid,
    exec: async (sql) => { const t0 = performance.now(); await con.run(sql); return performance.now() - t0; },
    rows: async (sql) => (await con.runAndReadAll(sql)).getRowsJS() as unknown[][],
    query: async (sql, signal) => {
      const reader = await interruptible(con, signal, () => con.runAndReadAll(sql));
      return { answer: () => duckPlain(reader) };
    },
    close: async () => { con.closeSync(); instance.closeSync(); },
  };
}
