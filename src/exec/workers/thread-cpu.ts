/**
 * CPU time of the calling thread (Linux, read synchronously, so on this thread), for the
 * multi-core figures: wall-clock speed-ups on a shared machine are noisy, the CPU each thread
 * spent is not. Undefined where neither file exists.
 *
 * Decision: /proc/thread-self/schedstat first — the scheduler's run time of the thread in
 * nanoseconds, exact at every context switch and brought up to date on each scheduler tick while
 * the thread runs (4 ms on this kernel: HZ 250) — and /proc/thread-self/stat's utime + stime
 * (10 ms ticks, USER_HZ 100) only where schedstat is missing. A difference of two readings is off
 * by less than one tick either way (4 ms instead of 10: a median of 10 ms ticks moved in 10 ms
 * steps on a 30 ms worker job), and means over runs are unbiased. Sub-tick steps still need wall
 * instants (ship-trace.ts). A read costs ~50–100 µs, so callers read it a few times per task,
 * never per batch.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** Whether schedstat is readable here (checked on the first call, per thread). */
let schedstat: boolean | undefined;

/** User + system CPU milliseconds this thread has used (nanosecond resolution where schedstat exists), or undefined when unknown. */
export function threadCpuMs(): number | undefined {
  if (schedstat !== false) {
    try {
      const s = readFileSync('/proc/thread-self/schedstat', 'utf8');
      // "run-time-ns wait-time-ns timeslices"
      const ns = Number(s.slice(0, s.indexOf(' ')));
      if (Number.isFinite(ns)) { schedstat = true; return ns / 1e6; }
    } catch { /* fall through */ }
    // Once read, never mix the two clocks in one thread's differences.
    if (schedstat === true) return undefined;
    schedstat = false;
  }
  try {
    const s = readFileSync('/proc/thread-self/stat', 'utf8');
    // Fields after the parenthesized command name; utime and stime are fields 14 and 15.
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Milliseconds since the epoch, sub-millisecond, comparable between the threads of one process. */
export function wallNow(): number {
  return performance.timeOrigin + performance.now();
}
