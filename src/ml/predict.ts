/**
 * Scoring: table functions that apply a model table to data —
 * `kmeans_predict(model, data)`, `linear_regression_predict`,
 * `logistic_regression_predict`, `linear_svc_predict(model, data,
 * threshold := 0)` — each returning the data's columns plus its scores.
 *
 * Decision: one two-input operator per data partition: input 0 is the
 * model (broadcast, small), read to the end first (`selectInput`), then
 * each data batch is scored in one pass over typed arrays and passed on
 * with its own columns untouched plus the score columns. The model is a
 * table like any other, so it may come from a training in the same query,
 * a cached training, or a file. k-means models name their features in the
 * schema (cluster, features…, weight), so the data columns are resolved at
 * bind time; linear models name them in rows (feature, coefficient), so the
 * data's numeric columns are handed over as DOUBLE and matched by name when
 * the model arrives (a feature the data lacks is an error then). A row with
 * a NULL feature gets NULL scores. Scores follow Flink ML: k-means the
 * nearest centroid (strict <); linear regression dot(x, coef); logistic
 * regression probability = sigmoid(dot), prediction 1 iff dot ≥ 0
 * (raw_prediction = dot); linear SVC prediction 1 iff dot ≥ threshold.
 */
import type { RecordBatch } from 'apache-arrow';
import { batchFromColumns } from '../exec/batch.js';
import type { JobGraphBuilder } from '../exec/job.js';
import type { Operator, OperatorContext } from '../exec/operator.js';
import { valueReader } from '../exec/row-values.js';
import { ExecutionError, InternalError, ValidationError } from '../relnode/errors.js';
import * as rel from '../relnode/rel.js';
import { cast, inputRef } from '../relnode/rex.js';
import { tableFunction, type TableFunction } from '../relnode/table-function.js';
import { field, isNumeric, schemaOf, type Field } from '../relnode/types.js';
import { findColumn, float64Data, int32Data } from './columns.js';
import { checkParams, num, paramArgs, PREDICT_PARAMS, type ParamValue } from './params.js';

/** What a scorer computes for one row from its features (a DOUBLE per feature). */
interface Scorer {
  /** Reads the model's batches (called once, when the model input ended). */
  load(model: readonly RecordBatch[]): void;
  /** Data column positions (among the DOUBLE columns after the data's own) of the features. */
  readonly featureColumns: readonly number[];
  /** Number of output score columns. */
  readonly outputs: number;
  /** Writes row i's scores into out[c][i]. */
  score(x: Float64Array, i: number, out: Float64Array[]): void;
  /** The output columns' Arrow data from the score arrays. */
  columns(out: Float64Array[], bitmap: Uint8Array | undefined, nulls: number): ReturnType<typeof float64Data | typeof int32Data>[];
}

class PredictOperator implements Operator {
  private ctx!: OperatorContext;
  private readonly model: RecordBatch[] = [];
  private loaded = false;

  constructor(private readonly scorer: Scorer, private readonly dataWidth: number) {}

  open(ctx: OperatorContext): void { this.ctx = ctx; }
  selectInput(): number { return this.loaded ? -1 : 0; }
  onInputEnd(input: number): void {
    if (input === 0 && !this.loaded) { this.scorer.load(this.model); this.loaded = true; }
  }

  processBatch(input: number, batch: RecordBatch): void {
    if (input === 0) { this.model.push(batch); return; }
    if (!this.loaded) throw new InternalError('data scored before the model ended');
    const s = this.scorer;
    const n = batch.numRows;
    const ch = batch.data.children;
    const fcols = s.featureColumns.map((c) => ch[this.dataWidth + c]!);
    const vals = fcols.map((d) => d.values as Float64Array);
    const out = Array.from({ length: s.outputs }, () => new Float64Array(n));
    const x = new Float64Array(vals.length);
    const anyNull = fcols.some((d) => d.nullCount > 0);
    let bitmap: Uint8Array | undefined;
    let nulls = 0;
    if (!anyNull) {
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < vals.length; j++) x[j] = vals[j]![i]!;
        s.score(x, i, out);
      }
    } else {
      bitmap = new Uint8Array((n + 7) >> 3);
      const valid = fcols.map((d) => valueReader(d, 'feature'));
      for (let i = 0; i < n; i++) {
        let ok = true;
        for (let j = 0; j < vals.length; j++) { if (valid[j]!(i) === null) { ok = false; break; } x[j] = vals[j]![i]!; }
        if (ok) { s.score(x, i, out); bitmap[i >> 3] |= 1 << (i & 7); } else nulls++;
      }
    }
    const cols = [...ch.slice(0, this.dataWidth), ...s.columns(out, bitmap, nulls)];
    this.ctx.emit(batchFromColumns(this.ctx.outputSchema, cols, n));
  }

  finish(): void {}
  close(): void {}
  snapshotState(): unknown { return { model: this.model, loaded: this.loaded }; }
  restoreState(state: unknown): void {
    const s = state as { model: RecordBatch[]; loaded: boolean };
    this.model.push(...s.model);
    if (s.loaded) this.onInputEnd(0);
  }
}

/** k-means: the nearest centroid's cluster id. */
function kmeansScorer(d: number): () => Scorer {
  return () => {
    let ids = new Int32Array(0);
    let cent = new Float64Array(0);
    return {
      featureColumns: Array.from({ length: d }, (_, j) => j),
      outputs: 1,
      load(model) {
        const k = model.reduce((s, b) => s + b.numRows, 0);
        ids = new Int32Array(k);
        cent = new Float64Array(k * d);
        let r = 0;
        for (const b of model) {
          const ch = b.data.children;
          for (let i = 0; i < b.numRows; i++, r++) {
            if (ch.some((c) => c.nullCount > 0)) throw new ExecutionError('kmeans_predict: the model has NULL values; it must be a kmeans(...) result');
            ids[r] = (ch[0]!.values as Int32Array)[i]!;
            for (let j = 0; j < d; j++) cent[r * d + j] = (ch[j + 1]!.values as Float64Array)[i]!;
          }
        }
        if (k === 0) throw new ExecutionError('kmeans_predict: the model has no centroid');
      },
      score(x, i, out) {
        let best = 0;
        let bestD = Infinity;
        for (let c = 0; c < ids.length; c++) {
          let dist = 0;
          for (let j = 0; j < d; j++) { const t = x[j]! - cent[c * d + j]!; dist += t * t; }
          if (dist < bestD) { bestD = dist; best = c; }
        }
        out[0]![i] = ids[best]!;
      },
      columns: (out, bitmap, nulls) => [int32Data(Int32Array.from(out[0]!), bitmap, nulls)],
    };
  };
}

type LinearKind = 'linear_regression_predict' | 'logistic_regression_predict' | 'linear_svc_predict';

/** Linear models: the model's features matched by name to the data's numeric columns when the model arrives. */
function linearScorer(fn: LinearKind, numericNames: readonly string[], threshold: number): () => Scorer {
  return () => {
    const featureColumns: number[] = [];
    let coef = new Float64Array(0);
    return {
      featureColumns,
      outputs: fn === 'logistic_regression_predict' ? 3 : fn === 'linear_svc_predict' ? 2 : 1,
      load(model) {
        const cs: number[] = [];
        for (const b of model) {
          const name = valueReader(b.data.children[0]!, 'feature');
          const value = valueReader(b.data.children[1]!, 'coefficient');
          for (let i = 0; i < b.numRows; i++) {
            const f = name(i), c = value(i);
            if (typeof f !== 'string' || typeof c !== 'number') throw new ExecutionError(`${fn}: the model has a NULL feature or coefficient; it must be a ${fn.replace('_predict', '')}(...) result`);
            let at = numericNames.indexOf(f);
            if (at < 0) {
              const ci = numericNames.flatMap((x, k) => (x.toLowerCase() === f.toLowerCase() ? [k] : []));
              if (ci.length === 1) at = ci[0]!;
            }
            if (at < 0) throw new ExecutionError(`${fn}: the model's feature "${f}" is not a numeric column of the data (numeric columns: ${numericNames.join(', ') || 'none'})`);
            featureColumns.push(at);
            cs.push(c);
          }
        }
        if (cs.length === 0) throw new ExecutionError(`${fn}: the model has no coefficient`);
        coef = Float64Array.from(cs);
      },
      score(x, i, out) {
        let dot = 0;
        for (let j = 0; j < coef.length; j++) dot += coef[j]! * x[j]!;
        if (fn === 'linear_regression_predict') { out[0]![i] = dot; return; }
        if (fn === 'linear_svc_predict') { out[0]![i] = dot >= threshold ? 1 : 0; out[1]![i] = dot; return; }
        const p = 1 / (1 + Math.exp(-dot));
        out[0]![i] = dot >= 0 ? 1 : 0; out[1]![i] = dot; out[2]![i] = p;
      },
      columns: (out, bitmap, nulls) => out.map((o) => float64Data(o, bitmap, nulls)),
    };
  };
}

/** How a scoring function runs: one PredictOperator per data partition, the model broadcast to each. */
class PredictImpl {
  constructor(private readonly scorer: () => Scorer, private readonly dataWidth: number) {}

  lower(b: JobGraphBuilder, inputs: readonly number[], _parallelism: number, node: TableFunction): number {
    const [model, data] = inputs as [number, number];
    return b.addOperator(`${node.name}`, b.parallelismOf(data), node.schema, () => new PredictOperator(this.scorer(), this.dataWidth),
      [{ from: model, partitioner: { kind: 'broadcast' } }, { from: data, partitioner: { kind: 'forward' } }]);
  }
}

function checkModelColumn(fn: string, f: Field | undefined, name: string, numeric: boolean, trainer: string): void {
  if (f === undefined || f.name.toLowerCase() !== name || (numeric ? !isNumeric(f.type) : f.type !== 'VARCHAR')) {
    throw new ValidationError(`${fn}: the model must be a ${trainer}(...) result (columns ${trainer === 'kmeans' ? 'cluster, the features, weight' : 'feature VARCHAR, coefficient DOUBLE'}); its ${name} column is missing or of the wrong type`);
  }
}

/** The data's columns, then `extra` of them again as DOUBLE (what the scorer reads). */
function dataInput(data: rel.RelNode, extra: readonly number[]): rel.RelNode {
  const fs = data.schema.fields;
  const exprs = [...fs.map((f, i) => inputRef(i, f.type, f.name)), ...extra.map((i) => cast(inputRef(i, fs[i]!.type, fs[i]!.name), 'DOUBLE'))];
  return rel.project(data, exprs, [...fs.map((f) => f.name), ...extra.map((i) => `${fs[i]!.name}#double`)]);
}

const SCORES: Readonly<Record<string, readonly Field[]>> = {
  kmeans_predict: [field('prediction', 'INTEGER')],
  linear_regression_predict: [field('prediction', 'DOUBLE')],
  logistic_regression_predict: [field('prediction', 'DOUBLE'), field('raw_prediction', 'DOUBLE'), field('probability', 'DOUBLE')],
  linear_svc_predict: [field('prediction', 'DOUBLE'), field('raw_prediction', 'DOUBLE')],
};

/** True for the names of the scoring functions. */
export function isPredictFunction(name: string): boolean {
  return Object.hasOwn(SCORES, name);
}

/** A scoring node: `fn(model, data, params)` → the data's columns plus the score columns. */
export function predictNode(fn: string, model: rel.RelNode, data: rel.RelNode, given: ReadonlyMap<string, ParamValue>): TableFunction {
  const specs = PREDICT_PARAMS[fn];
  if (specs === undefined) throw new ValidationError(`unknown scoring function ${fn}`);
  const params = checkParams(fn, specs, given);
  const dfs = data.schema.fields;
  for (const s of SCORES[fn]!) {
    if (dfs.some((f) => f.name.toLowerCase() === s.name)) throw new ValidationError(`${fn}: the data already has a column "${s.name}"; rename it (the scores are added as ${SCORES[fn]!.map((x) => x.name).join(', ')})`);
  }
  const schema = schemaOf([...dfs, ...SCORES[fn]!]);
  const mfs = model.schema.fields;
  if (fn === 'kmeans_predict') {
    checkModelColumn(fn, mfs[0], 'cluster', true, 'kmeans');
    checkModelColumn(fn, mfs[mfs.length - 1], 'weight', true, 'kmeans');
    const features = mfs.slice(1, -1);
    if (features.length === 0) throw new ValidationError(`${fn}: the model has no feature column; it must be a kmeans(...) result`);
    const at = features.map((f) => {
      const i = findColumn(fn, data.schema, f.name, 'feature');
      if (!isNumeric(dfs[i]!.type)) throw new ValidationError(`${fn}: the data's feature column "${dfs[i]!.name}" is ${dfs[i]!.type}, not numeric`);
      return i;
    });
    const m = rel.project(model, mfs.slice(0, -1).map((f, i) => cast(inputRef(i, f.type, f.name), i === 0 ? 'INTEGER' : 'DOUBLE')), mfs.slice(0, -1).map((f) => f.name));
    return tableFunction(fn, [m, dataInput(data, at)], [], schema, new PredictImpl(kmeansScorer(features.length), dfs.length));
  }
  checkModelColumn(fn, mfs[0], 'feature', false, fn.replace('_predict', ''));
  checkModelColumn(fn, mfs[1], 'coefficient', true, fn.replace('_predict', ''));
  const numeric = dfs.flatMap((f, i) => (isNumeric(f.type) ? [i] : []));
  const m = rel.project(model, [inputRef(0, 'VARCHAR', 'feature'), cast(inputRef(1, mfs[1]!.type, 'coefficient'), 'DOUBLE')], ['feature', 'coefficient']);
  const threshold = specs.length > 0 ? num(params, 'threshold') : 0;
  return tableFunction(fn, [m, dataInput(data, numeric)], paramArgs(specs, params), schema,
    new PredictImpl(linearScorer(fn as LinearKind, numeric.map((i) => dfs[i]!.name), threshold), dfs.length));
}
