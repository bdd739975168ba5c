/**
 * The Window node: window functions (`f(...) OVER (PARTITION BY ... ORDER BY
 * ... frame)`) appended as columns to every input row. One node holds the
 * calls that share one partitioning and one ordering; calls with other
 * windows stack as further Window nodes (DuckDB and Calcite group them the
 * same way). Each call has its own frame, since frames do not change the
 * sort. Arguments are input ordinals (the binder projects expressions
 * first), as in Aggregate.
 *
 * Semantics follow DuckDB: with ORDER BY the default frame is RANGE BETWEEN
 * UNBOUNDED PRECEDING AND CURRENT ROW (peers included), without it the whole
 * partition; ranking and lag/lead ignore the frame.
 */
import { ValidationError } from './errors.js';
import type { AggFn } from './functions.js';
import type { RelNode, SortKey } from './rel.js';
import type { SourceSpan } from './source-span.js';
import { field, schemaOf, type Field, type Schema, type SqlType } from './types.js';

/** The ranking and navigation functions; every aggregate function is a window function too. */
export type WindowOnlyFn = 'row_number' | 'rank' | 'dense_rank' | 'percent_rank' | 'cume_dist' | 'ntile' | 'lag' | 'lead' | 'first_value' | 'last_value' | 'nth_value';
export type WindowFn = WindowOnlyFn | AggFn;

/** One end of a frame; `offset` counts rows (ROWS) or order-key units (RANGE). */
export type FrameBound =
  | { readonly kind: 'unboundedPreceding' }
  | { readonly kind: 'preceding'; readonly offset: number }
  | { readonly kind: 'currentRow' }
  | { readonly kind: 'following'; readonly offset: number }
  | { readonly kind: 'unboundedFollowing' };

export interface WindowFrame {
  readonly mode: 'rows' | 'range';
  readonly start: FrameBound;
  readonly end: FrameBound;
}

export interface WindowCall {
  readonly fn: WindowFn;
  /** Input ordinals: the value argument (and lag/lead's default); empty for count(*) and the ranking functions. */
  readonly args: readonly number[];
  /** ntile's bucket count, lag/lead's offset, nth_value's n (constants); undefined otherwise. */
  readonly param?: number;
  readonly frame: WindowFrame;
  readonly type: SqlType;
  readonly name: string;
  /** Where the call was written in SQL (display-only): a runtime error of it (sum overflowing BIGINT) quotes it (AggCall.at). */
  readonly at?: SourceSpan;
}

export interface Window {
  readonly kind: 'Window';
  readonly input: RelNode;
  readonly partitionKeys: readonly number[];
  readonly orderKeys: readonly SortKey[];
  readonly calls: readonly WindowCall[];
  /** The input's fields, then one column per call. */
  readonly schema: Schema;
}

/** RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW: the default frame with ORDER BY. */
export const DEFAULT_ORDERED_FRAME: WindowFrame = { mode: 'range', start: { kind: 'unboundedPreceding' }, end: { kind: 'currentRow' } };
/** ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING: the default without ORDER BY (the whole partition). */
export const WHOLE_PARTITION: WindowFrame = { mode: 'rows', start: { kind: 'unboundedPreceding' }, end: { kind: 'unboundedFollowing' } };

/** Functions whose result never is NULL. */
const NON_NULL: ReadonlySet<WindowFn> = new Set<WindowFn>(['row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'count', 'count_star']);

function check(cond: boolean, msg: string): asserts cond {
  if (!cond) throw new ValidationError(msg);
}

const boundRank = (b: FrameBound): number => ({ unboundedPreceding: 0, preceding: 1, currentRow: 2, following: 3, unboundedFollowing: 4 })[b.kind];

/** Checks a frame: UNBOUNDED FOLLOWING cannot start it, UNBOUNDED PRECEDING cannot end it, offsets are non-negative numbers. */
export function checkFrame(f: WindowFrame): void {
  check(f.start.kind !== 'unboundedFollowing', 'a window frame cannot start at UNBOUNDED FOLLOWING');
  check(f.end.kind !== 'unboundedPreceding', 'a window frame cannot end at UNBOUNDED PRECEDING');
  check(!(boundRank(f.start) === 2 && boundRank(f.end) === 1) && !(boundRank(f.start) === 3 && boundRank(f.end) <= 2), 'a window frame that starts after the current row cannot end before it (write the bounds in order: start, then end)');
  for (const b of [f.start, f.end]) {
    if (b.kind === 'preceding' || b.kind === 'following') check(Number.isFinite(b.offset) && b.offset >= 0, `a window frame offset must be a non-negative number, got ${b.offset}`);
    if (f.mode === 'rows' && (b.kind === 'preceding' || b.kind === 'following')) check(Number.isInteger(b.offset), `a ROWS frame offset must be an integer, got ${b.offset}`);
  }
}

/** The Window node's checking constructor: keys and arguments in range, RANGE offsets over one numeric or date ORDER BY key. */
export function window(input: RelNode, partitionKeys: readonly number[], orderKeys: readonly SortKey[], calls: readonly WindowCall[]): Window {
  const inF = input.schema.fields;
  const inRange = (i: number): boolean => Number.isInteger(i) && i >= 0 && i < inF.length;
  for (const k of partitionKeys) check(inRange(k), `internal error: window partition key $${k} out of range`);
  for (const k of orderKeys) check(inRange(k.index), `internal error: window order key $${k.index} out of range`);
  check(calls.length > 0, 'internal error: a Window node needs at least one call');
  for (const c of calls) {
    for (const a of c.args) check(inRange(a), `internal error: window function argument $${a} out of range`);
    checkFrame(c.frame);
    const offsetRange = c.frame.mode === 'range' && [c.frame.start, c.frame.end].some((b) => b.kind === 'preceding' || b.kind === 'following');
    if (offsetRange) {
      check(orderKeys.length === 1, `a RANGE frame with an offset (PRECEDING / FOLLOWING) needs exactly one ORDER BY key, got ${orderKeys.length}`);
      const t = inF[orderKeys[0]!.index]!.type;
      check(t === 'INTEGER' || t === 'BIGINT' || t === 'DOUBLE' || t === 'DATE' || t === 'NULL', `a RANGE frame with an offset needs a numeric or DATE ORDER BY key, got ${t}`);
    }
  }
  const fields: Field[] = [...inF];
  for (const c of calls) fields.push(field(c.name, c.type, !NON_NULL.has(c.fn)));
  return { kind: 'Window', input, partitionKeys, orderKeys, calls, schema: schemaOf(fields) };
}

/** A frame as SQL text: `ROWS BETWEEN 1 PRECEDING AND CURRENT ROW`. */
export function frameText(f: WindowFrame): string {
  const b = (x: FrameBound): string => {
    switch (x.kind) {
      case 'unboundedPreceding': return 'UNBOUNDED PRECEDING';
      case 'preceding': return `${x.offset} PRECEDING`;
      case 'currentRow': return 'CURRENT ROW';
      case 'following': return `${x.offset} FOLLOWING`;
      case 'unboundedFollowing': return 'UNBOUNDED FOLLOWING';
    }
  };
  return `${f.mode.toUpperCase()} BETWEEN ${b(f.start)} AND ${b(f.end)}`;
}

/** True when the function reads its frame (aggregates and first/last/nth_value); ranking and lag/lead do not. */
export function usesFrame(fn: WindowFn): boolean {
  return !(fn === 'row_number' || fn === 'rank' || fn === 'dense_rank' || fn === 'percent_rank' || fn === 'cume_dist' || fn === 'ntile' || fn === 'lag' || fn === 'lead');
}
