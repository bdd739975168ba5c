/**
 * NOT IN's anti join over several items that may be NULL, by hashing: `(a, b) NOT IN (SELECT x, y ...)`
 * keeps a left row iff its row comparison with every right row is FALSE (planner/not-in-join.ts reads
 * the condition; null-aware-tables.ts holds the rules and the tables). Input 0 (left) is probed, input 1
 * (right) builds; the output is the kept left rows.
 *
 * The semi form keeps the other rows: those some right row *may* equal (the row comparison TRUE or
 * NULL). IN / NOT IN used as a value needs it: its NULL case is `EXISTS` over that condition, joined
 * over the distinct outer rows (planner/rules/decorrelate-mark-existence.ts), which ran as a nested
 * loop too.
 *
 * Why: the condition `(a = x OR a IS NULL OR x IS NULL) AND ...` has no equi-key conjunct once every
 * item may be NULL, and ran as a nested-loop join comparing every pair of rows (1M × 100K rows: 10^11
 * comparisons). The one-key case has its own mode in the hash join (hash-join.ts `nullAware`).
 *
 * The build side is buffered until its END, then its tables are built in bounded steps (operator.ts);
 * a probe batch whose NULL pattern needs a table not built yet builds it in steps before its lookups.
 * The build side is static: its tables serve every epoch (per-epoch-join.ts otherwise). Several
 * instances (parallelism > 1) are correct only when both sides are hash-partitioned on items that are
 * wild on neither side (lowering decides); else the join runs as one instance.
 */
import type { Data, RecordBatch } from 'apache-arrow';
import { InternalError } from '../../relnode/errors.js';
import { emitBounded, type Operator, type OperatorContext } from '../operator.js';
import { batchBytes } from '../memory.js';
import type { KeyKind } from '../kernels/hash.js';
import { JoinOutput } from './join-output.js';
import { perEpochJoin } from './per-epoch-join.js';
import { columnsOf } from './hash-join-build.js';
import { MAX_NULL_AWARE_KEYS, NullAwareTables, anyNull, nullMasks } from './null-aware-tables.js';

/** Configuration of a NULL-aware anti join (plain data, as lowering writes it). */
export interface NullAwareAntiJoinConfig {
  /** 'anti' (default): emit the left rows no right row may equal; 'semi': the others. */
  readonly joinType?: 'anti' | 'semi';
  /** Left (probe) ordinals of the items. */
  readonly leftKeys: readonly number[];
  /** Right (build) ordinals, pairwise with leftKeys. */
  readonly rightKeys: readonly number[];
  /** How each item compares (after its type coercion), as a hash join's keyKinds. */
  readonly keyKinds: readonly KeyKind[];
  /** Per item: a NULL on the left makes the item TRUE (the condition tests `l IS NULL`); else only a wild NULL on the right does. */
  readonly leftWild: readonly boolean[];
  /** Per item: the same for a NULL on the right (`r IS NULL`). */
  readonly rightWild: readonly boolean[];
  /** Per output (left) column: false when nothing above reads it (join-output.ts). */
  readonly used?: readonly boolean[];
}

/** Creates a NULL-aware anti (or semi) join operator instance. */
export function nullAwareAntiJoin(config: NullAwareAntiJoinConfig): Operator {
  const k = config.leftKeys.length;
  if (k === 0 || k > MAX_NULL_AWARE_KEYS || config.rightKeys.length !== k || config.keyKinds.length !== k || config.leftWild.length !== k || config.rightWild.length !== k) {
    throw new InternalError(`a NULL-aware anti join needs 1 to ${MAX_NULL_AWARE_KEYS} items with a key, a kind and NULL flags each on both sides, got ${k}`);
  }
  return perEpochJoin(1, () => new NullAwareAntiJoin(config));
}

/** A bit per item set in `flags`. */
function bits(flags: readonly boolean[]): number {
  let m = 0;
  flags.forEach((f, j) => { if (f) m |= 1 << j; });
  return m;
}

class NullAwareAntiJoin implements Operator {
  private ctx!: OperatorContext;
  private out!: JoinOutput;
  private tables!: NullAwareTables;
  private buildBatches: RecordBatch[] = [];
  private building = false;
  private built = false;
  /** Probe batches that arrived before the build ended (the runtime normally holds them back). */
  private pending: { batch: RecordBatch; epoch: number }[] = [];

  constructor(private readonly config: NullAwareAntiJoinConfig) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.out = new JoinOutput(ctx, this.config.joinType ?? 'anti', true, undefined, this.config.used);
    const fields = ctx.inputSchemas[1]!.fields;
    this.tables = new NullAwareTables(this.config.rightKeys.map((c) => fields[c]!.type), this.config.keyKinds, bits(this.config.leftWild), bits(this.config.rightWild), (b) => ctx.reserveMemory(b));
  }

  selectInput(): number {
    return this.built ? -1 : 1;
  }

  processBatch(input: number, batch: RecordBatch, epoch: number): void {
    if (batch.numRows === 0) return;
    if (input === 1) {
      if (this.built || this.building) throw new InternalError('NULL-aware join received a build-side batch after its END');
      this.ctx.reserveMemory(batchBytes(batch));
      this.buildBatches.push(batch);
    } else if (!this.built) { this.ctx.reserveMemory(batchBytes(batch)); this.pending.push({ batch, epoch }); }
    else this.probeBatch(batch, epoch);
  }

  onInputEnd(input: number): void {
    if (input !== 1 || this.built || this.building) return;
    this.building = true;
    const batches = this.buildBatches;
    this.buildBatches = [];
    let rows = 0;
    for (const b of batches) rows += b.numRows;
    const steps = this.tables.build(columnsOf(batches, this.config.rightKeys), rows);
    let next = 0;
    emitBounded(this.ctx, () => {
      if (!this.built) { if (steps.next().done === true) this.built = true; return true; }
      // Probe batches that arrived early, one per step (each may defer steps of its own, which run right after).
      if (next < this.pending.length) { const p = this.pending[next++]!; this.probeBatch(p.batch, p.epoch); return true; }
      this.pending = [];
      return false;
    });
  }

  finish(): void {
    if (!this.built) this.onInputEnd(1);
  }

  close(): void {
    this.buildBatches = [];
    this.pending = [];
    this.tables?.release();
  }

  private probeBatch(batch: RecordBatch, epoch: number): void {
    const n = batch.numRows;
    const children = batch.data.children;
    const cols = this.config.leftKeys.map((c) => children[c]!);
    let masks: Uint8Array | null = null;
    let qs: number[] = [0];
    if (anyNull(cols)) {
      // Its own array: the lookups may run in a later step (a table to build first).
      masks = new Uint8Array(n);
      nullMasks(cols, n, masks);
      qs = presentPatterns(masks, n);
    }
    const missing = this.tables.missing(qs);
    if (missing.length === 0) { this.lookUp(batch, cols, masks, qs, epoch); return; }
    const steps = this.tables.ensure(missing);
    emitBounded(this.ctx, () => {
      if (steps.next().done !== true) return true;
      this.lookUp(batch, cols, masks, qs, epoch);
      return false;
    });
  }

  /** Marks the probe rows some build row may equal and emits the others (semi: them; every table the batch needs is built). */
  private lookUp(batch: RecordBatch, cols: readonly Data[], masks: Uint8Array | null, qs: readonly number[], epoch: number): void {
    const n = batch.numRows;
    const matched = new Uint8Array(n);
    if (masks === null) this.tables.probe(cols, 0, null, n, matched);
    else {
      // Rows by pattern (a counting sort): pattern q's rows are rows[start[q] .. start[q + 1]).
      const start = new Int32Array(257);
      for (let i = 0; i < n; i++) start[masks[i]! + 1]++;
      for (let q = 0; q < 256; q++) start[q + 1] += start[q]!;
      const fill = start.slice(0, 256);
      const rows = new Int32Array(n);
      for (let i = 0; i < n; i++) rows[fill[masks[i]!]!++] = i;
      for (const q of qs) this.tables.probe(cols, q, rows.subarray(start[q]!, start[q + 1]!), start[q + 1]! - start[q]!, matched);
    }
    this.out.probeDone(batch, matched, epoch);
  }
}

/** The distinct NULL patterns among rows `0..n` of `masks`. */
function presentPatterns(masks: Uint8Array, n: number): number[] {
  const seen = new Uint8Array(256);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = masks[i]!;
    if (seen[x] === 0) { seen[x] = 1; out.push(x); }
  }
  return out;
}
