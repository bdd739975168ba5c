/**
 * A HAVING evaluated inside the hash aggregate's emit (hash-aggregate.ts; lowering hands it the
 * condition of a Filter that reads the aggregate's output: planner/lower-having.ts). TPC-H Q18's
 * subquery groups 6M lineitem rows into 1.5M orders and keeps the 77 whose quantity sum passes 300:
 * emitted as output batches first, the 1.5M keys and sums were built, sent on and dropped by a
 * Filter, ~25 MB of fresh typed arrays per run for 77 rows.
 *
 * Decision: per run of groups only the columns the predicate reads are built (a state's `value`
 * over the range, in buffers reused run after run), and the predicate the planner compiled runs over them as over any batch — the
 * same kernels and NULL rules as the Filter it replaces (NULL and FALSE drop the group). The kept
 * group ids collect until a batch's worth (or the end); only then is every output column built,
 * for those groups alone (KeyTable.keyColumn and AggState.valueAt take group ids).
 */
import type { Data } from 'apache-arrow';
import type { Schema } from '../../relnode/types.js';
import { batchFromColumns, takeData } from '../batch.js';
import { concatData } from '../batch-concat.js';
import type { Predicate } from '../kernels/predicate.js';
import { ColumnScratch } from './agg-arrays.js';

/** A HAVING handed to a hash aggregate (plain data and a compiled predicate). */
export interface HavingConfig {
  /** Output ordinals (keys first, then one per call) the predicate reads, ascending. */
  readonly reads: readonly number[];
  /** The predicate over a batch of the `reads` columns, in that order (`schema`). */
  readonly predicate: Predicate;
  /** The schema of the predicate's batch. */
  readonly schema: Schema;
}

/** The output columns of one epoch's groups, by output ordinal. */
export interface GroupColumns {
  /** Column `c` for groups [start, end), transient: it may be built in `scratch`'s buffers. */
  range(c: number, start: number, end: number, scratch: ColumnScratch): Data;
  /** Column `c` for groups `gids[0..n)` (ascending). */
  at(c: number, gids: Int32Array, n: number): Data;
}

/** A call per run of consecutive groups is worth it when the runs are this many times fewer than the groups they span. */
const RUN_CALL_ROWS = 64;

/**
 * A range-only column (`value(start, end)`) for the ascending groups `gids[0..n)`: one call per run
 * of consecutive groups when the kept groups are few and far apart (Q18: 77 groups over 1.5M), else
 * one call over the range they span and a gather.
 */
export function valueOfGroups(value: (start: number, end: number) => Data, gids: Int32Array, n: number): Data {
  if (n === 0) return value(0, 0);
  const first = gids[0]!;
  const span = gids[n - 1]! - first + 1;
  if (span === n) return value(first, first + n);
  let runs = 1;
  for (let i = 1; i < n; i++) if (gids[i] !== gids[i - 1]! + 1) runs++;
  if (runs * RUN_CALL_ROWS <= span) {
    const parts: Data[] = [];
    let a = 0;
    for (let i = 1; i <= n; i++) {
      if (i < n && gids[i] === gids[i - 1]! + 1) continue;
      parts.push(value(gids[a]!, gids[i - 1]! + 1));
      a = i;
    }
    return parts.length === 1 ? parts[0]! : concatData(parts);
  }
  const sel = new Int32Array(n);
  for (let i = 0; i < n; i++) sel[i] = gids[i]! - first;
  return takeData(value(first, first + span), sel, n, false);
}

/**
 * One epoch's groups through a HAVING, in bounded steps: each `step` evaluates the predicate over
 * the next `size` groups and returns the output columns of the kept groups once `size` are kept or
 * every group has been evaluated (else null); a batch has at most `size` rows.
 */
export class HavingEmit {
  private next = 0;
  private kept: Int32Array;
  private nKept = 0;
  private readonly scratch: Int32Array;
  private readonly rangeCols: Data[];
  /** One per read column: the predicate's inputs are rebuilt in the same buffers run after run. */
  private readonly scratches: ColumnScratch[];

  /** @param width the number of output columns; `groups` the epoch's groups; `size` groups per step and rows per batch at most. */
  constructor(private readonly having: HavingConfig, private readonly columns: GroupColumns, private readonly width: number, private readonly groups: number, private readonly size: number) {
    this.kept = new Int32Array(Math.min(size, 64));
    this.scratch = new Int32Array(Math.min(size, groups));
    this.rangeCols = new Array<Data>(having.reads.length);
    this.scratches = having.reads.map(() => new ColumnScratch());
  }

  /** Whether every group has been evaluated and every kept one returned. */
  get done(): boolean {
    return this.next >= this.groups && this.nKept === 0;
  }

  /** One step (see the class); the columns and their row count, or null when nothing is due yet. */
  step(): { readonly columns: Data[]; readonly rows: number } | null {
    if (this.next < this.groups) this.evaluate();
    if (this.nKept === 0 || (this.nKept < this.size && this.next < this.groups)) return null;
    const n = Math.min(this.nKept, this.size);
    const cols: Data[] = [];
    for (let c = 0; c < this.width; c++) cols.push(this.columns.at(c, this.kept, n));
    this.kept.copyWithin(0, n, this.nKept);
    this.nKept -= n;
    return { columns: cols, rows: n };
  }

  /** Evaluates the predicate over the next run of groups and appends the kept ones. */
  private evaluate(): void {
    const start = this.next;
    const end = Math.min(this.groups, start + this.size);
    this.next = end;
    const n = end - start;
    const { reads, predicate, schema } = this.having;
    for (let i = 0; i < reads.length; i++) this.rangeCols[i] = this.columns.range(reads[i]!, start, end, this.scratches[i]!);
    const sel = predicate(batchFromColumns(schema, this.rangeCols, n), this.scratch);
    const m = sel === null ? n : sel.length;
    if (m === 0) return;
    if (this.kept.length < this.nKept + m) {
      const grown = new Int32Array(Math.max(this.nKept + m, 2 * this.kept.length));
      grown.set(this.kept.subarray(0, this.nKept));
      this.kept = grown;
    }
    const k = this.kept;
    let w = this.nKept;
    if (sel === null) for (let g = start; g < end; g++) k[w++] = g;
    else for (let i = 0; i < m; i++) k[w++] = start + sel[i]!;
    this.nKept = w;
  }
}
