/**
 * Linear models by SGD (Flink ML's SGD optimizer): linear regression,
 * logistic regression and linear SVC on the iteration core.
 *
 * Decision: Flink ML's loop. The variable is the reduced feedback
 * (gradient sums…, total weight, total loss; zeros at first, parallelism 1);
 * the training data is not replayed: each training subtask caches its
 * share in list state in round 0. At epoch watermark w a subtask applies
 * the feedback of epoch w (the gradients of round w − 1: coef −= lr /
 * totalWeight · Σ gradient, then the regularization step), computes the
 * gradient of its next local mini-batch (globalBatchSize split over the
 * subtasks, the remainder to the first ones; the offset wraps at the end
 * of the cache) and emits it; one reducer sums the subtasks' arrays. The
 * criteria is TerminateOnMaxIterOrTol(maxIter, tol) on totalLoss /
 * totalWeight, and the last update happens at termination, so maxIter
 * rounds give exactly maxIter updates (ITERATION-SEMANTICS.md). Every
 * subtask applies the same updates, so subtask 0 emits the model: one row
 * per feature, in feature order. No intercept (Flink ML fits none).
 */
import type { RecordBatch } from 'apache-arrow';
import type { JobGraphBuilder } from '../exec/job.js';
import { batchFromColumns } from '../exec/batch.js';
import { ExecutionError } from '../relnode/errors.js';
import * as rel from '../relnode/rel.js';
import { tableFunction, type TableFunction } from '../relnode/table-function.js';
import { field, schemaOf } from '../relnode/types.js';
import { Iterations, ReplayableDataStreamList, TerminateOnMaxIterOrTol } from '../iteration/index.js';
import type { DataStream } from '../iteration/stream/data-stream.js';
import { OutputTag, type Collector, type CoProcessOperator, type ProcessContext, type ProcessOperator } from '../iteration/stream/process.js';
import { doubles, float64Data, trainingColumns } from './columns.js';
import { binaryLogistic, hinge, leastSquares, regularize, type LossFunction } from './losses.js';
import { checkParams, num, paramArgs, str, TRAINING_PARAMS, type Params, type ParamValue } from './params.js';
import { forwardOf, hostStreamJob, partitioned } from './stream-job.js';
import { noteRound, noteTraining } from './stats.js';
import { exitIteration } from './exit.js';
import { IterationStats, type IterationStatsSink } from '../iteration/table/state.js';

/** The SGD settings (Flink ML's names). */
export interface SgdOptions {
  readonly fn: string;
  readonly loss: LossFunction;
  readonly features: readonly string[];
  readonly label: string;
  /** Whether the data has a weight column after the label. */
  readonly weighted: boolean;
  readonly maxIter: number;
  readonly learningRate: number;
  readonly globalBatchSize: number;
  readonly tol: number;
  readonly reg: number;
  readonly elasticNet: number;
}

const MODEL_SCHEMA = schemaOf([field('feature', 'VARCHAR', false), field('coefficient', 'DOUBLE', false)]);

/** Caches the data, applies each round's reduced gradients and computes the next mini-batch's. */
function trainOperator(o: SgdOptions, model: OutputTag): () => CoProcessOperator {
  const d = o.features.length;
  return () => {
    const coef = new Float64Array(d);
    const pending = new Map<number, Float64Array>();
    let nextOffset = 0;
    const apply = (f: Float64Array | undefined): void => {
      if (f === undefined || !(f[d]! > 0)) return;
      const step = o.learningRate / f[d]!;
      for (let j = 0; j < d; j++) coef[j] -= step * f[j]!;
      regularize(coef, o.reg, o.elasticNet, o.learningRate);
    };
    return {
      open(ctx: ProcessContext) { if (ctx.subtaskIndex === 0) noteTraining(o.fn); },
      processBatch1(batch: RecordBatch, ctx: ProcessContext) {
        const ch = batch.data.children;
        for (let i = 0; i < batch.numRows; i++) pending.set(ctx.epoch, Float64Array.from({ length: d + 2 }, (_, j) => (ch[j]!.values as Float64Array)[i]!));
      },
      processBatch2(batch: RecordBatch, ctx: ProcessContext) {
        for (let j = 0; j < d; j++) doubles(o.fn, batch, j, o.features[j]!);
        const labels = doubles(o.fn, batch, d, o.label);
        if (o.weighted) doubles(o.fn, batch, d + 1, 'weight');
        if (o.loss.binary) {
          for (let i = 0; i < labels.length; i++) {
            const y = labels[i]!;
            if (y !== 0 && y !== 1) throw new ExecutionError(`${o.fn}: the label column "${o.label}" has the value ${y}; labels must be 0 or 1`);
          }
        }
        ctx.getListState('data').addBatch(batch);
      },
      onEpochWatermarkIncremented(w: number, ctx: ProcessContext, out: Collector) {
        apply(pending.get(w));
        pending.delete(w);
        const state = ctx.getListState('data');
        const total = state.size;
        let local = Math.floor(o.globalBatchSize / ctx.parallelism);
        if (ctx.subtaskIndex < o.globalBatchSize % ctx.parallelism) local++;
        const from = nextOffset;
        const to = Math.min(total, from + local);
        nextOffset = from + local >= total ? 0 : from + local;
        const acc = new Float64Array(d + 2);
        const loss = new Float64Array(1);
        let base = 0;
        for (const b of state.batches()) {
          const n = b.numRows;
          if (base + n > from && base < to) {
            const cols = Array.from({ length: d }, (_, j) => b.data.children[j]!.values as Float64Array);
            const ys = b.data.children[d]!.values as Float64Array;
            const ws = o.weighted ? b.data.children[d + 1]!.values as Float64Array : undefined;
            for (let i = Math.max(0, from - base), end = Math.min(n, to - base); i < end; i++) {
              let dot = 0;
              for (let j = 0; j < d; j++) dot += coef[j]! * cols[j]![i]!;
              const wt = ws === undefined ? 1 : ws[i]!;
              const m = o.loss.step(dot, ys[i]!, wt, loss);
              for (let j = 0; j < d; j++) acc[j] += m * cols[j]![i]!;
              acc[d] += wt;
            }
          }
          base += n;
          if (base >= to) break;
        }
        acc[d + 1] = loss[0]!;
        out.collectBatch(batchFromColumns([...o.features.map((_, j) => `g${j}`), 'weight', 'loss'], Array.from(acc, (v) => float64Data(Float64Array.of(v))), 1));
      },
      onIterationTerminated(ctx: ProcessContext) {
        for (const e of [...pending.keys()].sort((a, b) => a - b)) apply(pending.get(e)); // the last update happens at termination
        pending.clear();
        if (ctx.subtaskIndex === 0) o.features.forEach((f, j) => ctx.output(model, { feature: f, coefficient: coef[j]! }));
      },
    };
  };
}

/** Sums the subtasks' gradient arrays of each round. */
function reduceOperator(fn: string, width: number): () => ProcessOperator {
  return () => {
    const sums = new Map<number, Float64Array>();
    return {
      processBatch(batch: RecordBatch, ctx: ProcessContext) {
        let s = sums.get(ctx.epoch);
        if (s === undefined) sums.set(ctx.epoch, s = new Float64Array(width));
        const ch = batch.data.children;
        for (let i = 0; i < batch.numRows; i++) for (let j = 0; j < width; j++) s[j] += (ch[j]!.values as Float64Array)[i]!;
      },
      onEpochWatermarkIncremented(w: number, _ctx: ProcessContext, out: Collector) {
        const s = sums.get(w);
        sums.delete(w);
        if (s !== undefined) noteRound(fn, w, s[width - 1]! / s[width - 2]!);
        if (s !== undefined) out.collectBatch(batchFromColumns(Array.from({ length: width }, (_, j) => `c${j}`), Array.from(s, (v) => float64Data(Float64Array.of(v))), 1));
      },
    };
  };
}

/** Loss per unit weight of each reduced round: TerminateOnMaxIterOrTol's input. */
function meanLossOperator(d: number): () => ProcessOperator {
  return () => ({
    processBatch(batch: RecordBatch, _ctx: ProcessContext, out: Collector) {
      const ch = batch.data.children;
      const loss = Float64Array.from({ length: batch.numRows }, (_, i) => (ch[d + 1]!.values as Float64Array)[i]! / (ch[d]!.values as Float64Array)[i]!);
      out.collectBatch(batchFromColumns(['loss'], [float64Data(loss)], batch.numRows));
    },
  });
}

/** The SGD iteration over `data` (features…, label, [weight], DOUBLE); returns the model stream (feature, coefficient). */
export function sgdStream(env: DataStream['env'], data: DataStream, o: SgdOptions): DataStream {
  const d = o.features.length;
  const width = d + 2;
  const feedbackSchema = schemaOf(Array.from({ length: width }, (_, j) => field(`c${j}`, 'DOUBLE', false)));
  const zeros = Object.fromEntries(feedbackSchema.fields.map((f) => [f.name, 0]));
  const init = env.fromRows([zeros], { schema: feedbackSchema });
  const model = new OutputTag('model', MODEL_SCHEMA);
  const p = data.parallelism;
  const [out] = Iterations.iterateBoundedStreamsUntilTermination([init], ReplayableDataStreamList.notReplay(forwardOf(data)), {}, ([feedback], [rows]) => {
    const train = partitioned(feedback!, { kind: 'broadcast' }).connect(forwardOf(rows!))
      .process(trainOperator(o, model), { name: `${o.fn}Train`, schema: feedbackSchema }).setParallelism(p);
    const reduced = partitioned(train, { kind: 'rebalance' }).process(reduceOperator(o.fn, width), { name: `${o.fn}Reduce` }).setParallelism(1);
    const criteria = forwardOf(forwardOf(reduced).process(meanLossOperator(d), { name: 'MeanLoss', schema: { loss: 'DOUBLE' } }).setParallelism(1))
      .process(() => new TerminateOnMaxIterOrTol(o.maxIter, o.tol), { name: 'TerminateOnMaxIterOrTol' }).setParallelism(1);
    const coefficients = partitioned(train.getSideOutput(model), { kind: 'rebalance' })
      .process(() => ({ processBatch(b, _ctx, c) { c.collectBatch(b); } }), { name: `${o.fn}Model`, schema: MODEL_SCHEMA }).setParallelism(1);
    return { feedbackVariableStreams: [reduced], outputStreams: [coefficients], terminationCriteria: criteria };
  });
  return out!;
}

const LOSSES: Readonly<Record<string, LossFunction>> = { linear_regression: leastSquares, logistic_regression: binaryLogistic, linear_svc: hinge };

/** How an SGD table function runs (TableFunctionImpl of planner/lower.ts). */
class SgdImpl {
  constructor(private readonly options: SgdOptions) {}

  lower(b: JobGraphBuilder, inputs: readonly number[], parallelism: number, node: TableFunction, onStats?: IterationStatsSink): number {
    const stats = new IterationStats();
    const exit = hostStreamJob(b, inputs, [node.inputs[0]!.schema], parallelism, ({ env, inputs: [data] }) => exitIteration(sgdStream(env, data!, this.options), node.schema, stats));
    onStats?.(exit, stats);
    return exit;
  }
}

/** The `linear_regression` / `logistic_regression` / `linear_svc` node: one row per feature (feature, coefficient). */
export function sgdNode(fn: 'linear_regression' | 'logistic_regression' | 'linear_svc', input: rel.RelNode, given: ReadonlyMap<string, ParamValue>): TableFunction {
  const specs = TRAINING_PARAMS[fn]!;
  const params: Params = checkParams(fn, specs, given);
  const weight = str(params, 'weight');
  const features = str(params, 'features');
  const cols = trainingColumns(fn, input, { label: str(params, 'label')!, ...(weight !== undefined ? { weight } : {}), ...(features !== undefined ? { features } : {}) });
  const resolved = new Map(params).set('features', cols.features.join(','));
  const options: SgdOptions = {
    fn, loss: LOSSES[fn]!, features: cols.features, label: cols.label!, weighted: cols.weight !== undefined,
    maxIter: num(params, 'max_iter'), learningRate: num(params, 'learning_rate'), globalBatchSize: num(params, 'global_batch_size'),
    tol: num(params, 'tol'), reg: num(params, 'reg'), elasticNet: num(params, 'elastic_net'),
  };
  return tableFunction(fn, [cols.plan], paramArgs(specs, resolved), MODEL_SCHEMA, new SgdImpl(options));
}
