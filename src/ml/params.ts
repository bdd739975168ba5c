/**
 * The parameters of the ML table functions: names, kinds, defaults and
 * checks, written once for SQL (`k := 2`) and the Table API (`{ k: 2 }`).
 *
 * Decision: parameters are checked before anything is planned, so a bad
 * one fails at bind time with a message naming the function, the parameter
 * and what would work. The checked values become the TableFunction node's
 * constant args with every default filled in (and `features` resolved to
 * the column list), so `kmeans(t)` and `kmeans(t, k := 2)` digest alike and
 * share one cache entry. Defaults are Flink ML's (ITERATION-SEMANTICS.md;
 * Flink ML's KMeans seed default is a fixed per-class number — here 0).
 */
import { ValidationError } from '../relnode/errors.js';
import type { TableFunctionArg } from '../relnode/table-function.js';

/** How a parameter's value is read. */
export type ParamKind = 'integer' | 'number' | 'string';

export interface ParamSpec {
  readonly name: string;
  readonly kind: ParamKind;
  /** Undefined: optional without a default (or required when `required`). */
  readonly default?: number | string;
  readonly required?: boolean;
  /** Smallest allowed value (numbers). */
  readonly min?: number;
  /** Largest allowed value (numbers). */
  readonly max?: number;
  /** True when `min` itself is not allowed. */
  readonly exclusiveMin?: boolean;
  /** The Table API's name (camelCase), when it differs. */
  readonly apiName?: string;
}

/** A parameter value as given (SQL literal or API value). */
export type ParamValue = number | string | bigint | boolean | null;

/** Checked parameters by (SQL) name. */
export type Params = ReadonlyMap<string, number | string>;

const SGD_PARAMS: readonly ParamSpec[] = [
  { name: 'label', kind: 'string', required: true },
  { name: 'weight', kind: 'string' },
  { name: 'features', kind: 'string' },
  { name: 'max_iter', kind: 'integer', default: 20, min: 1, apiName: 'maxIter' },
  { name: 'learning_rate', kind: 'number', default: 0.1, min: 0, exclusiveMin: true, apiName: 'learningRate' },
  { name: 'global_batch_size', kind: 'integer', default: 32, min: 1, apiName: 'globalBatchSize' },
  { name: 'tol', kind: 'number', default: 1e-6, min: 0 },
  { name: 'reg', kind: 'number', default: 0, min: 0 },
  { name: 'elastic_net', kind: 'number', default: 0, min: 0, max: 1, apiName: 'elasticNet' },
];

/** The parameters of each training function. */
export const TRAINING_PARAMS: Readonly<Record<string, readonly ParamSpec[]>> = {
  kmeans: [
    { name: 'k', kind: 'integer', default: 2, min: 1 },
    { name: 'max_iter', kind: 'integer', default: 20, min: 1, apiName: 'maxIter' },
    { name: 'seed', kind: 'integer', default: 0 },
    { name: 'features', kind: 'string' },
  ],
  linear_regression: SGD_PARAMS,
  logistic_regression: SGD_PARAMS,
  linear_svc: SGD_PARAMS,
};

/** The parameters of each scoring function. */
export const PREDICT_PARAMS: Readonly<Record<string, readonly ParamSpec[]>> = {
  kmeans_predict: [],
  linear_regression_predict: [],
  logistic_regression_predict: [],
  linear_svc_predict: [{ name: 'threshold', kind: 'number', default: 0 }],
};

function numberOf(fn: string, p: ParamSpec, v: ParamValue): number {
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new ValidationError(`${fn}: parameter ${p.name} must be a number, got ${show(v)}`);
  if (p.kind === 'integer' && !Number.isInteger(n)) throw new ValidationError(`${fn}: parameter ${p.name} must be a whole number, got ${n}`);
  if (p.min !== undefined && (n < p.min || (p.exclusiveMin === true && n === p.min))) {
    throw new ValidationError(`${fn}: parameter ${p.name} must be ${p.exclusiveMin === true ? '>' : '≥'} ${p.min}, got ${n}`);
  }
  if (p.max !== undefined && n > p.max) throw new ValidationError(`${fn}: parameter ${p.name} must be ≤ ${p.max}, got ${n}`);
  return n;
}

function show(v: ParamValue): string {
  return typeof v === 'string' ? `'${v}'` : String(v);
}

/**
 * Checks the given parameters of `fn` against `specs`: unknown names, wrong
 * kinds and out-of-range values fail; defaults fill the rest.
 */
export function checkParams(fn: string, specs: readonly ParamSpec[], given: ReadonlyMap<string, ParamValue>): Params {
  const out = new Map<string, number | string>();
  for (const name of given.keys()) {
    if (!specs.some((s) => s.name === name)) {
      const known = specs.map((s) => s.name);
      throw new ValidationError(`${fn}: unknown parameter "${name}"; ${known.length > 0 ? `known: ${known.join(', ')}` : 'it takes no parameters'}`);
    }
  }
  for (const p of specs) {
    const v = given.get(p.name);
    if (v === undefined || v === null) {
      if (p.required === true) throw new ValidationError(`${fn}: parameter ${p.name} is required, e.g. ${p.name} := 'y'`);
      if (p.default !== undefined) out.set(p.name, p.default);
      continue;
    }
    if (p.kind === 'string') {
      if (typeof v !== 'string') throw new ValidationError(`${fn}: parameter ${p.name} must be a string (a column name in quotes), got ${show(v)}`);
      out.set(p.name, v);
    } else out.set(p.name, numberOf(fn, p, v));
  }
  return out;
}

/** The Table API's options object as SQL-named parameters (camelCase names mapped back). */
export function apiParams(fn: string, specs: readonly ParamSpec[], options: object | undefined): Map<string, ParamValue> {
  const out = new Map<string, ParamValue>();
  if (options === undefined || options === null) return out;
  if (typeof options !== 'object') throw new ValidationError(`${fn}: options must be an object, got ${String(options)}`);
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue;
    const spec = specs.find((s) => (s.apiName ?? s.name) === key);
    if (spec === undefined) {
      const known = specs.map((s) => s.apiName ?? s.name);
      throw new ValidationError(`${fn}: unknown option "${key}"; ${known.length > 0 ? `known: ${known.join(', ')}` : 'it takes no options'}`);
    }
    out.set(spec.name, Array.isArray(value) && spec.name === 'features' ? value.join(',') : value as ParamValue);
  }
  return out;
}

/** The node's constant args: every parameter with a value, numbers as DOUBLE (integers as INTEGER). */
export function paramArgs(specs: readonly ParamSpec[], params: Params): TableFunctionArg[] {
  const out: TableFunctionArg[] = [];
  for (const p of specs) {
    const v = params.get(p.name);
    if (v === undefined) continue;
    out.push({ name: p.name, value: v, type: typeof v === 'string' ? 'VARCHAR' : p.kind === 'integer' ? 'INTEGER' : 'DOUBLE' });
  }
  return out;
}

/** A number parameter (present after `checkParams`). */
export function num(params: Params, name: string): number {
  const v = params.get(name);
  if (typeof v !== 'number') throw new Error(`internal error: parameter ${name} is not a number`);
  return v;
}

/** A string parameter, or undefined. */
export function str(params: Params, name: string): string | undefined {
  const v = params.get(name);
  return typeof v === 'string' ? v : undefined;
}
