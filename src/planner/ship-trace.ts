/**
 * Where a stage's time went, as the coordinator records it (bench/multi-core.ts --trace,
 * bench/stage-steps.ts; docs/multi-core.md "Measuring").
 *
 * Decision: wall instants as well as thread CPU. Thread CPU is brought up to date per scheduler
 * tick (4 ms here, thread-cpu.ts), coarser than most of a stage's fixed steps (posting a task, decoding
 * and lowering it, encoding a reply), so each step is also timed by the wall clock
 * (performance.timeOrigin-based instants are comparable across threads) and read as medians
 * over many runs.
 */
import type { StageResult } from './ship-protocol.js';

/** One worker's share of one round of a stage, as the coordinator saw it (bench/multi-core.ts --trace). */
export interface RoundTrace {
  /** Posting the task → the worker starting it (message delivery and the worker's event loop). */
  readonly postToStartMs: number;
  /** The worker's CPU: decode + lower, the job, encoding its result. */
  readonly setupCpuMs: number;
  readonly runCpuMs: number;
  readonly encodeCpuMs: number;
  /** The worker's wall time on the task (more than its CPU when it waits for a core). */
  readonly workerWallMs: number;
  /** The result ready on the worker → the reply resolved on this thread. */
  readonly replyMs: number;
  /** The worker's wall milliseconds per phase (decode + lower, job, encode): finer than its CPU's scheduler ticks. */
  readonly setupWallMs: number;
  readonly runWallMs: number;
  readonly encodeWallMs: number;
}

/** One stage: its mode, wall time, this thread's CPU during it, and every worker's rounds. */
export interface StageTrace {
  readonly mode: string;
  /** A partitioned stage read contiguous ranges of a sorted key (ship-sorted.ts), not hashed rows. */
  readonly contiguous: boolean;
  readonly wallMs: number;
  readonly callingCpuMs: number;
  /**
   * This thread's wall milliseconds: preparing the first round's tasks (the plan's encoding, the
   * shared tables, the morsels), posting each round's tasks (cloning them), between the rounds,
   * and after the last reply (the result's batches, the final aggregate's plan).
   */
  readonly prepareMs: number;
  readonly postMs: number[];
  readonly betweenMs: number;
  readonly finishMs: number;
  readonly rounds: RoundTrace[][];
}

/** Wall instants of one stage on this thread, filled as its rounds run (a StageTrace's this-thread steps). */
export interface StageClock { firstPost: number | undefined; lastReply: number; between: number; readonly post: number[] }

/** Stage traces kept (the most recent). */
const TRACE_KEEP = 64;

/** Each share's trace of one round: tasks posted at `posted`, replies resolved at `resolved[i]` (wall instants). */
export function roundTraces(results: readonly StageResult[], posted: number, resolved: readonly number[]): RoundTrace[] {
  return results.map((r, i) => {
    const p = r.phases;
    if (p === undefined) return { postToStartMs: 0, setupCpuMs: 0, runCpuMs: r.cpuMs ?? 0, encodeCpuMs: 0, workerWallMs: 0, replyMs: 0, setupWallMs: 0, runWallMs: 0, encodeWallMs: 0 };
    return {
      postToStartMs: p.startAt - posted, setupCpuMs: p.setupCpuMs, runCpuMs: p.runCpuMs, encodeCpuMs: p.encodeCpuMs, workerWallMs: p.endAt - p.startAt, replyMs: resolved[i]! - p.endAt,
      setupWallMs: p.setupAt - p.startAt, runWallMs: p.runAt - p.setupAt, encodeWallMs: p.endAt - p.runAt,
    };
  });
}

/** Appends a stage's trace, keeping the most recent ones. */
export function keepTrace(traces: StageTrace[], trace: StageTrace): void {
  traces.push(trace);
  if (traces.length > TRACE_KEEP) traces.splice(0, traces.length - TRACE_KEEP);
}
