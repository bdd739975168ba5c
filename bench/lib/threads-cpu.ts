/**
 * CPU used by each thread of this process, by thread name and id (Linux: /proc/self/task/<tid>/comm
 * and .../schedstat, whose first field is the thread's CPU in ns). The suite records, per timed run,
 * which of the process's threads other than the calling one used CPU during the run (polysuite,
 * 2026-12-06: with DuckDB in the rotation, eddy p1's runs had ~75 ms more CPU outside the calling
 * thread and thousands more page faults than with eddy alone, and the process's total could not say
 * whose — V8's helper threads, libuv's pool, DuckDB's threads; on Node 20 nearly all are named "node").
 * Returns undefined where /proc is not readable.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU ms so far per thread, keyed `name#tid` (Node 20 names most of its threads "node", so the tid tells them apart). */
export type ThreadsCpu = ReadonlyMap<string, number>;

/** A snapshot of the CPU of every thread but the main one (its tid is the pid), or undefined off Linux. */
export function threadsCpuByName(): ThreadsCpu | undefined {
  let tids: string[];
  try { tids = readdirSync('/proc/self/task'); } catch { return undefined; }
  const out = new Map<string, number>();
  for (const tid of tids) {
    if (tid === String(process.pid)) continue;
    try {
      const name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      if (Number.isFinite(ns)) out.set(`${name}#${tid}`, ns / 1e6);
    } catch { /* the thread ended between the listing and the read */ }
  }
  return out;
}

/** CPU ms per thread between two snapshots, leaving out threads that used less than `minMs` (a thread started in between counts from 0). */
export function threadsCpuDelta(before: ThreadsCpu | undefined, after: ThreadsCpu | undefined, minMs = 0.5): Record<string, number> {
  const out: Record<string, number> = {};
  if (before === undefined || after === undefined) return out;
  for (const [name, ms] of after) {
    const d = ms - (before.get(name) ?? 0);
    if (d >= minMs) out[name] = Number(d.toFixed(1));
  }
  return out;
}
