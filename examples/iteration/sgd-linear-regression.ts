/**
 * FLIP-176's first example: synchronous SGD linear regression on bounded
 * data, with parallel Train operators and one Parameters operator.
 *
 *   npx tsx examples/iteration/sgd-linear-regression.ts [--rows 20000] [--rounds 60] [--train 4]
 *
 * The job graph, per round e:
 *
 *   Parameters (p = 1) ──broadcast──▶ Train (p = 4, each caching its share of the data)
 *        ▲                                   │ ΔA of its share
 *        └──── feedback ◀── Sum (p = 1) ◀─────┘
 *
 * Parameters emits the model only in `onEpochWatermarkIncremented` (the end
 * of a round), Train computes its update only at the end of a round too, so
 * every round sees exactly the previous round's updates: synchronous
 * training without a barrier of its own. The data is not replayed: each
 * Train subtask keeps its share in cache-backed list state. The final model
 * leaves through a side output when the iteration terminates
 * (TerminateOnMaxIter). Every round is full-batch gradient descent, so the
 * model is the same whatever the number of Train subtasks.
 */
import { Iterations, OutputTag, ReplayableDataStreamList, TableEnvironment, TerminateOnMaxIter, type CoProcessOperator, type ProcessOperator } from '../../src/index.js';
import { field, schemaOf } from '../../src/relnode/types.js';
import { DIM, SAMPLE, addGradient, arg, cols, dataset, doubles, isMain, modelError, report, rowOf, vec, type ExampleResult } from './linear-model.js';

export interface SyncSgdOptions {
  readonly rows?: number;
  readonly rounds?: number;
  readonly train?: number;
  readonly learningRate?: number;
}

export async function run(options: SyncSgdOptions = {}): Promise<ExampleResult> {
  const { rows = 20_000, rounds = 60, train = 4, learningRate: LR = 0.5 } = options;
  const env = TableEnvironment.create({ parallelism: train });
  try {
    const s = env.streams;
    const FINAL_MODEL = new OutputTag('final model', schemaOf(cols('a').map((c) => field(c, 'DOUBLE'))));
    const UPDATE = { ...doubles(cols('d')), n: 'DOUBLE' as const };
    // The variable stream carries model updates; the initial one is "no change".
    const init = s.fromRows([rowOf('d', new Array(DIM).fill(0), { n: 0 })], { schema: UPDATE, parallelism: 1 });
    const data = s.fromRows(dataset(rows), { schema: SAMPLE, parallelism: train });

    const [finalModel] = Iterations.iterateBoundedStreamsUntilTermination([init], ReplayableDataStreamList.notReplay(data), {}, ([updates], [samples]) => {
      const parameters = updates!.process((): ProcessOperator => {
        const model = new Array<number>(DIM).fill(0);
        return {
          processElement(u) { const d = vec(u, 'd'); const n = u['n'] as number; if (n > 0) for (let i = 0; i < DIM; i++) model[i]! -= (LR / n) * d[i]!; },
          onEpochWatermarkIncremented(_w, _ctx, out) { out.collect(rowOf('a', model)); },
          onIterationTerminated(ctx) { ctx.output(FINAL_MODEL, rowOf('a', model)); },
        };
      }, { schema: doubles(cols('a')), name: 'Parameters' }).setParallelism(1);

      const trainer = parameters.broadcast().connect(samples!).process((): CoProcessOperator => {
        const models = new Map<number, number[]>();
        return {
          processElement1(m, ctx) { models.set(ctx.epoch, vec(m, 'a')); },
          processBatch2(b, ctx) { ctx.getListState('samples').addBatch(b); },
          onEpochWatermarkIncremented(w, ctx, out) {
            const a = models.get(w);
            models.delete(w);
            if (a === undefined) return;
            const delta = new Array<number>(DIM).fill(0);
            let n = 0;
            for (const b of ctx.getListState('samples').batches()) n += addGradient(b, a, delta);
            if (n > 0) out.collect(rowOf('d', delta, { n }));
          },
        };
      }, { schema: UPDATE, name: 'Train' });

      const sum = trainer.process((): ProcessOperator => {
        const byEpoch = new Map<number, number[]>();
        return {
          processElement(u, ctx) {
            const acc = byEpoch.get(ctx.epoch) ?? new Array<number>(DIM + 1).fill(0);
            vec(u, 'd').forEach((v, i) => { acc[i]! += v; });
            acc[DIM]! += u['n'] as number;
            byEpoch.set(ctx.epoch, acc);
          },
          onEpochWatermarkIncremented(w, _ctx, out) {
            const acc = byEpoch.get(w);
            byEpoch.delete(w);
            if (acc !== undefined) out.collect(rowOf('d', acc.slice(0, DIM), { n: acc[DIM] }));
          },
        };
      }, { name: 'Sum' }).setParallelism(1);

      return {
        feedbackVariableStreams: [sum],
        outputStreams: [parameters.getSideOutput(FINAL_MODEL)],
        terminationCriteria: parameters.process(() => new TerminateOnMaxIter(rounds)).setParallelism(1),
      };
    });

    const t0 = performance.now();
    const [m] = await finalModel!.collect();
    const model = vec(m!, 'a');
    return { model, error: modelError(model), ms: performance.now() - t0 };
  } finally {
    await env.close();
  }
}

if (isMain(import.meta.url)) {
  const o = { rows: arg('rows', 20_000), rounds: arg('rounds', 60), train: arg('train', 4) };
  report(`synchronous SGD linear regression: ${o.rows} rows, ${o.train} Train subtasks, ${o.rounds} rounds`, await run(o));
}
