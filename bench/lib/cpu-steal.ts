/**
 * CPU steal of the machine (Linux /proc/stat): on a virtual machine, time the hypervisor ran other
 * guests while this one's CPUs wanted to run. A benchmark on a shared VM reports it beside the load
 * average: the load average counts this machine's own runnable threads only, and a run slowed by a
 * busy host shows only here.
 */
import { readFileSync } from 'node:fs';

/** Cumulative CPU times over all CPUs, in clock ticks. */
export interface CpuTicks { readonly total: number; readonly steal: number }

/** The machine's CPU time counters now, or undefined where /proc/stat is missing (not Linux). */
export function cpuTicks(): CpuTicks | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest time is in user already)
    const f = line.trim().split(/\s+/).slice(1, 9).map(Number);
    if (f.length < 8 || f.some((x) => !Number.isFinite(x))) return undefined;
    return { total: f.reduce((a, b) => a + b, 0), steal: f[7]! };
  } catch {
    return undefined;
  }
}

/** Steal between two readings, percent of the CPUs' time (undefined when either is missing or no time passed). */
export function stealPercent(a: CpuTicks | undefined, b: CpuTicks | undefined): number | undefined {
  if (a === undefined || b === undefined || b.total <= a.total) return undefined;
  return (100 * (b.steal - a.steal)) / (b.total - a.total);
}
