/**
 * Runs one query on every engine, interleaved: first the reference (DuckDB,
 * 1 thread) once, then every other engine once (its first warm-up) with its
 * answer checked against the reference — a wrong answer is reported WRONG and
 * never timed, a failure as error, a run past the limit as timeout; then
 * untimed warm-up rounds and `runs` timed rounds, each running every engine
 * still in the race (in a warm-up round: still warming) once, the engine order
 * rotated by one each round so no engine always runs right after another.
 * An engine warms up for at least `warmup` runs (the answer check included) and
 * at least `warmupMs` of wall time after the answer check, at most
 * MAX_WARMUP_RUNS runs. Decision: a time budget, not only a count, as JMH and
 * Criterion warm up. A JIT-compiled engine reaches its steady code after a
 * number of *runs* of a query's functions (V8 compiles a function with TurboFan
 * once it ran hot enough; a worker isolate sees only its share of the rows), so a
 * fixed count warms a 10 ms query and a 500 ms one unequally: with 3 warm-ups,
 * eddy p2's timed runs of TPC-H Q3 (~50 ms) carried 2 + 2 first TurboFan
 * compiles each (bench/deopt-runs.ts). What a query costs the first time is
 * reported apart (`firstMs`).
 * The first run's wall time is kept too (`firstMs`: the engine's first run of this query shape, after the
 * queries before it): what a user who runs a query once sees, beside the warm medians.
 * Before each timed run, after a GC, the harness waits (untimed) until the process's other
 * threads are quiet (../lib/quiesce.ts): the previous engine's leftover helper-thread work — V8's
 * concurrent compilation and GC — is not billed to the next engine, which on two cores cost a
 * two-thread engine (eddy p2, DuckDB 2 threads) its wall time and a one-thread engine nothing.
 * Each run records wall time and the process's CPU time (user + system, all
 * threads: DuckDB's workers and eddy's included), which a busy machine
 * inflates far less than wall time, and for engines that report their
 * threads' CPU (eddy) the CPU along the critical path (`criticalPath`); and the process's
 * system CPU, minor page faults and the CPU of each of its other threads (../lib/threads-cpu.ts), which tell fresh memory (faults do not depend on load) from
 * slower execution when one harness's runs are slower than another's (polysuite).
 */
import { quiesce } from '../lib/quiesce.js';
import { startUsage, type RunUsage } from '../lib/run-usage.js';
import { collectGarbage, collectGarbageMajor, median } from '../lib/timing.js';
import type { PlainResult } from '../lib/verify.js';
import type { EngineDef, Runner, ThreadCpu } from './engines.js';
import type { SuiteQuery } from './queries.js';
import type { EngineOutcome, QueryOutcome } from './results.js';
import { verifyAnswer } from './verify.js';

/** Raised when a run exceeds the limit. */
export class RunTimeout extends Error {
  constructor(ms: number) { super(`timed out after ${(ms / 1000).toFixed(0)} s`); this.name = 'RunTimeout'; }
}

const message = (e: unknown): string => (e instanceof Error ? (e.name === 'Error' ? e.message : `${e.name}: ${e.message}`) : String(e));

/**
 * One run of `r` under a time limit: the signal given to the run aborts at the limit, and the
 * returned promise rejects with RunTimeout then even if the run does not stop (its result is dropped).
 * The figures are this process's (../lib/run-usage.ts), or those the runner reports from the process
 * the engine runs in (`Runner.usageOf`: DuckDB in its own process, ./duck-process.ts).
 */
export async function runWithTimeout(r: Runner, timeoutMs: number): Promise<RunUsage & { raw: unknown; criticalCpuMs?: number }> {
  const ac = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => { ac.abort(new RunTimeout(timeoutMs)); reject(new RunTimeout(timeoutMs)); }, timeoutMs);
  });
  const th0 = r.threadCpu?.();
  const end = startUsage();
  try {
    const raw = await Promise.race([r.run(ac.signal), limit]);
    const here = end();
    const criticalCpuMs = criticalPath(th0, r.threadCpu?.());
    return { raw, ...(r.usageOf?.(raw) ?? here), ...(criticalCpuMs !== undefined ? { criticalCpuMs } : {}) };
  } catch (e) {
    if (ac.signal.aborted) throw new RunTimeout(timeoutMs);
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The CPU along a run's critical path from two `Runner.threadCpu` readings: the calling thread's
 * CPU outside the parallel shares plus the busiest share's (the shares run at the same time). When
 * share 0 runs on the calling thread its CPU moves from the first term to the second. A share missing
 * from the first reading (workers started by the run) counts from 0. The busiest share is taken over
 * the run's sums, not stage by stage: a lower bound when stages are unbalanced in different ways.
 */
export function criticalPath(before: ThreadCpu | undefined, after: ThreadCpu | undefined): number | undefined {
  if (before === undefined || after === undefined) return undefined;
  const shares = after.shares.map((x, i) => x - (before.shares[i] ?? 0));
  const calling = after.calling - before.calling - (after.share0OnCalling ? shares[0] ?? 0 : 0);
  return calling + Math.max(0, ...shares);
}

/** Options of runQuery. */
export interface RunOptions {
  readonly runs: number;
  /** Untimed runs per engine before the timed ones, at least; the answer-checking one included (default 1). */
  readonly warmup?: number;
  /** Wall ms of untimed runs per engine before the timed ones, at least (after the answer check; default 0): more runs until then, up to MAX_WARMUP_RUNS. */
  readonly warmupMs?: number;
  readonly timeoutMs: number;
  readonly log?: (m: string) => void;
  /** Awaited (untimed) after the GC before every run of the warm-up rounds and the timed rounds (default: `quiesce()`). */
  readonly settle?: () => Promise<unknown>;
  /** The GC before every run: 'young' (default; a scavenge) or 'major' (a mark-compact; see ../lib/timing.ts). */
  readonly gc?: 'young' | 'major';
}

/** Warm-up runs an engine does at most for the time budget (`warmupMs`), the answer check included (a 5 ms query: 0.25 s). */
export const MAX_WARMUP_RUNS = 50;

/** Whether an engine that did `runs` untimed runs taking `ms` in all still warms up. */
export function stillWarming(runs: number, ms: number, minRuns: number, minMs: number): boolean {
  return runs < minRuns || (ms < minMs && runs < MAX_WARMUP_RUNS);
}

interface Live { warmRuns: number; warmMs: number; readonly def: EngineDef; readonly runner: Runner; readonly samples: number[]; readonly cpu: number[]; readonly sys: number[]; readonly faults: number[]; readonly others: Record<string, number>[]; readonly critical: number[]; rows: number; firstMs?: number; failed?: EngineOutcome }

/** Runs `q` on `reference` (not necessarily timed) and `engines`; `timeReference` says whether the reference is one of the timed engines. */
export async function runQuery(q: SuiteQuery, reference: EngineDef, engines: readonly EngineDef[], opts: RunOptions): Promise<QueryOutcome> {
  const log = opts.log ?? (() => {});
  const out: Record<string, EngineOutcome> = {};
  const refRunner = reference.runner(q)!;
  let want: PlainResult & { dateColumns?: string[] };
  try {
    await refRunner.before?.();
    const { raw, ms } = await runWithTimeout(refRunner, opts.timeoutMs);
    want = refRunner.normalize(raw, []) as PlainResult & { dateColumns?: string[] };
    log(`  reference ${reference.label}: ${want.rows.length} rows, ${ms.toFixed(1)} ms`);
  } catch (e) {
    const error = message(e);
    log(`  reference ${reference.label} FAILED: ${error}`);
    for (const d of engines) out[d.id] = { status: 'no-reference', error: `reference failed: ${error}` };
    return { id: q.id, title: q.title, engines: out };
  }
  const dates = want.dateColumns ?? [];

  const live: Live[] = [];
  for (const def of engines) {
    const runner = def.runner(q);
    if (!runner) { out[def.id] = { status: 'not-applicable' }; continue; }
    const l: Live = { warmRuns: 0, warmMs: 0, def, runner, samples: [], cpu: [], sys: [], faults: [], others: [], critical: [], rows: 0 };
    try {
      await runner.before?.();
      const { raw, ms } = await runWithTimeout(runner, opts.timeoutMs);
      l.firstMs = ms;
      // The check run counts as a warm-up run but not toward the time budget: it carries one-time costs
      // (the first compiles of the query's code, eddy p2's first copy of the tables to its workers).
      l.warmRuns = 1;
      const got = runner.normalize(raw, dates);
      l.rows = got.rows.length;
      const problems = verifyAnswer(got, want, q.orderKeys);
      if (problems.length > 0) {
        l.failed = { status: 'wrong', rows: got.rows.length, problems };
        log(`  ${def.label}: WRONG ${problems.join('; ')}`);
      }
    } catch (e) {
      l.failed = e instanceof RunTimeout ? { status: 'timeout', error: e.message } : { status: 'error', error: message(e).slice(0, 500) };
      log(`  ${def.label}: ${l.failed.status} ${l.failed.error}`);
    }
    live.push(l);
  }

  const minRuns = Math.max(1, opts.warmup ?? 1);
  const minMs = opts.warmupMs ?? 0;
  const settle = opts.settle ?? (() => quiesce());
  const warming = (l: Live): boolean => !l.failed && stillWarming(l.warmRuns, l.warmMs, minRuns, minMs);
  let timedRounds = 0;
  for (let round = 0; timedRounds < opts.runs; round++) {
    const warm = live.some(warming);
    const racing = live.filter((l) => (warm ? warming(l) : !l.failed));
    if (racing.length === 0) break;
    for (let k = 0; k < racing.length; k++) {
      const l = racing[(k + round) % racing.length]!;
      try {
        await l.runner.before?.();
        if (opts.gc === 'major') await collectGarbageMajor();
        else collectGarbage();
        await settle();
        const t = await runWithTimeout(l.runner, opts.timeoutMs);
        if (warm) { l.warmRuns++; l.warmMs += t.ms; continue; }
        l.samples.push(t.ms);
        l.cpu.push(t.cpuMs);
        l.sys.push(t.sysCpuMs);
        l.faults.push(t.minorFaults);
        l.others.push(t.otherThreadsCpuMs);
        if (t.criticalCpuMs !== undefined) l.critical.push(t.criticalCpuMs);
      } catch (e) {
        l.failed = e instanceof RunTimeout ? { status: 'timeout', error: e.message } : { status: 'error', error: message(e).slice(0, 500) };
        log(`  ${l.def.label}: ${l.failed.status} in ${warm ? `warm-up run ${l.warmRuns + 1}` : `timed run ${timedRounds + 1}`}: ${l.failed.error}`);
      }
    }
    if (!warm) timedRounds++;
  }
  for (const l of live) {
    if (l.failed) { out[l.def.id] = l.failed; continue; }
    const s = l.samples;
    out[l.def.id] = {
      status: l.def.id === reference.id ? 'reference' : 'ok', rows: l.rows, ...(l.firstMs === undefined ? {} : { firstMs: l.firstMs }), warmupRuns: l.warmRuns,
      medianMs: median(s), minMs: Math.min(...s), maxMs: Math.max(...s), samplesMs: s, cpuMedianMs: median(l.cpu),
      sysCpuMedianMs: median(l.sys), minorFaultsMedian: median(l.faults), otherThreadsCpuMs: l.others,
      ...(l.critical.length === s.length ? { criticalCpuMedianMs: median(l.critical), criticalCpuSamplesMs: l.critical } : {}),
    };
    log(`  ${l.def.label}: median ${median(s).toFixed(1)} ms (${s.map((x) => x.toFixed(1)).join(', ')}) after ${l.warmRuns} warm-up run${l.warmRuns === 1 ? '' : 's'}`);
  }
  return { id: q.id, title: q.title, rows: want.rows.length, engines: out };
}
