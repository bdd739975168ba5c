/**
 * Worker jobs deliver whole batches (RunOptions.sliceDeliveries: false, src/planner/ship-worker.ts):
 * the step budget's slices exist for the calling thread's event loop, and on a worker thread the
 * process CPU clock they read counts every thread (a third of TPC-H Q3's worker time went to it).
 */
import { describe, expect, it } from 'vitest';
import type { RecordBatch } from 'apache-arrow';
import { generatedInts } from '../helpers/int-source.js';
import { JobGraphBuilder } from '../../src/exec/job.js';
import type { Operator } from '../../src/exec/operator.js';
import { executeJob, type JobExecution } from '../../src/exec/runtime.js';
import { field, schemaOf } from '../../src/relnode/types.js';
import { WORKER_RUN } from '../../src/planner/ship-task.js';

const S = schemaOf([field('v', 'INTEGER')]);

/** A job whose sink records the size of every batch delivered to it. */
function job(sizes: number[], options: { sliceDeliveries?: boolean }): JobExecution {
  const sink = (): Operator => ({ open() {}, processBatch(_i, b) { sizes.push(b.numRows); }, finish() {}, close() {} });
  const g = new JobGraphBuilder();
  const s = g.addSource('S', 1, S, generatedInts(50_000, 25_000));
  const c = g.addOperator('Sink', 1, S, sink, [{ from: s, partitioner: { kind: 'forward' } }]);
  return executeJob(g.build(c), { batchSize: 25_000, ...options });
}

async function drain(j: AsyncIterable<RecordBatch>): Promise<void> {
  for await (const _ of j) { /* the sink emits nothing */ }
}

describe('deliveries on worker threads', () => {
  it('the calling thread slices a big batch (the first delivery on a channel is at most 4096 rows)', async () => {
    const sizes: number[] = [];
    await drain(job(sizes, {}));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(50_000);
    expect(sizes[0]).toBeLessThanOrEqual(4096);
  });

  it('a worker job delivers every batch whole', async () => {
    const sizes: number[] = [];
    await drain(job(sizes, WORKER_RUN));
    expect(sizes).toEqual([25_000, 25_000]);
    expect(WORKER_RUN.sliceDeliveries).toBe(false);
  });
});
