/**
 * CPU time of the calling thread, for the multi-core figures: wall-clock speed-ups on a shared
 * machine are noisy, the CPU each thread spent is not. Linux: /proc/thread-self/schedstat (the
 * scheduler's run time in ns), read synchronously, so on this thread; the tick counts of
 * /proc/thread-self/stat (10 ms) only where schedstat is missing — at 10 ms a 30 ms worker share
 * read as 20, 30 or 40 ms. Undefined where neither file exists.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

let schedstat = true;

/** User + system CPU milliseconds this thread has used, or undefined when unknown. */
export function threadCpuMs(): number | undefined {
  if (schedstat) {
    try {
      // First field: time spent on the CPU, ns.
      const s = readFileSync('/proc/thread-self/schedstat', 'utf8');
      return Number(s.slice(0, s.indexOf(' '))) / 1e6;
    } catch {
      schedstat = false;
    }
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
