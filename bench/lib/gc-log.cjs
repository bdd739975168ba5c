/**
 * Preload (`node --require ./bench/lib/gc-log.cjs`) that appends every garbage collection of every thread
 * to the file named by EDDY_GC_LOG, one line each: thread id, kind (major, minor, incremental, weakcb),
 * absolute start (ms since the epoch) and duration ms (bench/gc-per-run.ts).
 *
 * Why a CommonJS preload: worker threads inherit the process's execArgv and run `--require` modules
 * (Node 20 runs `--import` ones in the main thread only), so the same observer runs in each worker
 * isolate; `--trace-gc` prints each isolate's time since its own start, which cannot be lined up with a
 * run's window, while performance.timeOrigin + startTime can.
 */
'use strict';
const { appendFileSync } = require('node:fs');
const { PerformanceObserver, constants, performance } = require('node:perf_hooks');
const { threadId } = require('node:worker_threads');

const file = process.env.EDDY_GC_LOG;
if (file !== undefined && file !== '') {
  const kinds = {
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
  };
  const origin = performance.timeOrigin;
  const obs = new PerformanceObserver((list) => {
    let out = '';
    for (const e of list.getEntries()) {
      const kind = e.detail ? e.detail.kind : 0;
      out += `${threadId} ${kinds[kind] || kind} ${(origin + e.startTime).toFixed(3)} ${e.duration.toFixed(3)}\n`;
    }
    appendFileSync(file, out);
  });
  obs.observe({ entryTypes: ['gc'] });
}
