/**
 * Row tests: boolean conditions evaluated per row by a closure (string
 * comparisons, LIKE, IN, BIGINT and BOOLEAN comparisons). One test serves both
 * as a value kernel (Bool bits for every row) and as a predicate step (only the
 * selected rows are tested).
 */
import type * as arrow from 'apache-arrow';
import { byteLength } from './bitmap.js';
import { makeColumn } from './column.js';
import type { Kernel } from './context.js';
import { KeepHint } from './keep-hint.js';
import type { RefineStep } from './selection.js';

/** Row-test outcome: the condition is FALSE. */
export const FALSE = 0;
/** Row-test outcome: the condition is TRUE. */
export const TRUE = 1;
/** Row-test outcome: the condition is NULL. */
export const NULL = 2;

/** A condition prepared for one batch. `test` is only called for rows whose `valid` bit is set. */
export interface RowTest {
  /** Rows that are NULL regardless of the test (null = none). */
  readonly valid: Uint8Array | null;
  /** FALSE, TRUE or NULL for row i. */
  test(i: number): number;
  /** When set, test(i) is `lut[codes[i]]` (a dictionary column): loops read these directly. */
  readonly lookup?: { readonly codes: Int32Array; readonly lut: Uint8Array };
}

/** Prepares a condition for a batch. */
export type RowTestFactory = (batch: arrow.RecordBatch) => RowTest;

/** The value kernel of a row test: Bool bits with NULL where the row is invalid or the test says NULL. */
export function testKernel(factory: RowTestFactory): Kernel {
  return (batch) => runTestKernel(factory, batch);
}

function runTestKernel(factory: RowTestFactory, batch: arrow.RecordBatch): arrow.Data {
  const n = batch.numRows;
  const t = factory(batch);
  const valid = t.valid;
  const bits = new Uint8Array(byteLength(n));
  let outValid: Uint8Array | null = null;
  if (valid === null) {
    // No NULL inputs: only a NULL outcome (e.g. IN with a NULL item) allocates a validity.
    for (let i = 0; i < n; i++) {
      const r = t.test(i);
      if (r === TRUE) bits[i >> 3]! |= 1 << (i & 7);
      else if (r === NULL) { outValid ??= initValid(null, n); outValid[i >> 3]! &= ~(1 << (i & 7)); }
    }
  } else {
    outValid = initValid(valid, n);
    for (let i = 0; i < n; i++) {
      if (((valid[i >> 3]! >> (i & 7)) & 1) === 0) continue;
      const r = t.test(i);
      if (r === TRUE) bits[i >> 3]! |= 1 << (i & 7);
      else if (r === NULL) outValid[i >> 3]! &= ~(1 << (i & 7));
    }
  }
  return makeColumn('BOOLEAN', bits, outValid, n);
}

function initValid(valid: Uint8Array | null, n: number): Uint8Array {
  return valid === null ? new Uint8Array(byteLength(n)).fill(0xff) : valid.slice(0, byteLength(n));
}

/**
 * The predicate step of a row test: keeps the rows whose test is TRUE. As the first step (no selection
 * yet) it writes into the caller's scratch when there is one (a Filter's per-instance array): a fresh
 * selection per batch was 0.6 MB of array buffers per TPC-H Q3 run (the customer scan's c_mktsegment test).
 */
export function testStep(factory: RowTestFactory): RefineStep {
  // The body is a module function (kept optimized across queries, kernel-cache.ts); this closure only forwards.
  const hint = new KeepHint();
  return (batch, sel, scratch) => runTestStep(factory, hint, batch, sel, scratch);
}

function runTestStep(factory: RowTestFactory, hint: KeepHint, batch: arrow.RecordBatch, sel: Int32Array | null, scratch: Int32Array | undefined): Int32Array {
  const t = factory(batch);
  if (t.lookup !== undefined) {
    const tested = sel === null ? batch.numRows : sel.length;
    const kept = hint.flat && t.valid === null
      ? lookupFlat(t.lookup.codes, t.lookup.lut, sel, batch.numRows, scratch)
      : lookupStep(t.lookup.codes, t.lookup.lut, t.valid, sel, batch.numRows, scratch);
    hint.note(kept.length, tested);
    return kept;
  }
  const valid = t.valid;
  if (sel === null) {
    const n = batch.numRows;
    const out = scratch !== undefined && scratch.length >= n ? scratch : new Int32Array(n);
    let k = 0;
    if (valid === null) for (let i = 0; i < n; i++) { if (t.test(i) === TRUE) out[k++] = i; }
    else for (let i = 0; i < n; i++) { if (((valid[i >> 3]! >> (i & 7)) & 1) !== 0 && t.test(i) === TRUE) out[k++] = i; }
    return out.subarray(0, k);
  }
  let k = 0;
  if (valid === null) for (let j = 0; j < sel.length; j++) { const i = sel[j]!; if (t.test(i) === TRUE) sel[k++] = i; }
  else for (let j = 0; j < sel.length; j++) { const i = sel[j]!; if (((valid[i >> 3]! >> (i & 7)) & 1) !== 0 && t.test(i) === TRUE) sel[k++] = i; }
  return sel.subarray(0, k);
}

/**
 * lookupStep without a branch per row (keep-hint.ts), for columns without NULLs: every row's index is
 * written and the count moves on when its code's outcome is TRUE (written in place: k ≤ j).
 */
function lookupFlat(codes: Int32Array, lut: Uint8Array, sel: Int32Array | null, n: number, scratch: Int32Array | undefined): Int32Array {
  const out = sel ?? (scratch !== undefined && scratch.length >= n ? scratch : new Int32Array(n));
  let k = 0;
  if (sel === null) for (let i = 0; i < n; i++) { out[k] = i; k += +(lut[codes[i]!] === TRUE); }
  else { const m = sel.length; for (let j = 0; j < m; j++) { const i = sel[j]!; out[k] = i; k += +(lut[codes[i]!] === TRUE); } }
  return out.subarray(0, k);
}

/** testStep for a dictionary lookup, with `lut[codes[i]]` inlined. */
function lookupStep(codes: Int32Array, lut: Uint8Array, valid: Uint8Array | null, sel: Int32Array | null, n: number, scratch: Int32Array | undefined): Int32Array {
  const out = sel ?? (scratch !== undefined && scratch.length >= n ? scratch : new Int32Array(n));
  const m = sel === null ? n : sel.length;
  let k = 0;
  if (valid === null) {
    if (sel === null) for (let i = 0; i < m; i++) { if (lut[codes[i]!] === TRUE) out[k++] = i; }
    else for (let j = 0; j < m; j++) { const i = sel[j]!; if (lut[codes[i]!] === TRUE) out[k++] = i; }
  } else {
    for (let j = 0; j < m; j++) {
      const i = sel === null ? j : sel[j]!;
      if (((valid[i >> 3]! >> (i & 7)) & 1) !== 0 && lut[codes[i]!] === TRUE) out[k++] = i;
    }
  }
  return out.subarray(0, k);
}
