/**
 * bench:iteration part "spill": an iteration whose feedback exceeds its
 * byte budget (issue #8 performance (3)) finishes with bounded memory.
 *
 * The job: the variable is one row; in round 0 the body turns it into
 * `--spill-mib` MiB of fresh batches (65,536 rows × 4 DOUBLE columns, 2 MiB each), which all go into the feedback channel within one callback, and
 * every later round passes them round again (TerminateOnMaxIter ends it).
 * So the feedback in flight is far above the run's in-memory budget of
 * 64 MiB and the rest must spill (Arrow IPC through the cache's spill area)
 * and be read back. Each measurement runs in a fresh child process; its RSS
 * is sampled during the job (every 5 ms and every 16 batches: the process's
 * own peak is set by module loading before the job) and compared with the
 * same job given a budget that holds all of its feedback in memory (nothing
 * spills).
 */
import { Float64, makeData, type RecordBatch } from 'apache-arrow';
import { TableEnvironment } from '../src/api/environment.js';
import { Iterations, TerminateOnMaxIter } from '../src/iteration/index.js';
import { batchFromColumns } from '../src/exec/batch.js';
import { DEFAULT_FEEDBACK_BUDGET } from '../src/exec/runtime/feedback-queue.js';
import { load, mib, peakRssMiB, runChild, type IterationBenchOptions } from './lib/iteration-bench.js';

const ROWS = 65536;
const names = ['a', 'b', 'c', 'd'];

function freshBatch(seed: number): RecordBatch {
  const cols = names.map((_, i) => { const c = new Float64Array(ROWS); for (let r = 0; r < ROWS; r++) c[r] = seed + i + r; return c; });
  return batchFromColumns(names, cols.map((c) => makeData({ type: new Float64(), length: ROWS, data: c })), ROWS);
}

interface ChildResult { readonly ms: number; readonly rssMiB: number; readonly startRssMiB: number; readonly processPeakMiB: number; readonly rows: number }

/** Samples the resident set size (every 5 ms, and when asked): its maximum during the job. */
class RssSampler {
  max = 0;
  private readonly timer = setInterval(() => this.sample(), 5);
  sample(): void { const r = process.memoryUsage.rss(); if (r > this.max) this.max = r; }
  stop(): number { clearInterval(this.timer); this.sample(); return this.max / 1024 / 1024; }
}

/** The measurement itself (in a child process): `feedbackMiB` of feedback for `rounds` rounds, with the given budget. */
export async function child(feedbackMiB: number, rounds: number, budgetBytes: number): Promise<ChildResult> {
  const env = TableEnvironment.create({ parallelism: 1 });
  try {
    const s = env.streams;
    s.feedbackBudgetBytes = budgetBytes;
    global.gc?.();
    const startRssMiB = process.memoryUsage.rss() / 1024 / 1024;
    const rss = new RssSampler();
    const copies = Math.ceil((feedbackMiB * 1024 * 1024) / (ROWS * names.length * 8));
    let rows = 0;
    // A synchronous source, so round 0 ends at once (an asynchronous one ends a loop-turn later, and records would circulate meanwhile).
    const init = s.fromRows([{ a: 0, b: 0, c: 0, d: 0 }], { schema: { a: 'DOUBLE', b: 'DOUBLE', c: 'DOUBLE', d: 'DOUBLE' } });
    const [out] = Iterations.iterateBoundedStreamsUntilTermination([init], [], {}, ([x]) => {
      const body = x!.process(() => ({
        processBatch(b, ctx, o) {
          rows += b.numRows;
          if ((rows & 0xfffff) === 0) rss.sample();
          if (ctx.epoch === 0) for (let i = 0; i < copies; i++) o.collectBatch(freshBatch(i + 1)); // every copy is new memory
          else o.collectBatch(b);
        },
      }));
      return { feedbackVariableStreams: [body], outputStreams: [body.process(() => ({ onIterationTerminated() {} }))], terminationCriteria: body.process(() => new TerminateOnMaxIter(rounds)) };
    });
    const t0 = performance.now();
    await out!.collect();
    const expected = 1 + copies * ROWS * rounds; // round 0's one row, then the copies in rounds 1..rounds−1 and in the terminating round
    if (rows !== expected) throw new Error(`the body saw ${rows} rows, expected ${expected}`);
    return { ms: performance.now() - t0, rssMiB: rss.stop(), startRssMiB, processPeakMiB: peakRssMiB(), rows };
  } finally {
    await env.close();
  }
}

export async function run(o: IterationBenchOptions): Promise<string> {
  const feedbackMiB = o.arg('spill-mib', o.quick ? 256 : 512);
  const rounds = o.arg('spill-rounds', 3);
  const budget = DEFAULT_FEEDBACK_BUDGET;
  const loadBefore = load();
  const rows: string[] = [];
  const variants = [
    { name: `budget ${mib(budget)} (default): spills`, budget },
    { name: `budget ${mib(4 * feedbackMiB * 1024 * 1024)}: all in memory`, budget: 4 * feedbackMiB * 1024 * 1024 },
  ];
  for (const v of variants) {
    const r = runChild<ChildResult>('spill', [String(feedbackMiB), String(rounds), String(v.budget)]);
    rows.push(`| ${v.name} | ${feedbackMiB} MiB | ${(r.ms / 1000).toFixed(1)} s | ${r.startRssMiB.toFixed(0)} MiB | ${r.rssMiB.toFixed(0)} MiB | ${(r.rssMiB - r.startRssMiB).toFixed(0)} MiB |`);
    process.stderr.write(`spill ${v.name}: ${JSON.stringify(r)}\n`);
  }
  return [
    `### Feedback past its byte budget, ${rounds} rounds (load ${loadBefore} → ${load()}; one run each, fresh processes)`,
    '',
    '| feedback budget | feedback in flight per round | time | RSS at the start | peak RSS during the job (sampled) | growth |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
