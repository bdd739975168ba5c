/**
 * FLIP-176's second example: asynchronous SGD linear regression on bounded
 * data. The job graph is the synchronous one's (sgd-linear-regression.ts)
 * without the Sum stage, but nobody waits for the end of a round:
 *
 *   Parameters (p = 1) ──broadcast, addressed to one task──▶ Train (p = 4)
 *        ▲                                                     │ ΔA of one mini-batch, tagged with the task
 *        └──── feedback ◀── Updates (p = 1, forwards) ◀─────────┘
 *
 *   npx tsx examples/iteration/async-sgd-linear-regression.ts [--rows 20000] [--rounds 100] [--train 4] [--batch 200]
 *
 * - Parameters applies every update the moment it arrives and answers the
 *   Train task that sent it, and only that one, with the current model (the
 *   FLIP's `Tuple2<Integer, double[]>`). The FLIP's custom partitioner is a
 *   broadcast here whose rows name their task; each Train subtask drops the
 *   models addressed to others. The initial record (task −1) is answered to
 *   every task.
 * - Train caches its share of the data in list state (not replayed). Round 0
 *   is special, as in the FLIP: its share may still be arriving when the
 *   first model comes, so it keeps that model and computes its first update
 *   in `onEpochWatermarkIncremented(0)`; after that it answers every model at
 *   once with the gradient of its next mini-batch (cycling through its share).
 * - So the tasks progress at their own pace and every update is applied to a
 *   model that already holds some other tasks' updates of the same round:
 *   asynchronous SGD. Epochs still count trips round the loop (each update
 *   goes back with epoch + 1), which is what TerminateOnMaxIter counts; the
 *   final model leaves through a side output at termination.
 */
import { Iterations, OutputTag, ReplayableDataStreamList, TableEnvironment, TerminateOnMaxIter, type CoProcessOperator, type ProcessOperator } from '../../src/index.js';
import type { RecordBatch } from 'apache-arrow';
import { field, schemaOf } from '../../src/relnode/types.js';
import { DIM, SAMPLE, addGradient, arg, cols, dataset, doubles, isMain, modelError, report, rowOf, vec, type ExampleResult } from './linear-model.js';

export interface AsyncSgdOptions {
  readonly rows?: number;
  readonly rounds?: number;
  readonly train?: number;
  /** Samples per update. */
  readonly batch?: number;
  readonly learningRate?: number;
}

export async function run(options: AsyncSgdOptions = {}): Promise<ExampleResult & { readonly updates: number }> {
  const { rows = 20_000, rounds = 100, train = 4, batch = 200, learningRate: LR = 0.5 } = options;
  const env = TableEnvironment.create({ parallelism: train });
  let updates = 0;
  try {
    const s = env.streams;
    const FINAL_MODEL = new OutputTag('final model', schemaOf(cols('a').map((c) => field(c, 'DOUBLE'))));
    const UPDATE = { ...doubles(cols('d')), n: 'DOUBLE' as const, task: 'INTEGER' as const };
    const MODEL = { ...doubles(cols('a')), task: 'INTEGER' as const };
    const init = s.fromRows([rowOf('d', new Array(DIM).fill(0), { n: 0, task: -1 })], { schema: UPDATE, parallelism: 1 });
    const data = s.fromRows(dataset(rows), { schema: SAMPLE, parallelism: train });

    const [finalModel] = Iterations.iterateBoundedStreamsUntilTermination([init], ReplayableDataStreamList.notReplay(data), {}, ([updateStream], [sampleStream]) => {
      const parameters = updateStream!.process((): ProcessOperator => {
        const model = new Array<number>(DIM).fill(0);
        return {
          processElement(u, _ctx, out) {
            const n = u['n'] as number;
            const task = u['task'] as number;
            if (n > 0) { const d = vec(u, 'd'); for (let i = 0; i < DIM; i++) model[i]! -= (LR / n) * d[i]!; updates++; }
            if (task < 0) for (let t = 0; t < train; t++) out.collect(rowOf('a', model, { task: t }));
            else out.collect(rowOf('a', model, { task }));
          },
          onIterationTerminated(ctx) { ctx.output(FINAL_MODEL, rowOf('a', model)); },
        };
      }, { schema: MODEL, name: 'Parameters' }).setParallelism(1);

      const trainer = parameters.broadcast().connect(sampleStream!).process((): CoProcessOperator => {
        let firstModel: number[] | undefined;
        // The mini-batch cursor over the cached share: batch number and row in it.
        let cached: RecordBatch[] = [];
        let bi = 0;
        let ri = 0;
        const update = (a: number[], task: number, out: { collect(r: Record<string, unknown>): void }): void => {
          const delta = new Array<number>(DIM).fill(0);
          let n = 0;
          while (n < batch && cached.length > 0) {
            const b = cached[bi]!;
            const take = Math.min(batch - n, b.numRows - ri);
            n += addGradient(b, a, delta, ri, ri + take);
            ri += take;
            if (ri >= b.numRows) { ri = 0; bi = (bi + 1) % cached.length; }
          }
          if (n > 0) out.collect(rowOf('d', delta, { n, task }));
        };
        return {
          processElement1(m, ctx, out) {
            if (m['task'] !== ctx.subtaskIndex) return; // addressed to another Train task
            if (ctx.epoch === 0) firstModel = vec(m, 'a'); // the share may still be arriving
            else update(vec(m, 'a'), ctx.subtaskIndex, out);
          },
          processBatch2(b, ctx) { ctx.getListState('samples').addBatch(b); },
          onEpochWatermarkIncremented(w, ctx, out) {
            if (w !== 0 || firstModel === undefined) return;
            cached = [...ctx.getListState('samples').batches()];
            update(firstModel, ctx.subtaskIndex, out);
            firstModel = undefined;
          },
        };
      }, { schema: UPDATE, name: 'Train' });

      // The feedback must have the initial stream's parallelism (1): the updates meet in one forwarding stage.
      const toParameters = trainer.process((): ProcessOperator => ({ processBatch(b, _ctx, out) { out.collectBatch(b); } }), { name: 'Updates' }).setParallelism(1);

      return {
        feedbackVariableStreams: [toParameters],
        outputStreams: [parameters.getSideOutput(FINAL_MODEL)],
        terminationCriteria: parameters.process(() => new TerminateOnMaxIter(rounds)).setParallelism(1),
      };
    });

    const t0 = performance.now();
    const [m] = await finalModel!.collect();
    const model = vec(m!, 'a');
    return { model, error: modelError(model), ms: performance.now() - t0, updates };
  } finally {
    await env.close();
  }
}

if (isMain(import.meta.url)) {
  const o = { rows: arg('rows', 20_000), rounds: arg('rounds', 100), train: arg('train', 4), batch: arg('batch', 200) };
  const r = await run(o);
  report(`asynchronous SGD linear regression: ${o.rows} rows, ${o.train} Train subtasks, mini-batches of ${o.batch}, ${o.rounds} rounds, ${r.updates} updates`, r);
}
