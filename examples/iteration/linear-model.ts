/**
 * What FLIP-176's four linear-regression examples share: the model
 * y = x · A with a known A, a deterministic data set (bounded) or stream
 * (never-ending) drawn from it, the least-squares gradient over record
 * batches, and the rows that carry models and updates.
 *
 * Decision: the examples compute on the Arrow columns of the batches their
 * operators receive or cache (the stream API's fast path) instead of on
 * row objects, so each example finishes in a few seconds; the iteration
 * wiring — which is what the examples show — stays in the example files.
 */
import type { RecordBatch } from 'apache-arrow';
import { pathToFileURL } from 'node:url';
import type { Row } from '../../src/index.js';

/** Features per sample. */
export const DIM = 5;
/** The known solution every example should find. */
export const TRUE_MODEL: readonly number[] = [1.5, -2, 0.5, 3, -1];

/** Column names `prefix0 .. prefix{DIM-1}`. */
export const cols = (prefix: string): string[] => Array.from({ length: DIM }, (_, i) => `${prefix}${i}`);
/** A SchemaSpec of DOUBLE columns. */
export const doubles = (names: readonly string[]): Record<string, 'DOUBLE'> => Object.fromEntries(names.map((n) => [n, 'DOUBLE' as const]));
/** The sample schema: x0..x4, y. */
export const SAMPLE = doubles([...cols('x'), 'y']);

/** The vector in columns `prefix0..` of a row. */
export const vec = (row: Row, prefix: string): number[] => cols(prefix).map((c) => row[c] as number);
/** A row with the vector `v` in columns `prefix0..`, plus `extra`. */
export const rowOf = (prefix: string, v: readonly number[], extra: Row = {}): Row => ({ ...Object.fromEntries(v.map((x, i) => [`${prefix}${i}`, x])), ...extra });

/** A deterministic generator of samples y = x · TRUE_MODEL + noise (|noise| ≤ 0.005), x uniform in [−1, 1]^DIM. */
export function* samples(seed = 42): Generator<Row> {
  let s = seed;
  const rand = (): number => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
  for (;;) {
    const x = Array.from({ length: DIM }, () => rand() * 2 - 1);
    const y = x.reduce((t, v, i) => t + v * TRUE_MODEL[i]!, 0) + (rand() - 0.5) * 0.01;
    yield rowOf('x', x, { y });
  }
}

/** The first `n` samples. */
export function dataset(n: number, seed = 42): Row[] {
  const out: Row[] = [];
  for (const r of samples(seed)) { if (out.length >= n) break; out.push(r); }
  return out;
}

/**
 * Adds the least-squares gradient Σ (x · a − y) x of rows [from, to) of a
 * sample batch to `delta`; returns the number of rows used.
 */
export function addGradient(batch: RecordBatch, a: readonly number[], delta: number[], from = 0, to = batch.numRows): number {
  const x = cols('x').map((_, i) => batch.getChildAt(i)!.toArray() as Float64Array);
  const y = batch.getChildAt(DIM)!.toArray() as Float64Array;
  for (let r = from; r < to; r++) {
    let diff = -y[r]!;
    for (let i = 0; i < DIM; i++) diff += x[i]![r]! * a[i]!;
    for (let i = 0; i < DIM; i++) delta[i]! += diff * x[i]![r]!;
  }
  return to - from;
}

/** The L2 distance of `a` from the known solution. */
export function modelError(a: readonly number[]): number {
  return Math.sqrt(a.reduce((t, v, i) => t + (v - TRUE_MODEL[i]!) ** 2, 0));
}

/** What every example's `run` returns. */
export interface ExampleResult {
  readonly model: number[];
  readonly error: number;
  readonly ms: number;
}

/** Prints the model, the known solution and the error. */
export function report(title: string, r: ExampleResult): void {
  console.log(`${title} in ${r.ms.toFixed(0)} ms`);
  console.log(`model:          [${r.model.map((v) => v.toFixed(4)).join(', ')}]`);
  console.log(`known solution: [${TRUE_MODEL.map((v) => v.toFixed(4)).join(', ')}]`);
  console.log(`error (L2):     ${r.error.toExponential(2)}`);
}

/** `--name value` from the command line, or `dflt`. */
export function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

/** True when the module at `url` is the program being run (not imported by a test). */
export function isMain(url: string): boolean {
  return process.argv[1] !== undefined && url === pathToFileURL(process.argv[1]).href;
}
