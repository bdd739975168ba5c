/**
 * threadCpuMs (exec/workers/thread-cpu.ts): this thread's CPU, finer than /proc's 10 ms ticks
 * where /proc/thread-self/schedstat exists, and this thread's only (not the process's).
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { threadCpuMs } from '../../../src/exec/workers/thread-cpu.js';

/** Busy for `ms` of this thread's CPU (or 2 s of wall at most). */
function spin(ms: number): void {
  const c0 = threadCpuMs()!;
  const t0 = performance.now();
  while (threadCpuMs()! - c0 < ms && performance.now() - t0 < 2000) { for (let i = 0; i < 1e5; i++) Math.sqrt(i); }
}

describe('threadCpuMs', () => {
  it('never goes back, and counts a busy loop', () => {
    const a = threadCpuMs();
    if (a === undefined) return; // not Linux
    spin(30);
    const b = threadCpuMs()!;
    expect(b).toBeGreaterThanOrEqual(a + 20);
    expect(b - a).toBeLessThan(5000);
  });

  it('reads finer than 10 ms ticks where schedstat exists', () => {
    if (!existsSync('/proc/thread-self/schedstat')) return;
    // stat's utime + stime are whole 10 ms ticks: every reading a multiple of 10. The scheduler's
    // run time is nanoseconds, so a few readings after busy spans are not all multiples of 10.
    const readings: number[] = [];
    for (let k = 0; k < 5; k++) { spin(5); readings.push(threadCpuMs()!); }
    expect(readings.some((x) => Math.abs(x / 10 - Math.round(x / 10)) > 1e-6)).toBe(true);
  });

  it("counts this thread, not another thread's work", async () => {
    const a = threadCpuMs();
    if (a === undefined) return;
    // A worker thread busy for ~300 ms of wall while this thread waits.
    const w = new Worker('const t = Date.now(); while (Date.now() - t < 300) Math.sqrt(t); require("node:worker_threads").parentPort.postMessage(1);', { eval: true });
    await new Promise((resolve) => w.once('message', resolve));
    await w.terminate();
    expect(threadCpuMs()! - a).toBeLessThan(150);
  });
});
