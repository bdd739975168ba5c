/**
 * Columns in and out of the ML operators: which input columns are the
 * features, label and weight (resolved at bind time), the projection that
 * hands the training job only those, as DOUBLE, and typed-array access to
 * the batches.
 *
 * Decision: the training input is a Project over the user's table —
 * features (in the order asked for), then label, then weight, each cast to
 * DOUBLE — so the operators read `Float64Array`s at fixed positions and
 * never look at names or types; the planner prunes and pushes through it
 * like any projection. A NULL in a training column is an error (Flink ML
 * has no NULLs to skip; silently dropping rows would change the model).
 */
import { Float64, Int32, makeData, type Data, type RecordBatch } from 'apache-arrow';
import { ExecutionError, InternalError, ValidationError } from '../relnode/errors.js';
import * as rel from '../relnode/rel.js';
import { cast, inputRef } from '../relnode/rex.js';
import { isNumeric, type Field, type Schema } from '../relnode/types.js';

/** The training columns of a table. */
export interface TrainingColumns {
  /** The projection the job reads: features…, [label], [weight], all DOUBLE. */
  readonly plan: rel.RelNode;
  readonly features: readonly string[];
  readonly label?: string;
  readonly weight?: string;
}

/** Finds a column by name: exact first, then the one that matches ignoring case. */
export function findColumn(fn: string, schema: Schema, name: string, role: string): number {
  const fields = schema.fields;
  let i = fields.findIndex((f) => f.name === name);
  if (i < 0) {
    const ci = fields.flatMap((f, k) => (f.name.toLowerCase() === name.toLowerCase() ? [k] : []));
    if (ci.length === 1) i = ci[0]!;
  }
  if (i < 0) throw new ValidationError(`${fn}: the ${role} column "${name}" is not a column of the input (columns: ${fields.map((f) => f.name).join(', ')})`);
  return i;
}

function checkNumeric(fn: string, f: Field, role: string): void {
  if (!isNumeric(f.type)) throw new ValidationError(`${fn}: the ${role} column "${f.name}" is ${f.type}, not numeric; pick numeric columns with features := 'a,b' (or cast it)`);
}

/**
 * Resolves features (every column except label and weight, unless listed),
 * label and weight of `input`, checks they are numeric and distinct, and
 * builds the DOUBLE projection.
 */
export function trainingColumns(fn: string, input: rel.RelNode, opts: { readonly label?: string; readonly weight?: string; readonly features?: string }): TrainingColumns {
  const fields = input.schema.fields;
  const label = opts.label !== undefined ? findColumn(fn, input.schema, opts.label, 'label') : undefined;
  const weight = opts.weight !== undefined ? findColumn(fn, input.schema, opts.weight, 'weight') : undefined;
  if (label !== undefined && label === weight) throw new ValidationError(`${fn}: the label and the weight are the same column "${fields[label]!.name}"`);
  let features: number[];
  if (opts.features !== undefined) {
    const names = opts.features.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
    if (names.length === 0) throw new ValidationError(`${fn}: features := '${opts.features}' names no column; list them like features := 'a,b'`);
    features = names.map((n) => findColumn(fn, input.schema, n, 'feature'));
    const dup = features.find((f, i) => features.indexOf(f) !== i);
    if (dup !== undefined) throw new ValidationError(`${fn}: the feature column "${fields[dup]!.name}" is listed twice`);
    for (const f of features) {
      if (f === label || f === weight) throw new ValidationError(`${fn}: "${fields[f]!.name}" cannot be both a feature and the ${f === label ? 'label' : 'weight'}`);
    }
  } else {
    features = fields.map((_, i) => i).filter((i) => i !== label && i !== weight);
  }
  if (features.length === 0) throw new ValidationError(`${fn}: the input has no feature column (columns: ${fields.map((f) => f.name).join(', ')})`);
  for (const f of features) checkNumeric(fn, fields[f]!, 'feature');
  if (label !== undefined) checkNumeric(fn, fields[label]!, 'label');
  if (weight !== undefined) checkNumeric(fn, fields[weight]!, 'weight');
  const cols = [...features, ...(label !== undefined ? [label] : []), ...(weight !== undefined ? [weight] : [])];
  const plan = rel.project(input, cols.map((i) => cast(inputRef(i, fields[i]!.type, fields[i]!.name), 'DOUBLE')), cols.map((i) => fields[i]!.name));
  return {
    plan,
    features: features.map((i) => fields[i]!.name),
    ...(label !== undefined ? { label: fields[label]!.name } : {}),
    ...(weight !== undefined ? { weight: fields[weight]!.name } : {}),
  };
}

/** The values of DOUBLE column `c` of a training batch; a NULL is an error naming the column. */
export function doubles(fn: string, batch: RecordBatch, c: number, name: string): Float64Array {
  const d = batch.data.children[c]!;
  if (d.nullCount > 0) throw new ExecutionError(`${fn}: column "${name}" has NULL values; filter them out (WHERE ${name} IS NOT NULL) or fill them (COALESCE) before training`);
  if (!(d.values instanceof Float64Array)) throw new InternalError(`${fn} expected DOUBLE values in column "${name}"`);
  return d.values;
}

/** A DOUBLE column from values (and an optional validity bitmap with `nulls` NULLs). */
export function float64Data(values: Float64Array, nullBitmap?: Uint8Array, nulls = 0): Data<Float64> {
  return makeData({ type: new Float64(), length: values.length, data: values, ...(nulls > 0 && nullBitmap ? { nullBitmap, nullCount: nulls } : { nullCount: 0 }) });
}

/** An INTEGER column from values (and an optional validity bitmap with `nulls` NULLs). */
export function int32Data(values: Int32Array, nullBitmap?: Uint8Array, nulls = 0): Data<Int32> {
  return makeData({ type: new Int32(), length: values.length, data: values, ...(nulls > 0 && nullBitmap ? { nullBitmap, nullCount: nulls } : { nullCount: 0 }) });
}
