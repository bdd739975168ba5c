/**
 * What one run cost the process it ran in: wall time, the process's CPU (user + system, all
 * threads), its system CPU, its minor page faults and the CPU of each of its other threads
 * (./threads-cpu.ts). One helper for the suite's in-process runs (bench/suite/run.ts) and for
 * DuckDB's runs in its own process (bench/suite/duck-server.ts), so both are measured alike.
 */
import { threadsCpuByName, threadsCpuDelta } from './threads-cpu.js';

/** One run's cost to its process. */
export interface RunUsage {
  /** Wall time, ms. */
  readonly ms: number;
  /** The process's CPU, user + system, all threads, ms. */
  readonly cpuMs: number;
  /** The process's system CPU, ms. */
  readonly sysCpuMs: number;
  /** The process's minor page faults (fresh or discarded pages touched; they do not depend on load). */
  readonly minorFaults: number;
  /** CPU ms of each thread but the main one that used at least 0.5 ms (`name#tid`). */
  readonly otherThreadsCpuMs: Record<string, number>;
}

/** Starts measuring; the returned function ends the measurement (call it once, right after the run). */
export function startUsage(): () => RunUsage {
  const f0 = process.resourceUsage().minorPageFault;
  const o0 = threadsCpuByName();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  return () => {
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const minorFaults = process.resourceUsage().minorPageFault - f0;
    return { ms, cpuMs: (c.user + c.system) / 1000, sysCpuMs: c.system / 1000, minorFaults, otherThreadsCpuMs: threadsCpuDelta(o0, threadsCpuByName()) };
  };
}
