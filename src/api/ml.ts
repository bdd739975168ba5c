/**
 * The ML functions of the Table API (`env.ml`, docs/ml.md): training
 * (k-means, linear and logistic regression, linear SVC) and scoring, each
 * returning a lazy Table over a TableFunction node.
 *
 * Decision: the same node builders as SQL's `kmeans(points, k := 2)`
 * (src/ml/functions.ts), with camelCase option names mapped to the SQL
 * parameters, so a training written in either front end digests alike and
 * a cached model (`.cache()`) is found by both.
 */
import { ValidationError } from '../relnode/errors.js';
import { apiParams, mlNode, PREDICT_PARAMS, TRAINING_PARAMS } from '../ml/index.js';
import type { QueryRunner } from './runner.js';
import { Table } from './table.js';

/** Options of `env.ml.kmeans`. */
export interface KMeansOptions {
  /** Number of centroids (default 2). */
  readonly k?: number;
  /** Rounds (default 20): maxIter rounds give maxIter updates. */
  readonly maxIter?: number;
  /** Seed of the random initial centroids (default 0). */
  readonly seed?: number;
  /** Feature columns (default: every column). */
  readonly features?: string | readonly string[];
}

/** Options of the SGD trainings (Flink ML's parameters and defaults). */
export interface SgdTrainingOptions {
  /** The label column (required); 0/1 for logistic regression and linear SVC. */
  readonly label: string;
  /** A weight column (default: every row weighs 1). */
  readonly weight?: string;
  /** Feature columns (default: every column except label and weight). */
  readonly features?: string | readonly string[];
  /** Rounds (default 20). */
  readonly maxIter?: number;
  /** Default 0.1. */
  readonly learningRate?: number;
  /** Rows per round over all subtasks (default 32). */
  readonly globalBatchSize?: number;
  /** Stop when the mean loss is at most this (default 1e-6). */
  readonly tol?: number;
  /** Regularization strength (default 0). */
  readonly reg?: number;
  /** 0 = L2, 1 = L1, between = elastic net (default 0). */
  readonly elasticNet?: number;
}

/** The ML functions of one TableEnvironment. */
export class MlFunctions {
  /** @internal Use `env.ml`. */
  constructor(private readonly runner: QueryRunner) {}

  private table(t: unknown, fn: string, what: string): Table {
    if (!(t instanceof Table)) throw new ValidationError(`ml.${fn}: ${what} must be a Table, got ${String(t)}`);
    if (t.runner !== this.runner) throw new ValidationError(`ml.${fn}: ${what} belongs to another TableEnvironment`);
    return t;
  }

  private train(fn: string, api: string, t: Table, options: object | undefined): Table {
    const node = mlNode(fn, [this.table(t, api, 'the training table').plan], apiParams(`ml.${api}`, TRAINING_PARAMS[fn]!, options));
    return new Table(this.runner, node, node.schema.fields);
  }

  private score(fn: string, api: string, model: Table, data: Table, options?: object): Table {
    const node = mlNode(fn, [this.table(model, api, 'the model').plan, this.table(data, api, 'the data').plan], apiParams(`ml.${api}`, PREDICT_PARAMS[fn]!, options));
    return new Table(this.runner, node, node.schema.fields);
  }

  /** k-means: one row per centroid — cluster (INTEGER), the feature columns (DOUBLE), weight (points assigned). */
  kmeans(table: Table, options: KMeansOptions = {}): Table {
    return this.train('kmeans', 'kmeans', table, options);
  }

  /** Linear regression by SGD (least squares, no intercept): one row per feature — feature, coefficient. */
  linearRegression(table: Table, options: SgdTrainingOptions): Table {
    return this.train('linear_regression', 'linearRegression', table, options);
  }

  /** Logistic regression (labels 0/1) by SGD: one row per feature — feature, coefficient. */
  logisticRegression(table: Table, options: SgdTrainingOptions): Table {
    return this.train('logistic_regression', 'logisticRegression', table, options);
  }

  /** Linear SVC (hinge loss, labels 0/1) by SGD: one row per feature — feature, coefficient. */
  linearSvc(table: Table, options: SgdTrainingOptions): Table {
    return this.train('linear_svc', 'linearSvc', table, options);
  }

  /** The data's columns plus `prediction` (INTEGER): the nearest centroid's cluster of a kmeans model. */
  kmeansPredict(model: Table, data: Table): Table {
    return this.score('kmeans_predict', 'kmeansPredict', model, data);
  }

  /** The data's columns plus `prediction` (DOUBLE) = Σ coefficient · feature. */
  linearRegressionPredict(model: Table, data: Table): Table {
    return this.score('linear_regression_predict', 'linearRegressionPredict', model, data);
  }

  /** The data's columns plus `prediction` (1 iff the dot product ≥ 0), `raw_prediction` (the dot product) and `probability` (its sigmoid). */
  logisticRegressionPredict(model: Table, data: Table): Table {
    return this.score('logistic_regression_predict', 'logisticRegressionPredict', model, data);
  }

  /** The data's columns plus `prediction` (1 iff the dot product ≥ threshold, default 0) and `raw_prediction`. */
  linearSvcPredict(model: Table, data: Table, options: { readonly threshold?: number } = {}): Table {
    return this.score('linear_svc_predict', 'linearSvcPredict', model, data, options);
  }
}
