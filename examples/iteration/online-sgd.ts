/**
 * FLIP-176's online examples: mini-batch SGD linear regression on an
 * unbounded stream of samples (`iterateUnboundedStreams`), synchronous or
 * asynchronous.
 *
 *   npx tsx examples/iteration/online-sgd.ts [--mode sync|async] [--versions 300] [--train 4] [--batch 64] [--publish 10]
 *
 *   Parameters (p = 1) ──broadcast──▶ Train (p = 4) ◀──rebalance── samples (never-ending)
 *        ▲                             │ ΔA of one mini-batch, tagged with the task
 *        └── feedback ◀── Updates (p = 1, forwards) ◀┘
 *
 * - **Synchronous**: Parameters broadcasts the initial model; each Train task
 *   waits for a full mini-batch, sends its update and waits for the next
 *   model; Parameters waits for one update from every task, applies their
 *   sum and broadcasts the new model version (the FLIP's
 *   `ParametersCacheFunction(numOfTrainTasks)`).
 * - **Asynchronous**: Parameters applies every update at once and answers
 *   only the task that sent it with the current model; a version is
 *   counted after every `train` updates, to compare with the synchronous form.
 *
 * Every `publish`-th version goes to the output (a side output of
 * Parameters); the environment's batch size is small (256) so that the
 * stream arrives a few mini-batches at a time rather than 65,536 samples at
 * once (Train keeps at most a window of the freshest samples:
 * mini-batch-train.ts).
 *
 * There are no rounds: the samples never end, so no epoch watermark ever
 * reaches Train (ITERATION-SEMANTICS.md S4/S8) and everything is driven by
 * records going round the loop. The iteration never terminates by itself:
 * the program reads the model versions with `rows()` and breaks out after
 * `versions` of them, which cancels the job. Each sample is used once.
 */
import { Iterations, OutputTag, TableEnvironment, type ProcessOperator } from '../../src/index.js';
import { field, schemaOf } from '../../src/relnode/types.js';
import { DIM, SAMPLE, arg, cols, doubles, isMain, modelError, report, rowOf, samples, vec, type ExampleResult } from './linear-model.js';
import { miniBatchTrain, type TrainStats } from './mini-batch-train.js';

export interface OnlineSgdOptions {
  readonly mode?: 'sync' | 'async';
  /** Model versions to read before stopping the job. */
  readonly versions?: number;
  readonly train?: number;
  /** Samples per update. */
  readonly batch?: number;
  /** Publish every n-th version. */
  readonly publish?: number;
  readonly learningRate?: number;
}

export async function run(options: OnlineSgdOptions = {}): Promise<ExampleResult & { readonly versions: number; readonly samplesUsed: number } & TrainStats> {
  const { mode = 'sync', versions = 300, train = 4, batch = 64, publish = 10, learningRate: LR = 0.5 } = options;
  // Small batches: the stream arrives a mini-batch or so at a time, not 65,536 samples at once.
  const env = TableEnvironment.create({ parallelism: train, batchSize: 256 });
  const stats: TrainStats = { maxBuffered: 0, dropped: 0 };
  let samplesUsed = 0;
  try {
    const s = env.streams;
    const VERSIONS = new OutputTag('model versions', schemaOf([...cols('a').map((c) => field(c, 'DOUBLE')), field('version', 'INTEGER')]));
    const UPDATE = { ...doubles(cols('d')), n: 'DOUBLE' as const, task: 'INTEGER' as const };
    const MODEL = { ...doubles(cols('a')), task: 'INTEGER' as const };
    const init = s.fromRows([rowOf('d', new Array(DIM).fill(0), { n: 0, task: -1 })], { schema: UPDATE, parallelism: 1 });
    // A never-ending stream: each run reads a fresh generator.
    const stream = s.fromAsyncIterable({ [Symbol.asyncIterator]: async function* () { yield* samples(); } }, { schema: SAMPLE });

    const [modelVersions] = Iterations.iterateUnboundedStreams([init], [stream], ([updateStream], [sampleStream]) => {
      const parameters = updateStream!.process((): ProcessOperator => {
        const model = new Array<number>(DIM).fill(0);
        const sum = new Array<number>(DIM).fill(0);
        let received = 0;
        let rows = 0;
        let version = 0;
        return {
          processElement(u, ctx, out) {
            const task = u['task'] as number;
            if (task < 0) { out.collect(rowOf('a', model, { task: -1 })); return; } // the initial model, for everyone
            const n = u['n'] as number;
            const d = vec(u, 'd');
            samplesUsed += n;
            received++;
            if (mode === 'async') {
              for (let i = 0; i < DIM; i++) model[i]! -= (LR / n) * d[i]!;
              out.collect(rowOf('a', model, { task })); // answer the sender only
              if (received % train === 0 && ++version % publish === 0) ctx.output(VERSIONS, rowOf('a', model, { version }));
              return;
            }
            for (let i = 0; i < DIM; i++) sum[i]! += d[i]!;
            rows += n;
            if (received < train) return; // wait for every Train task
            for (let i = 0; i < DIM; i++) { model[i]! -= (LR / rows) * sum[i]!; sum[i] = 0; }
            received = 0;
            rows = 0;
            out.collect(rowOf('a', model, { task: -1 }));
            if (++version % publish === 0) ctx.output(VERSIONS, rowOf('a', model, { version }));
          },
        };
      }, { schema: MODEL, name: 'Parameters' }).setParallelism(1);

      const trainer = parameters.broadcast().connect(sampleStream!).process(miniBatchTrain(batch, 16 * batch, stats), { schema: UPDATE, name: 'Train' });
      // The feedback must have the initial stream's parallelism (1).
      const toParameters = trainer.process((): ProcessOperator => ({ processBatch(b, _ctx, out) { out.collectBatch(b); } }), { name: 'Updates' }).setParallelism(1);
      return { feedbackVariableStreams: [toParameters], outputStreams: [parameters.getSideOutput(VERSIONS)] };
    });

    const t0 = performance.now();
    let last: number[] = new Array<number>(DIM).fill(0);
    let seen = 0;
    for await (const v of modelVersions!.rows()) {
      last = vec(v, 'a');
      seen = v['version'] as number;
      if (seen >= versions) break; // cancels the never-ending job
    }
    return { model: last, error: modelError(last), ms: performance.now() - t0, versions: seen, samplesUsed, ...stats };
  } finally {
    await env.close();
  }
}

if (isMain(import.meta.url)) {
  const mode = process.argv.includes('async') ? 'async' : 'sync';
  const o = { mode, versions: arg('versions', 300), train: arg('train', 4), batch: arg('batch', 64), publish: arg('publish', 10) } as const;
  const r = await run(o);
  report(`online ${mode === 'sync' ? 'synchronous' : 'asynchronous'} mini-batch SGD: ${o.train} Train subtasks, mini-batches of ${o.batch}, ${r.versions} model versions from ${r.samplesUsed} samples (${r.dropped} dropped, at most ${r.maxBuffered} buffered)`, r);
}
