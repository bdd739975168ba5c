/**
 * The engine configurations the suite runs side by side, each as a factory
 * of per-query runners: eddy through `env.sql(text).collect()` at
 * parallelism 1 and 2, without and with `cache()` (the warm-up fills the
 * cache, the timed runs are served from it); DuckDB at 1 and 2 threads (one
 * instance, `SET threads` before each run, not timed); Arquero for the
 * queries bench/lib/arquero-queries.ts expresses (Q1, Q3, Q6); hand-written
 * typed-array loops for Q1 and Q6. A run gets an AbortSignal that fires at
 * the suite's timeout (eddy takes it; DuckDB is interrupted). DuckDB runs in a
 * process of its own by default (./duck-session.ts says why): its runners
 * report the figures measured there (`Runner.usageOf`).
 *
 * eddy's runners also report the CPU of the threads that run the query —
 * the calling thread and each parallel share — so the report can give
 * parallelism 2's speed-up in CPU along its critical path (run.ts
 * `criticalPath`): the process's CPU sums the threads and cannot show a
 * speed-up.
 */
import type { Table as ArrowTable } from 'apache-arrow';
import type { TableEnvironment } from '../../src/api/environment.js';
import type { QueryExecutor } from '../../src/api/query-execution.js';
import { threadCpuMs } from '../../src/exec/workers/thread-cpu.js';
import type { TpchTableName } from '../../src/io/tpch/index.js';
import type { AqTable } from '../lib/arquero-data.js';
import type { RunUsage } from '../lib/run-usage.js';
import { q1Arquero, q3Arquero, q6Arquero } from '../lib/arquero-queries.js';
import { q6HandLoop } from '../lib/hand-loop.js';
import { plainFromArrow, plainFromObjects, type PlainResult } from '../lib/verify.js';
import type { DuckRun, DuckSession } from './duck-session.js';
import type { SuiteEngine } from './args.js';
import { q1HandLoop } from './hand-q1.js';
import type { SuiteQuery } from './queries.js';

/** How one engine runs one query. `run` is timed; `normalize` and `before` are not. */
export interface Runner {
  readonly run: (signal: AbortSignal) => Promise<unknown>;
  /** The answer as plain rows; `dateColumns` are the reference's DATE columns. */
  readonly normalize: (raw: unknown, dateColumns: readonly string[]) => PlainResult;
  readonly before?: () => Promise<void>;
  /** CPU used so far by the threads that run this engine's queries (undefined: not measurable here). */
  readonly threadCpu?: () => ThreadCpu | undefined;
  /** The run's figures as measured in the process the engine runs in, when that is not this one (DuckDB in its own process). */
  readonly usageOf?: (raw: unknown) => RunUsage | undefined;
}

/** CPU ms used so far by an engine's threads. */
export interface ThreadCpu {
  /** The calling thread's. */
  readonly calling: number;
  /** Each parallel share's (eddy at parallelism ≥ 2: one per share of its worker stages; none at 1). */
  readonly shares: readonly number[];
  /** Share 0 runs on the calling thread (eddy's `callingThreadShare`): its CPU is also in `calling`. */
  readonly share0OnCalling: boolean;
}

/** One engine configuration. */
export interface EngineDef {
  readonly id: string;
  readonly label: string;
  /** The runner for `q`, or undefined when the engine cannot express it. */
  readonly runner: (q: SuiteQuery) => Runner | undefined;
}

/** Human names of the configurations (tables, charts). */
export const ENGINE_LABEL: Record<SuiteEngine, string> = {
  'duckdb-1t': 'DuckDB 1 thread', 'duckdb-2t': 'DuckDB 2 threads', 'eddy-p1': 'eddy p1', 'eddy-p2': 'eddy p2',
  'eddy-cached-p1': 'eddy p1 cached', 'eddy-cached-p2': 'eddy p2 cached', arquero: 'Arquero', 'hand-loop': 'hand loop',
};

/** What the runners need. */
export interface EngineContext {
  readonly tables: Readonly<Record<TpchTableName, ArrowTable>>;
  /** eddy environments by configuration (parallelism 1 / 2; the cached ones are separate environments). */
  readonly envs: Partial<Record<SuiteEngine, TableEnvironment>>;
  readonly duck: DuckSession;
  readonly aq?: Record<string, AqTable>;
}

/** A DuckDB runner on `duck` at `threads` threads (`SET threads` before each run, untimed). */
export function duckRunner(duck: DuckSession, threads: number, sql: string): Runner {
  return {
    before: async () => { await duck.exec(`SET threads = ${threads}`); },
    run: (signal) => duck.query(sql, signal),
    normalize: (raw) => (raw as DuckRun).answer(),
    usageOf: (raw) => (raw as DuckRun).usage,
  };
}

/** The calling thread's CPU and each share's (`workerStats`, per share; StageRunner.callingShare: share 0 is the calling thread's). */
function eddyThreadCpu(env: TableEnvironment): () => ThreadCpu | undefined {
  const executor = (env as unknown as { executor: { workerStats: QueryExecutor['workerStats']; stageRunner?: { callingShare: boolean } } }).executor;
  return () => {
    const calling = threadCpuMs();
    if (calling === undefined) return undefined;
    return { calling, shares: executor.workerStats.workerCpuMs, share0OnCalling: executor.stageRunner?.callingShare === true };
  };
}

const arrowPlain = (raw: unknown, dates: readonly string[]): PlainResult => plainFromArrow(raw as ArrowTable, dates);
const asIs = (raw: unknown): PlainResult => raw as PlainResult;

const ARQUERO: Record<string, (t: Record<string, AqTable>) => AqTable> = { q1: q1Arquero, q3: q3Arquero, q6: q6Arquero };

/** The definition of one configuration over `ctx`. */
export function engineDef(id: SuiteEngine, ctx: EngineContext): EngineDef {
  const label = ENGINE_LABEL[id];
  switch (id) {
    case 'duckdb-1t':
    case 'duckdb-2t': {
      const threads = id === 'duckdb-1t' ? 1 : 2;
      return { id, label, runner: (q) => duckRunner(ctx.duck, threads, q.sql) };
    }
    case 'eddy-p1':
    case 'eddy-p2':
    case 'eddy-cached-p1':
    case 'eddy-cached-p2': {
      const env = ctx.envs[id];
      if (!env) throw new Error(`no environment for ${id}`);
      const cached = id.startsWith('eddy-cached');
      return {
        id, label,
        runner: (q) => ({
          run: (signal) => (cached ? env.sql(q.sql).cache() : env.sql(q.sql)).collect({ signal }),
          normalize: arrowPlain,
          threadCpu: eddyThreadCpu(env),
        }),
      };
    }
    case 'arquero':
      return {
        id, label,
        runner: (q) => {
          const f = ARQUERO[q.id];
          const aqt = ctx.aq;
          if (!f || !aqt) return undefined;
          return {
            run: async () => { const r = f(aqt); return { names: r.columnNames(), rows: r.objects() }; },
            normalize: (raw, dates) => {
              const { names, rows } = raw as { names: string[]; rows: Record<string, unknown>[] };
              return plainFromObjects(rows, names, dates);
            },
          };
        },
      };
    case 'hand-loop':
      return {
        id, label,
        runner: (q) => {
          if (q.id === 'q1') return { run: async () => q1HandLoop(ctx.tables.lineitem), normalize: asIs };
          if (q.id === 'q6') return { run: async () => q6HandLoop(ctx.tables.lineitem), normalize: (raw) => plainFromObjects([raw as Record<string, number>], ['revenue'], []) };
          return undefined;
        },
      };
  }
}
