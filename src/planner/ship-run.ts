/**
 * The coordinator of multi-core execution (docs/multi-core.md): before a query's job runs on
 * the calling thread, the aggregates that distribute over a large in-memory scan run as stages
 * on the worker pool, and each is replaced in the plan by a scan of its result.
 *
 * Decision: a stage is two barriers, not a stream — (1) every worker runs the partial aggregate
 * over its share of the morsels (dealt round-robin: ship-tables.ts) and replies with its rows split by the hash of the group keys;
 * (2) worker j runs the final aggregate over part j of every reply (a hash exchange by moving
 * buffers through the coordinator) and replies with its groups. An aggregate without group
 * keys skips (2): its few partial rows are combined by the rest of the plan on this thread.
 * A partitioned stage (many groups, read straight from its scan) is one round: every worker
 * aggregates the rows whose key hashes to it, reading every morsel.
 * A stage also covers the filters and projections right above its aggregate (a HAVING), and a
 * join side that every worker would otherwise compute whole runs first as a one-round gather
 * stage when its filters shrink it (ship-stages.ts). Stages run bottom-up (TPC-H Q18's
 * IN-subquery aggregate first, then the outer one, whose semi join now reads the first stage's
 * few rows — and is weighed on them: with the model on, those 57 rows leave it too little work to
 * ship), and whatever is left runs on this thread at parallelism 1. A stage's result replaces
 * every occurrence of a repeated aggregate (ship-shared.ts: TPC-H Q11, Q15), as one thread's
 * lowering shares it.
 * The distributed scan may also read Parquet files: their row groups are dealt to the shares,
 * each of which opens the files and decodes its own (ship-files.ts); every other scan of a stage
 * reads an in-memory table.
 * A stage that cannot ship (a cache node, a table function, another non-memory source) leaves its
 * aggregate to the calling thread; results are the same either way. Which candidate runs next,
 * and which stay here because they would not pay, is ship-choose.ts's (and ship-cost.ts's) choice.
 */
import type * as arrow from 'apache-arrow';
import type { RecordBatch } from 'apache-arrow';
import { CancelledError } from '../relnode/errors.js';
import * as rel from '../relnode/rel.js';
import type { RelNode, Scan } from '../relnode/rel.js';
import type { Schema } from '../relnode/types.js';
import type { TableSource } from '../io/source.js';
import { isMemorySource, memorySource } from '../io/memory.js';
import { WorkerPool } from '../exec/workers/pool.js';
import { fromWireBatch, NotShippableError, transferables, type WireBatch, type WireData } from '../exec/workers/wire.js';
import { encodePlan } from './ship-serialize.js';
import type { AggregateStage } from './ship-stages.js';
import { replaceNodes } from './ship-shared.js';
import { chooseCoPartition, cutCoPartition, groupsOnOneWorker, restrictedKey } from './ship-copartition.js';
import { nextStage, planStages, type ChooseContext, type StageDecision } from './ship-choose.js';
import { morselRanges, morselRows, SharedTables, type Morsels, type ShippedTable } from './ship-tables.js';
import type { StageResult, StageTask } from './ship-protocol.js';
import { ColumnCache, MISSING_COLUMN, SentColumns } from './ship-column-cache.js';
import { runStageTask } from './ship-task.js';
import { StageGraphs } from './ship-graph-cache.js';
import { FirstStages, StagelessPlans } from './ship-memo.js';
import { markStageResult, stageResultOf } from './ship-results.js';
import { threadCpuMs, wallNow } from '../exec/workers/thread-cpu.js';
import { keepTrace, roundTraces, type RoundTrace, type StageClock, type StageTrace } from './ship-trace.js';
import { pathToFileURL } from 'node:url';
import { dealFileParts, dealtFiles, dealtPartitions, shipFile, type FileMorsels } from './ship-files.js';

export type { RoundTrace, StageTrace } from './ship-trace.js';

/** Scans smaller than this run on the calling thread (a stage costs a few messages and copies). */
export const DEFAULT_WORKER_MIN_ROWS = 200_000;

/** How one query uses the workers. */
export interface StageOptions {
  /** The smallest scan (rows) worth distributing. */
  readonly minRows: number;
  /** Round-1 rows up to which a keyed stage's final aggregate runs on the calling thread (DEFAULT_FINAL_HERE_ROWS). */
  readonly finalHereRows: number;
  /** Keep stages that do not pay on the calling thread (ship-cost.ts; `workers: 'auto'`). Default false: every candidate ships. */
  readonly costed?: boolean;
  readonly batchSize: number;
  readonly memoryLimit?: number;
  readonly signal?: AbortSignal;
  /** This run's own decisions and stage traces (EXPLAIN ANALYZE); `stats` keeps the latest run's, maybe another query's. */
  readonly record?: { decisions: StageDecision[]; traces: StageTrace[] };
}

/** The worker entry module: the built JavaScript next to this file, or (from the TypeScript sources) `EDDY_SHIP_WORKER` if set, else the TypeScript source under tsx. */
function entryUrl(): URL {
  const self = import.meta.url;
  if (!self.endsWith('.ts')) return new URL('./ship-worker.js', self);
  // From the TypeScript sources each worker compiles ~200 modules through tsx (~2 s CPU). The test
  // run points this at the esbuild bundle of the same sources (test/global-setup.ts builds it fresh).
  const prebuilt = process.env['EDDY_SHIP_WORKER'];
  return prebuilt ? pathToFileURL(prebuilt) : new URL('./ship-worker.ts', self);
}

/** The workers of one environment and the shared copies of its tables. */
export class StageRunner {
  private readonly pool: WorkerPool;
  private readonly shared = new SharedTables();
  /** The shared columns each worker holds (a hint: ship-column-cache.ts). */
  private readonly sent = new SentColumns();
  /** Plans that ran no stage, by digest, and the first stage of plan objects that shipped one: not searched again (ship-memo.ts). */
  private readonly stageless = new StagelessPlans();
  private readonly firstStages = new FirstStages();

  /**
   * Whether this thread runs share 0 of every round itself (and the pool has `workers - 1` threads).
   * Environments turn it on by default (EnvironmentOptions.callingThreadShare): the thread idles
   * through a stage otherwise, and quiet A/B runs in one process (bench/calling-share.ts, load
   * 1.8–3.7, runs of 15) made Q3 1.04–1.43×, Q1 1.11–1.12× and Q6 1.08–1.09× faster than two
   * workers, Q18 0.92–1.01×, with less CPU.
   */
  readonly callingShare: boolean;
  /** This thread's rebuilt table columns for its own shares (ship-column-cache.ts). */
  private readonly here = new ColumnCache();
  /** This thread's lowered graphs of its own shares (ship-graph-cache.ts). */
  private readonly hereGraphs = new StageGraphs();

  constructor(readonly workers: number, options: { readonly callingShare?: boolean } = {}) {
    this.callingShare = workers > 1 && (options.callingShare ?? process.env['EDDY_CALLING_SHARE'] !== '0');
    // A replaced worker's record goes with it (its replacement has a new serial and starts empty).
    this.pool = new WorkerPool(this.callingShare ? workers - 1 : workers, entryUrl(), (serial) => this.sent.forget(serial));
  }

  /** Stages run and CPU milliseconds per worker so far (the multi-core figures; Linux only for CPU). */
  readonly stats = { stages: 0, rounds: 0, workerCpuMs: [] as number[], traces: [] as StageTrace[], decisions: [] as StageDecision[], reusedGraphs: 0 };

  private count(results: readonly StageResult[], posted: number, resolved: readonly number[], rounds: RoundTrace[][]): void {
    this.stats.rounds++;
    for (const r of results) if (r.reusedGraph === true) this.stats.reusedGraphs++;
    results.forEach((r, i) => { this.stats.workerCpuMs[i] = (this.stats.workerCpuMs[i] ?? 0) + (r.cpuMs ?? 0); });
    rounds.push(roundTraces(results, posted, resolved));
  }

  /**
   * Runs a task on worker `i`: the table columns that worker holds travel as ids only
   * (ship-column-cache.ts); a worker that misses one gets the task again with every column.
   */
  private post(i: number, task: StageTask, transfer: readonly ArrayBuffer[], signal?: AbortSignal): Promise<StageResult> {
    if (this.callingShare) {
      if (i === 0) return this.runHere(task, signal);
      i--;
    }
    let serial = 0;
    const make = (s: number): StageTask => { serial = s; return { ...task, tables: this.sent.strip(task.tables, s) }; };
    return this.pool.run<StageResult>(i, make, transfer, signal).catch((e: unknown) => {
      if (!(e instanceof Error && e.name === MISSING_COLUMN) || transfer.length > 0) throw e;
      this.sent.forget(serial);
      return this.pool.run<StageResult>(i, make, transfer, signal);
    });
  }

  /**
   * Runs share 0 on this thread: after the round's other tasks are posted (a round starts its
   * shares in order, and this one waits a microtask), through the workers' own task runner.
   */
  private async runHere(task: StageTask, signal?: AbortSignal): Promise<StageResult> {
    await Promise.resolve();
    return runStageTask(task, signal ?? new AbortController().signal, this.here, this.hereGraphs);
  }

  /** Every worker's result, with when each reply arrived (for the trace). */
  private async round(tasks: (() => Promise<StageResult>)[], stop: () => void, rounds: RoundTrace[][], clock: StageClock): Promise<StageResult[]> {
    const posted = wallNow();
    if (clock.firstPost === undefined) clock.firstPost = posted; else clock.between += posted - clock.lastReply;
    const resolved: number[] = [];
    const pending = tasks.map((t, i) => t().then((r) => { resolved[i] = wallNow(); return r; }));
    clock.post.push(wallNow() - posted);
    const results = await this.all(pending, stop);
    clock.lastReply = wallNow();
    this.count(results, posted, resolved, rounds);
    return results;
  }

  /** Workers alive now. */
  get liveWorkers(): number {
    return this.pool.live;
  }

  /** Ends the workers (env.close()). */
  close(): Promise<void> {
    return this.pool.close();
  }

  /**
   * Runs the plan's worker stages; returns the plan with each stage's aggregate replaced by a
   * scan of its result, or undefined when no stage applies (the plan runs unchanged).
   */
  async runStages(plan: RelNode, o: StageOptions): Promise<RelNode | undefined> {
    const ctx = this.chooseContext(o);
    const options = `${o.minRows}/${o.finalHereRows}/${o.costed ?? false}`;
    const key = this.firstStages.has(plan, options) ? undefined : this.stageless.key(plan, options); // shipped before: no digest
    const known = this.stageless.get(key);
    if (known !== undefined) {
      this.stats.decisions = [...known];
      o.record?.decisions.push(...known);
      return undefined;
    }
    let cur = plan;
    let changed = false;
    const skip = new Set<RelNode>();
    const decisions: StageDecision[] = [];
    try {
      for (;;) {
        // The next stage that pays (ship-choose.ts: runtime filters, co-partitioning, the cost model).
        const choice = cur === plan ? this.firstStages.choose(plan, options, skip, decisions, () => nextStage(cur, ctx, skip, decisions)) : nextStage(cur, ctx, skip, decisions);
        if (choice === undefined) break;
        let result: RelNode;
        try {
          // Named by its line in EXPLAIN's Worker Stages list (decisions counts the refused too).
          result = await this.runStage(choice.stage, o, decisions.length);
        } catch (e) {
          if (!(e instanceof NotShippableError)) throw e;
          this.firstStages.forget(plan);
          skip.add(choice.found);
          continue;
        }
        cur = replaceNodes(cur, choice.targets, result);
        changed = true;
      }
    } finally {
      this.stats.decisions = decisions;
      o.record?.decisions.push(...decisions);
    }
    if (!changed) this.stageless.set(key, decisions);
    return changed ? cur : undefined;
  }

  /** The decisions a run of `plan` would make (EXPLAIN), without running a stage; `onRest` gets the plan left for the calling thread. */
  planStages(plan: RelNode, o: Pick<StageOptions, 'minRows' | 'finalHereRows' | 'costed'>, onRest?: (rest: RelNode) => void): StageDecision[] {
    return planStages(plan, this.chooseContext(o), onRest);
  }

  private chooseContext(o: Pick<StageOptions, 'minRows' | 'finalHereRows' | 'costed'>): ChooseContext {
    const large = (s: Scan): number | undefined => {
      const src = s.table.handle as TableSource;
      // A stage's own result is not distributed again (its final aggregate would be a stage of its own).
      // Parquet files: when each share gets a row group at least (ship-files.ts).
      const fileOk = dealtFiles(src) !== undefined && dealtPartitions(src) >= this.workers;
      return (isMemorySource(src) || fileOk) && stageResultOf(src) === undefined && (src.numRows ?? 0) >= o.minRows ? src.numRows : undefined;
    };
    return { large, workers: this.workers, sortedIn: this.sortedIn, finalHereRows: o.finalHereRows, costed: o.costed ?? false };
  }

  /** A clustered column of an in-memory table (ship-sorted.ts), for co-partitioned joins. */
  private readonly sortedIn = (s: Scan, column: number): boolean => {
    const src = s.table.handle as TableSource;
    return isMemorySource(src) && this.shared.isClustered(src, column);
  };

  private async runStage(st: AggregateStage, o: StageOptions, listed: number): Promise<RelNode> {
    const t0 = wallNow();
    const cpu0 = threadCpuMs() ?? 0;
    const rounds: RoundTrace[][] = [];
    const how = { contiguous: false };
    const clock: StageClock = { firstPost: undefined, lastReply: t0, between: 0, post: [] };
    try {
      return await this.runRounds(st, o, rounds, how, clock, listed);
    } finally {
      if (rounds.length > 0) {
        const t1 = wallNow();
        const trace: StageTrace = {
          mode: st.mode, contiguous: how.contiguous, wallMs: t1 - t0, callingCpuMs: (threadCpuMs() ?? 0) - cpu0,
          prepareMs: (clock.firstPost ?? t0) - t0, postMs: clock.post, betweenMs: clock.between, finishMs: t1 - clock.lastReply, rounds,
        };
        keepTrace(this.stats.traces, trace);
        o.record?.traces.push(trace);
      }
    }
  }

  private async runRounds(st: AggregateStage, o: StageOptions, rounds: RoundTrace[][], how: { contiguous: boolean }, clock: StageClock, listed: number): Promise<RelNode> {
    const W = this.workers;
    const tables: Record<string, ShippedTable> = {};
    const keys = new Map<TableSource, string>();
    const columns = new Map<TableSource, Set<number>>();
    const morselSource = st.scan.table.handle as TableSource;
    // A distributed scan of Parquet files: each share opens the files and decodes its own row groups (ship-files.ts).
    const files = dealtFiles(morselSource);
    rel.visit(st.partial, (n) => {
      if (n.kind !== 'Scan') return;
      const src = n.table.handle as TableSource;
      if (n === st.scan && files !== undefined) return;
      if (!isMemorySource(src)) throw new NotShippableError(`${src.description} is not an in-memory table`);
      const set = columns.get(src) ?? new Set<number>();
      for (const c of n.projection ?? n.table.schema.fields.map((_, i) => i)) set.add(c);
      columns.set(src, set);
    });
    // Table columns go into shared memory first, letting the garbage collector free the originals (ship-tables.ts).
    for (const [src, cols] of columns) await this.shared.share(src, [...cols], o.signal);
    // A partitioned stage runs the whole aggregate (and what extends it) in its one round.
    // Joins whose other side is cut by the same sorted keys as the distributed scan (ship-copartition.ts);
    // when a group key is that key, every group is on one worker and one round computes the aggregate.
    const co = (st.mode === 'partial' || st.mode === 'shuffle') && W > 1 ? chooseCoPartition(st.partial, st.scan, this.sortedIn) : undefined;
    const oneRound = st.mode === 'partitioned' || (co !== undefined && groupsOnOneWorker(st.partial, st.keys, st.scan, co));
    const round1 = oneRound ? st.final(st.partial) : st.partial;
    const restricted = new Map(co?.pairs.map((p, j) => [p.other.scan as RelNode, restrictedKey(j)]));
    const plan = encodePlan(round1, (s) => {
      const src = s.table.handle as TableSource;
      if (s === st.scan) return 'morsels';
      const r = restricted.get(s);
      if (r !== undefined) { tables[r] = this.shared.ship(src, [...columns.get(src)!], stageResultOf(src) === undefined); return r; }
      let k = keys.get(src);
      if (k === undefined) { k = `t${keys.size}`; keys.set(src, k); }
      return k;
    });
    // A stage's result has no statistics worth their pass (a worker estimates it by its row count).
    for (const [src, k] of keys) tables[k] = this.shared.ship(src, [...columns.get(src)!], stageResultOf(src) === undefined);
    const state = new Int32Array(new SharedArrayBuffer(8));
    const shippedMorsels = files === undefined ? this.shared.ship(morselSource, [...columns.get(morselSource)!]) : undefined;
    if (shippedMorsels !== undefined) tables.morsels = shippedMorsels;
    const rows = shippedMorsels?.lengths.reduce((a, b) => a + b, 0) ?? morselSource.numRows ?? 0;
    const ranges = morselRanges(shippedMorsels?.lengths ?? [], morselRows(rows, W));
    const fileParts = files === undefined ? undefined : dealFileParts(files, st.scan.pushedFilters, W);
    const shippedFiles = files?.map(shipFile);
    const fileMorsels = (i: number): FileMorsels => ({ key: 'morsels', schema: morselSource.schema, files: shippedFiles!, rows, parts: fileParts![i]!, state });
    const keyed = (st.mode === 'partial' || st.mode === 'shuffle') && st.keys.length > 0 && W > 1 && !oneRound;
    const task: StageTask = {
      plan, tables, batchSize: o.batchSize,
      ...(o.memoryLimit !== undefined ? { memoryLimit: o.memoryLimit } : {}),
      ...(keyed ? { partitionOut: { keys: st.keys, n: W } } : {}),
      ...(st.mode === 'gather' ? { shareOut: true } : {}),
      // Every group on one worker: each sizes its group tables for 1/W of them (a worker's statistics count all).
      ...(oneRound && W > 1 ? { groupsShare: 1 / W } : {}),
    };
    const stop = (): void => { Atomics.store(state, 1, 1); };
    o.signal?.addEventListener('abort', stop, { once: true });
    try {
      // A partitioned stage over a sorted key reads contiguous ranges cut at key changes (ship-sorted.ts), not every row.
      // The same cut for every query of this stage over these table versions (SharedTables.cut).
      const cut = co === undefined ? undefined : this.shared.cut(morselSource, `co ${co.column} ${W} ${co.pairs.map((p) => p.other.column).join(',')}`, co.pairs.map((p) => p.other.scan.table.handle as TableSource),
        () => cutCoPartition(co, st.scan, W, (s, c) => this.shared.clusteredColumn(s.table.handle as TableSource, c)!, (n) => morselRows(n, W)));
      const sorted = cut?.scan ?? (st.partitionColumn !== undefined && W > 1 && files === undefined ? this.shared.sortedRanges(morselSource, st.partitionColumn, W, morselRows(rows, W)) : undefined);
      how.contiguous = sorted !== undefined;
      const morsels = (i: number): Morsels => (sorted !== undefined
        ? { key: 'morsels', ranges: sorted[i]!, worker: 0, workers: 1, state }
        : { key: 'morsels', ranges, worker: i, workers: W, state, ...(st.partitionColumn !== undefined ? { byKey: st.partitionColumn } : {}) });
      const cuts = (i: number): Partial<StageTask> => (cut === undefined ? {} : { restricted: Object.fromEntries(cut.others[i]!.map((r, j) => [restrictedKey(j), { key: restrictedKey(j), ranges: r, worker: 0, workers: 1, state }])) });
      const share = (i: number): Partial<StageTask> => (fileParts !== undefined ? { files: { morsels: fileMorsels(i) } } : { morsels: morsels(i) });
      const partials = await this.round(Array.from({ length: W }, (_, i) => () => this.post(i, { ...task, ...share(i), ...cuts(i) }, [], o.signal)), stop, rounds, clock);
      // The result's name is the stage's number in this run's list; its scan id stays unique across runs.
      const uid = ++this.stats.stages;
      const id = listed;
      // One Arrow dictionary per distinct dictionary of the replies (wire.ts sameDictionary).
      const dicts = new Map<WireData, arrow.Vector>();
      if (oneRound) return batchScan(`stage ${id}`, uid, round1.schema, partials.flatMap((p) => p.parts[0]!.map((b) => fromWireBatch(b, dicts))));
      // Few round-1 rows (TPC-H Q1's partial groups) are aggregated here: a
      // second round trip to the workers costs more than the aggregate (and under load much more).
      const few = keyed && rowsOf(partials) <= o.finalHereRows;
      if (!keyed || few) return st.final(batchScan(`stage ${id} partial`, uid, st.partial.schema, partials.flatMap((p) => p.parts.flat().map((b) => fromWireBatch(b, dicts)))));
      const input = rel.scan({ id: `stage:${uid}`, name: `stage ${id}`, version: 0, schema: st.partial.schema, handle: {} });
      const finalPlan = st.final(input);
      const encoded = encodePlan(finalPlan, () => 'partials');
      const inputs = Array.from({ length: W }, (_, j) => partials.flatMap((p) => p.parts[j]!));
      const transfers = exclusiveTransfers(inputs);
      const finals = await this.round(inputs.map((batches, j) => () => {
        const t: StageTask = { plan: encoded, tables: {}, inputs: { partials: { schema: st.partial.schema, batches } }, batchSize: o.batchSize, ...(o.memoryLimit !== undefined ? { memoryLimit: o.memoryLimit } : {}) };
        return this.post(j, t, transfers[j]!, o.signal);
      }), stop, rounds, clock);
      return batchScan(`stage ${id}`, uid, finalPlan.schema, finals.flatMap((f) => f.parts[0]!.map((b) => fromWireBatch(b, dicts))));
    } finally {
      o.signal?.removeEventListener('abort', stop);
    }
  }

  /** Every worker's reply; the first failure stops the others' scans and is rethrown. */
  private async all<T>(tasks: Promise<T>[], stop: () => void): Promise<T[]> {
    try {
      return await Promise.all(tasks);
    } catch (e) {
      stop();
      await Promise.allSettled(tasks);
      throw e instanceof Error ? e : new CancelledError(String(e));
    }
  }
}

/**
 * Per message, the buffers it may move: those no other message carries (the parts of one batch
 * share its dictionaries, and a buffer moved to one worker cannot be sent to another; shared
 * ones are copied instead).
 */
function exclusiveTransfers(messages: readonly (readonly WireBatch[])[]): ArrayBuffer[][] {
  const sets = messages.map((m) => transferables(m));
  const count = new Map<ArrayBuffer, number>();
  for (const set of sets) for (const b of set) count.set(b, (count.get(b) ?? 0) + 1);
  return sets.map((set) => set.filter((b) => count.get(b) === 1));
}

/**
 * Round-1 rows up to which a keyed stage's final aggregate runs on the calling thread: a second
 * round trip to the workers costs more than aggregating this many rows here. Not many more: TPC-H
 * Q3's ~30k joined rows cost the calling thread ~30 ms of CPU there, more than round 2 on the
 * workers (SF 1).
 */
export const DEFAULT_FINAL_HERE_ROWS = 8192;

function rowsOf(results: readonly StageResult[]): number {
  let n = 0;
  for (const r of results) for (const part of r.parts) for (const b of part) n += b.length;
  return n;
}

/** A scan of batches computed by a stage. */
function batchScan(name: string, uid: number, schema: Schema, batches: readonly RecordBatch[]): Scan {
  const handle = memorySource(batches, name, schema);
  markStageResult(handle, name);
  return rel.scan({ id: `worker:${uid}`, name, version: 0, schema, handle });
}
