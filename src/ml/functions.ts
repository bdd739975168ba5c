/**
 * The ML table functions by name: how SQL (`FROM kmeans(points, k := 2)`)
 * and the Table API (`env.ml.kmeans(table, { k: 2 })`) make their nodes.
 *
 * Decision: one entry point taking the table arguments and the parameters
 * by SQL name, so both front ends check arity and parameters the same way
 * and build the same (digest-equal) TableFunction nodes.
 */
import { ValidationError } from '../relnode/errors.js';
import type { RelNode } from '../relnode/rel.js';
import type { TableFunction } from '../relnode/table-function.js';
import { kmeansNode } from './kmeans.js';
import type { ParamValue } from './params.js';
import { isPredictFunction, predictNode } from './predict.js';
import { sgdNode } from './sgd.js';

/** The training functions (one table argument). */
export const TRAINING_FUNCTIONS = ['kmeans', 'linear_regression', 'logistic_regression', 'linear_svc'] as const;
/** The scoring functions (a model table, then a data table). */
export const PREDICT_FUNCTIONS = ['kmeans_predict', 'linear_regression_predict', 'logistic_regression_predict', 'linear_svc_predict'] as const;

/** True when `name` (lower case) is an ML table function. */
export function isMlFunction(name: string): boolean {
  return (TRAINING_FUNCTIONS as readonly string[]).includes(name) || isPredictFunction(name);
}

/** Builds the node of ML function `name` over `tables` with `params` (by SQL name). */
export function mlNode(name: string, tables: readonly RelNode[], params: ReadonlyMap<string, ParamValue>): TableFunction {
  const training = (TRAINING_FUNCTIONS as readonly string[]).includes(name);
  const want = training ? 1 : 2;
  if (tables.length !== want) {
    throw new ValidationError(training
      ? `${name} takes one table (a table name or a parenthesized query) and then named parameters, e.g. ${name}(points${name === 'kmeans' ? ', k := 2' : ", label := 'y'"})`
      : `${name} takes two tables, the model and then the data, e.g. ${name}(model, data)`);
  }
  switch (name) {
    case 'kmeans': return kmeansNode(tables[0]!, params);
    case 'linear_regression': case 'logistic_regression': case 'linear_svc': return sgdNode(name, tables[0]!, params);
    default:
      if (isPredictFunction(name)) return predictNode(name, tables[0]!, tables[1]!, params);
      throw new ValidationError(`unknown ML function ${name}`);
  }
}
