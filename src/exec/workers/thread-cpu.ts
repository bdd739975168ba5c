/**
 * CPU time of the calling thread (Linux: /proc/thread-self/stat, read synchronously, so on
 * this thread), for the multi-core figures: wall-clock speed-ups on a shared machine are
 * noisy, the CPU each thread spent is not. Undefined where the file does not exist.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** User + system CPU milliseconds this thread has used, or undefined when unknown. */
export function threadCpuMs(): number | undefined {
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
