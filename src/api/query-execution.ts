/**
 * The run path of a query with the cache (FLIP-36): plan with cache
 * substitution; drop cache entries found broken before running; take the
 * writes of the plan's cache sinks (single flight: when another query is
 * writing one, wait for it to end and re-plan, so it is computed once); run;
 * commit the sinks' entries after the job succeeded, or discard them when it
 * failed or was cancelled. When a cache source finds a partition gone
 * (CacheLostError), the entry is invalidated with a "cache lost" event, and
 * the query is re-planned — the mark is still there, so a sink re-creates
 * the entry — and re-run once; a second loss in the same query is an error.
 * Running queries are tracked (running-queries.ts) so that env.close() can
 * cancel them and wait for them. Which graph the calling thread runs, and the worker stages: run-graphs.ts.
 */
import type { RecordBatch } from 'apache-arrow';
import { CacheError, CancelledError, InternalError } from '../relnode/errors.js';
import { visit, type RelNode } from '../relnode/rel.js';
import { executeJob, type JobExecution } from '../exec/runtime.js';
import { CacheLostError } from '../cache/errors.js';
import type { PendingEntry } from '../cache/entry.js';
import type { CacheServiceManager } from '../cache/manager.js';
import { cacheSinkOperator } from '../cache/sink.js';
import { planQuery, type PhysicalPlan, type PlanOptions } from '../planner/planner.js';
import { RunningQueries } from './running-queries.js';
import { PhysicalPlans } from './physical-plans.js';
import { explainAnalyzeText, type RanGraph } from './query-explain.js';
import { RunGraphs, type WorkerStats } from './run-graphs.js';
import type { StageRunner } from '../planner/ship-run.js';

/** The environment settings the executor plans and runs with. */
export interface ExecutorSettings {
  readonly parallelism: number;
  readonly batchSize: number;
  readonly optimize: boolean;
  /** The round cap of iterations without maxRounds. */
  readonly maxIterationRounds: number;
  /** The memory limit of each query's operator state, in bytes (read per query: SET can change it). */
  readonly memoryLimit: () => number;
  /** Worker threads for parallelism > 1 (docs/multi-core.md); default 'auto'. */
  readonly workers?: 'auto' | 'large' | 'always' | 'off';
  /** Whether the calling thread runs a share of each worker stage (EnvironmentOptions.callingThreadShare); default true. */
  readonly callingThreadShare?: boolean;
  /** The stamp a planned query may be reused under (physical-plans.ts; the binding generation); absent: never reused. */
  readonly planStamp?: () => string;
  /** Tests of the parallel graph: a run without a worker stage runs the graph at `parallelism` on this thread (EnvironmentOptions.parallelGraph). */
  readonly parallelGraph?: boolean;
}

/** Run options of one query. */
export interface ExecuteOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (rowsRead: number) => void;
  /** Sees each attempt's job, plan and the graph it runs on this thread (EXPLAIN ANALYZE reads the metrics of the last one). */
  readonly onJob?: (job: JobExecution, plan: PhysicalPlan, ran: RanGraph) => void;
}

/** Re-planning rounds before a query gives up on the cache (each round drops a broken entry or waits for a write). */
const MAX_ROUNDS = 50;
/** Re-runs after entries vanished mid-query because they were invalidated (not lost) while it ran. */
const MAX_RERUNS = 8;

/** What went wrong in the attempts of one query so far. */
interface Failures {
  readonly losses: string[];
  reruns: number;
}

interface PreparedRun {
  readonly plan: PhysicalPlan;
  readonly pendings: readonly PendingEntry[];
  /** Returns a reused (or kept) plan's graph for the next run (physical-plans.ts). */
  readonly release?: () => void;
}

/** Plans and runs queries of one environment through its cache. */
export class QueryExecutor {
  private readonly running = new RunningQueries();
  /** The graph each run executes on this thread, after its worker stages (run-graphs.ts). */
  private readonly graphs: RunGraphs;
  /** Plans kept for reuse by logical tree (physical-plans.ts). */
  private readonly plans = new PhysicalPlans();
  constructor(readonly manager: CacheServiceManager, private readonly settings: ExecutorSettings) {
    this.graphs = new RunGraphs(settings, () => this.planOptions(new Map()));
  }

  /** Queries running now. */
  get runningQueries(): number {
    return this.running.size;
  }

  /** Plans without running (EXPLAIN): cache nodes are shown, nothing is written. */
  plan(tree: RelNode): PhysicalPlan {
    return planQuery(tree, this.planOptions(new Map()));
  }

  private planOptions(pendings: ReadonlyMap<string, PendingEntry>): PlanOptions {
    const m = this.manager;
    return {
      parallelism: this.settings.parallelism,
      optimize: this.settings.optimize,
      maxIterationRounds: this.settings.maxIterationRounds,
      iterationSpill: m.spillArea,
      cache: {
        lookup: m,
        bindings: {
          source: (node) => {
            const s = m.sourceFor(node.entryId, node.projection, node.pushedFilters);
            if (s === undefined) throw new CacheLostError(node.entryId, 'it was dropped while the query was planned');
            return s;
          },
          sink: (node) => (subtask) => {
            const p = pendings.get(node.entryId);
            if (p === undefined) throw new InternalError(`cache sink for ${node.entryId} runs without a pending entry`);
            return cacheSinkOperator(p, subtask);
          },
        },
      },
    };
  }

  /** Streams a query's result; a lost cache entry before the first batch is recovered by re-running. */
  async *stream(tree: RelNode, o: ExecuteOptions = {}): AsyncGenerator<RecordBatch> {
    const q = this.running.begin(o.signal);
    const run = { ...o, signal: q.signal };
    const f: Failures = { losses: [], reruns: 0 };
    try {
      for (;;) {
        let yielded = false;
        try {
          for await (const b of this.attempt(tree, run)) {
            yielded = true;
            q.suspend(true);
            yield b;
            q.suspend(false);
            q.check();
          }
          return;
        } catch (e) {
          this.recover(q.explain(e), f, yielded);
        }
      }
    } finally {
      q.end();
    }
  }

  /** Runs a query to completion; a lost cache entry is recovered by re-running (partial output is discarded). */
  collect(tree: RelNode, o: ExecuteOptions = {}): Promise<RecordBatch[]> {
    return this.complete(tree, o, true);
  }

  /** Runs a query to completion, keeping its batches (`keep`) or dropping each as it comes. */
  private async complete(tree: RelNode, o: ExecuteOptions, keep: boolean): Promise<RecordBatch[]> {
    const q = this.running.begin(o.signal);
    const run = { ...o, signal: q.signal };
    const f: Failures = { losses: [], reruns: 0 };
    try {
      for (;;) {
        const out: RecordBatch[] = [];
        try {
          for await (const b of this.attempt(tree, run)) if (keep) out.push(b);
          return out;
        } catch (e) {
          this.recover(q.explain(e), f, false);
        }
      }
    } finally {
      q.end();
    }
  }

  /** Cancels the running queries and waits for them (env.close); later queries fail at once. */
  async close(): Promise<void> {
    await this.running.close();
    await this.graphs.close();
  }

  /** Worker threads alive now, stages run on them, and their CPU milliseconds (docs/multi-core.md). */
  get workerStats(): WorkerStats {
    return this.graphs.workerStats;
  }

  /** @internal The worker stages' runner, once started (benches and tests read or replace it: bench/multi-core.ts, test/workers/calling-share.test.ts). */
  get stageRunner(): StageRunner | undefined {
    return this.graphs.stageRunner;
  }

  set stageRunner(r: StageRunner | undefined) {
    this.graphs.stageRunner = r;
  }

  /** EXPLAIN (docs/table-api.md): what a run would execute, without running it (run-graphs.ts). */
  explain(tree: RelNode): string {
    const p = this.plan(tree);
    return this.graphs.explain(p, sinksOf(p.optimized).size > 0);
  }

  /**
   * Computes a marked table now (eager `CACHE TABLE`): a no-op when its entry exists. The result
   * batches are dropped as they come (the cache sink keeps the rows): collected, they stayed alive
   * next to the entry's own blocks until the end, so building the suite's 157 MB `j` held twice its
   * size in fresh ArrayBuffers, and V8, which counts external bytes allocated since the last
   * mark-compact, ran ~3 more mark-compacts per build (bench/cache-build.ts).
   */
  async materialize(tree: RelNode, signal?: AbortSignal): Promise<void> {
    if (this.manager.entryFor(tree) !== undefined) return;
    await this.complete(tree, signal ? { signal } : {}, false);
  }

  /**
   * EXPLAIN ANALYZE: runs the query as a run does (through the cache, worker stages included) and
   * annotates the graph this thread ran with per-operator metrics (query-explain.ts).
   */
  async explainAnalyze(tree: RelNode, signal?: AbortSignal): Promise<string> {
    let last: { job: JobExecution; plan: PhysicalPlan; ran: RanGraph } | undefined;
    const start = performance.now();
    const batches = await this.collect(tree, { ...(signal ? { signal } : {}), onJob: (job, plan, ran) => { last = { job, plan, ran }; } });
    const total = performance.now() - start;
    if (last === undefined) throw new InternalError('EXPLAIN ANALYZE ran no job');
    const rows = batches.reduce((n, b) => n + b.numRows, 0);
    return explainAnalyzeText(last.plan, last.ran, last.job, this.settings.parallelism, rows, total);
  }

  /**
   * Handles a failed attempt: rethrows anything but a recoverable cache loss. An entry that was
   * merely invalidated while the query read it (not lost) allows a re-run without counting as a loss.
   */
  private recover(e: unknown, f: Failures, yielded: boolean): void {
    if (!(e instanceof CacheLostError)) throw e;
    const losses = f.losses;
    if (this.manager.lost(e.entryId, e.detail, e.store)) {
      this.manager.dropBroken(); // entries that lost data with it (same killed instance)
      losses.push(e.message);
    } else if (++f.reruns > MAX_RERUNS) {
      throw new CacheError(`${e.message}; cache entries kept being dropped while the query ran, so it was not re-run again`, { cause: e });
    }
    if (losses.length > 1) {
      throw new CacheError(`the query lost cached data twice: first ${losses[0]}; then, re-running it without that entry, ${losses[1]}. It was not retried again; run it again (lost entries are re-created from the sources)`, { cause: e });
    }
    if (yielded) throw new CacheError(`${e.message}, after part of the result was already streamed; run the query again (the entry is re-created from the sources)`, { cause: e });
  }

  /** One attempt: prepare, run, commit or discard the cache writes. */
  private async *attempt(tree: RelNode, o: ExecuteOptions): AsyncGenerator<RecordBatch> {
    // A reused plan is at hand without awaiting anything (a small query run again: no promise, no microtask).
    const run = this.reused(tree) ?? await this.prepare(tree, o.signal);
    let ok = false;
    try {
      const ran = this.graphs.here(run.plan, run.pendings.length > 0) ?? await this.graphs.withStages(run.plan, o.signal);
      const job = executeJob(ran.graph, {
        batchSize: this.settings.batchSize, memoryLimit: this.settings.memoryLimit(), ...(o.signal ? { signal: o.signal } : {}), ...(o.onProgress ? { onProgress: o.onProgress } : {}),
      });
      o.onJob?.(job, run.plan, ran);
      for await (const b of job) yield b;
      ok = true;
    } finally {
      run.release?.();
      if (ok) for (const p of run.pendings) await this.manager.commit(p);
      else await Promise.all(run.pendings.map((p) => this.manager.abort(p)));
    }
  }

  /**
   * The stamp under which plans may be reused now (physical-plans.ts): the binding generation and
   * the cache manager's version (a mark, entry or write that appears or goes plans again); none
   * under the test switch that caches every subtree.
   */
  private reuseStamp(): string | undefined {
    const stamp = this.settings.planStamp;
    if (stamp === undefined || this.manager.cacheAllSubtrees) return undefined;
    return `${stamp()}/c${this.manager.version}`;
  }

  /**
   * The plan kept for `tree` (physical-plans.ts), leased, when it may be reused now; else undefined.
   * A plan reading cache entries first checks them as `prepare` does (a missing block: the entry is
   * dropped with a "cache lost" event, and the query plans again) and counts the hits.
   */
  private reused(tree: RelNode): PreparedRun | undefined {
    const stamp = this.reuseStamp();
    if (stamp === undefined) return undefined;
    const reused = this.plans.acquire(tree, stamp);
    if (reused === undefined) return undefined;
    const sources = reused.plan.cache?.sources ?? [];
    if (sources.length > 0) {
      if (this.manager.dropBroken(sources) > 0) { reused.release(); return undefined; }
      this.manager.recordHits(sources);
    }
    return { plan: reused.plan, pendings: [], release: reused.release };
  }

  /** Plans until the plan's cache entries are intact and its cache writes are ours (after `reused` found none). */
  private async prepare(tree: RelNode, signal: AbortSignal | undefined): Promise<PreparedRun> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const stamp = this.reuseStamp(); // per round: a dropped entry or a finished write changes it
      const pendings = new Map<string, PendingEntry>();
      const plan = planQuery(tree, this.planOptions(pendings));
      const c = plan.cache!;
      if (this.manager.dropBroken(c.sources) > 0) continue;
      if (stamp !== undefined) {
        const kept = this.plans.keep(tree, stamp, plan);
        if (kept !== undefined) { this.manager.recordHits(c.sources); return { plan, pendings: [], release: kept.release }; }
      }
      const live = sinksOf(plan.optimized);
      let busy: Promise<void> | undefined;
      for (const s of c.sinks) {
        const inner = live.get(s.entryId);
        if (inner === undefined) continue; // the optimizer removed it (e.g. under an empty join side)
        const r = this.manager.beginWrite(s.node, inner);
        if ('busy' in r) { busy = r.busy; break; }
        pendings.set(s.entryId, r.pending);
      }
      if (busy !== undefined) {
        await Promise.all([...pendings.values()].map((p) => this.manager.abort(p)));
        await untilSettledOrAborted(busy, signal);
        continue;
      }
      this.manager.recordHits(c.sources);
      return { plan, pendings: [...pendings.values()] };
    }
    // Should not happen; the query still runs, without the cache.
    return { plan: planQuery(tree, { parallelism: this.settings.parallelism, optimize: this.settings.optimize, maxIterationRounds: this.settings.maxIterationRounds }), pendings: [] };
  }
}

/** The CacheSinks of an optimized plan: entry id → ids of the entries read below it. */
function sinksOf(plan: RelNode): Map<string, string[]> {
  const out = new Map<string, string[]>();
  visit(plan, (n) => {
    if (n.kind !== 'CacheSink') return;
    const reads: string[] = [];
    visit(n.input, (m) => { if (m.kind === 'CacheSource') reads.push(m.entryId); });
    out.set(n.entryId, [...new Set(reads)]);
  });
  return out;
}

/** Waits for `p`, or throws CancelledError when `signal` aborts first. */
async function untilSettledOrAborted(p: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return p;
  if (signal.aborted) throw new CancelledError('query cancelled');
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new CancelledError('query cancelled while waiting for another query to write a cache entry'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([p, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}
