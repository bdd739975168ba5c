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
 * (TerminateOnMaxIter).
 */
import { Iterations, OutputTag, ReplayableDataStreamList, TableEnvironment, TerminateOnMaxIter, type CoProcessOperator, type ProcessOperator, type Row } from '../../src/index.js';
import { field, schemaOf } from '../../src/relnode/types.js';

const arg = (name: string, dflt: number): number => { const i = process.argv.indexOf(`--${name}`); return i >= 0 ? Number(process.argv[i + 1]) : dflt; };
const ROWS = arg('rows', 20_000);
const ROUNDS = arg('rounds', 60);
const TRAIN = arg('train', 4);
const DIM = 5;
const TRUE_MODEL = [1.5, -2, 0.5, 3, -1];
const LR = 0.5;

/** A deterministic data set y = x · TRUE_MODEL + small noise. */
function dataset(): Row[] {
  let s = 42;
  const rand = (): number => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
  return Array.from({ length: ROWS }, () => {
    const x = Array.from({ length: DIM }, () => rand() * 2 - 1);
    const y = x.reduce((t, v, i) => t + v * TRUE_MODEL[i]!, 0) + (rand() - 0.5) * 0.01;
    return { ...Object.fromEntries(x.map((v, i) => [`x${i}`, v])), y };
  });
}

const cols = (prefix: string): string[] => Array.from({ length: DIM }, (_, i) => `${prefix}${i}`);
const doubles = (names: string[]): Record<string, 'DOUBLE'> => Object.fromEntries(names.map((n) => [n, 'DOUBLE' as const]));
const vec = (row: Row, prefix: string): number[] => cols(prefix).map((c) => row[c] as number);
const rowOf = (prefix: string, v: readonly number[], extra: Row = {}): Row => ({ ...Object.fromEntries(v.map((x, i) => [`${prefix}${i}`, x])), ...extra });

async function main(): Promise<void> {
  const env = TableEnvironment.create({ parallelism: TRAIN });
  const s = env.streams;
  const FINAL_MODEL = new OutputTag('final model', schemaOf(cols('a').map((c) => field(c, 'DOUBLE'))));
  const UPDATE = { ...doubles(cols('d')), n: 'DOUBLE' as const };
  // The variable stream carries model updates; the initial one is "no change".
  const init = s.fromRows([rowOf('d', new Array(DIM).fill(0), { n: 0 })], { schema: UPDATE, parallelism: 1 });
  const data = s.fromRows(dataset(), { schema: doubles([...cols('x'), 'y']), parallelism: TRAIN });

  const [finalModel] = Iterations.iterateBoundedStreamsUntilTermination([init], ReplayableDataStreamList.notReplay(data), {}, ([updates], [samples]) => {
    const parameters = updates!.process((): ProcessOperator => {
      const model = new Array<number>(DIM).fill(0);
      return {
        processElement(u) { const d = vec(u, 'd'); const n = u['n'] as number; if (n > 0) for (let i = 0; i < DIM; i++) model[i]! -= (LR / n) * d[i]!; },
        onEpochWatermarkIncremented(_w, _ctx, out) { out.collect(rowOf('a', model)); },
        onIterationTerminated(ctx) { ctx.output(FINAL_MODEL, rowOf('a', model)); },
      };
    }, { schema: doubles(cols('a')), name: 'Parameters' }).setParallelism(1);

    const train = parameters.broadcast().connect(samples!).process((): CoProcessOperator => {
      const models = new Map<number, number[]>();
      return {
        processElement1(m, ctx) { models.set(ctx.epoch, vec(m, 'a')); },
        processElement2(r, ctx) { ctx.getListState('samples').add(r); },
        onEpochWatermarkIncremented(w, ctx, out) {
          const a = models.get(w);
          models.delete(w);
          if (a === undefined) return;
          const delta = new Array<number>(DIM).fill(0);
          let n = 0;
          for (const r of ctx.getListState('samples').rows()) {
            const x = vec(r, 'x');
            let diff = -(r['y'] as number);
            for (let i = 0; i < DIM; i++) diff += x[i]! * a[i]!;
            for (let i = 0; i < DIM; i++) delta[i]! += diff * x[i]!;
            n++;
          }
          if (n > 0) out.collect(rowOf('d', delta, { n }));
        },
      };
    }, { schema: UPDATE, name: 'Train' });

    const sum = train.process((): ProcessOperator => {
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
      terminationCriteria: parameters.process(() => new TerminateOnMaxIter(ROUNDS)).setParallelism(1),
    };
  });

  const t0 = performance.now();
  const [model] = await finalModel!.collect();
  const ms = performance.now() - t0;
  const a = cols('a').map((c) => model![c] as number);
  const err = Math.sqrt(a.reduce((t, v, i) => t + (v - TRUE_MODEL[i]!) ** 2, 0));
  console.log(`synchronous SGD linear regression: ${ROWS} rows, ${TRAIN} Train subtasks, ${ROUNDS} rounds in ${ms.toFixed(0)} ms`);
  console.log(`model:          [${a.map((v) => v.toFixed(4)).join(', ')}]`);
  console.log(`known solution: [${TRUE_MODEL.map((v) => v.toFixed(4)).join(', ')}]`);
  console.log(`error (L2):     ${err.toExponential(2)}`);
  await env.close();
}

await main();
