/**
 * Test doubles for operators: a fake OperatorContext that collects emitted
 * batches, a harness that drives an operator through open → batches →
 * watermarks → input ends → finish (checking the operator's input selection),
 * and builders/readers of canned batches in canonical physical types.
 */
import {
  Dictionary, Int32, RecordBatch, Type, Utf8, makeData, makeVector, type Data,
} from 'apache-arrow';
import type { LiteralValue } from '../../../src/relnode/rex.js';
import { field, schemaOf, toArrowType, type Schema, type SqlType } from '../../../src/relnode/types.js';
import { batchFromColumns, isValidAt, utf8FromStrings } from '../../../src/exec/batch.js';
import { END, type Operator, type OperatorContext, type OperatorMetrics, type PendingStep } from '../../../src/exec/operator.js';

/** A batch an operator emitted, with its epoch tag. */
export interface Emitted { readonly batch: RecordBatch; readonly epoch: number }

/** Collects what an operator emits. */
export class FakeContext implements OperatorContext {
  readonly name = 'Test#0';
  readonly subtaskIndex = 0;
  readonly parallelism = 1;
  readonly emitted: Emitted[] = [];
  satisfied = false;
  cancelled = false;
  /** The epoch of the current callback (the harness stamps it as the runtime does). */
  epoch = 0;
  /** Whether inputs may carry several epochs (set before open; false = a batch query). */
  multiEpoch = false;
  readonly ended = new Set<number>();
  get inIteration(): boolean { return this.multiEpoch; }
  mayHaveMoreEpochs(input?: number): boolean {
    if (!this.multiEpoch) return false;
    return input === undefined ? this.ended.size < this.inputSchemas.length : !this.ended.has(input);
  }
  readonly metrics: OperatorMetrics = { rowsIn: 0, batchesIn: 0, rowsOut: 0, batchesOut: 0, timeMs: 0 };
  constructor(readonly outputSchema: Schema, readonly inputSchemas: readonly Schema[], readonly batchSize = 1024) {}
  emit(batch: RecordBatch, epoch: number = this.epoch): void {
    if (batch.numRows === 0) throw new Error('operator emitted an empty batch');
    if (batch.numRows > this.batchSize) throw new Error(`operator emitted ${batch.numRows} rows, more than batchSize ${this.batchSize}`);
    if (batch.data.children.length !== this.outputSchema.fields.length) throw new Error(`emitted ${batch.data.children.length} columns, schema has ${this.outputSchema.fields.length}`);
    this.emitted.push({ batch, epoch });
  }
  markInputSatisfied(): void { this.satisfied = true; }
  /** Side-output batches, by output number. */
  readonly side = new Map<number, Emitted[]>();
  emitTo(output: number, batch: RecordBatch, epoch: number = this.epoch): void {
    const l = this.side.get(output) ?? [];
    l.push({ batch, epoch });
    this.side.set(output, l);
  }
  /** Watermarks an operator forwarded itself (manualWatermarks). */
  readonly watermarks: number[] = [];
  emitWatermark(epoch: number): void { this.watermarks.push(epoch); }
  /** Posted mailbox tasks, run by `runMail()`. */
  readonly mail: (() => void)[] = [];
  post(task: () => void): void { this.mail.push(task); }
  runMail(): void { while (this.mail.length > 0) this.mail.shift()!(); }
  private readonly sharedObjects = new Map<string, unknown>();
  shared<T>(key: string, create: () => T): T {
    if (!this.sharedObjects.has(key)) this.sharedObjects.set(key, create());
    return this.sharedObjects.get(key) as T;
  }
  /** Bytes of state reserved and not released; `memoryLimit` makes reserveMemory throw past it, as the runtime does. */
  memoryHeld = 0;
  memoryLimit = Infinity;
  reserveMemory(bytes: number): void {
    this.memoryHeld += bytes;
    if (this.memoryHeld > this.memoryLimit) throw new Error(`out of memory: ${this.memoryHeld} > ${this.memoryLimit}`);
  }
  releaseMemory(bytes: number): void { this.memoryHeld -= bytes; }
  /** Pending steps, head first (the runtime's order: a step deferred inside a step goes right after it). */
  private readonly work: { step: PendingStep; epoch: number }[] = [];
  private insertAt = -1;
  /** How many pending steps ran (each emits at most one batch). */
  steps = 0;
  get hasPendingOutput(): boolean { return this.work.length > 0; }
  defer(step: PendingStep): void {
    const item = { step, epoch: this.epoch };
    if (this.insertAt >= 0) this.work.splice(this.insertAt++, 0, item); else this.work.push(item);
  }
  /** Runs pending steps to completion, checking that each emits at most one batch. */
  drainPending(): void {
    while (this.work.length > 0) {
      const before = this.emitted.length;
      this.insertAt = 1;
      let more: boolean;
      const item = this.work[0]!;
      this.epoch = item.epoch;
      try { more = item.step(); } finally { this.insertAt = -1; }
      if (this.emitted.length - before > 1) throw new Error(`a pending step emitted ${this.emitted.length - before} batches`);
      this.steps++;
      if (!more) this.work.shift();
    }
  }
}

/** Drives one operator instance the way the runtime does, for unit tests. */
export class Harness {
  readonly ctx: FakeContext;
  private ended = new Set<number>();
  private maxEpoch = 0;
  constructor(readonly op: Operator, outputSchema: Schema, inputSchemas: readonly Schema[], batchSize = 1024, options: { multiEpoch?: boolean } = {}) {
    this.ctx = new FakeContext(outputSchema, inputSchemas, batchSize);
    this.ctx.multiEpoch = options.multiEpoch === true;
    op.open(this.ctx);
  }
  /** Delivers a batch; fails if the operator selected another input. */
  push(input: number, batch: RecordBatch, epoch = 0): this {
    const sel = this.op.selectInput?.() ?? -1;
    if (sel !== -1 && sel !== input) throw new Error(`operator wants input ${sel}, test pushed to input ${input}`);
    if (this.ended.has(input)) throw new Error(`input ${input} already ended`);
    this.ctx.epoch = epoch;
    this.maxEpoch = Math.max(this.maxEpoch, epoch);
    this.op.processBatch(input, batch, epoch);
    this.ctx.drainPending();
    return this;
  }
  /** The minimum watermark rose to `epoch` (< END). */
  watermark(epoch: number): this {
    if (epoch >= END) throw new Error('use finish() for END');
    this.ctx.epoch = epoch;
    this.op.onEpochWatermarkIncremented?.(epoch);
    this.ctx.drainPending();
    return this;
  }
  /** All channels of an input reached END. */
  end(input: number): this {
    this.ended.add(input);
    this.ctx.ended.add(input);
    this.ctx.epoch = this.maxEpoch;
    this.op.onInputEnd?.(input);
    this.ctx.drainPending();
    return this;
  }
  /** Ends every input not yet ended, then finish() and close(). */
  finish(): this {
    for (let i = 0; i < this.ctx.inputSchemas.length; i++) if (!this.ended.has(i)) this.end(i);
    this.ctx.epoch = this.maxEpoch;
    this.op.finish();
    this.ctx.drainPending();
    this.op.close();
    return this;
  }
  /** All emitted rows (optionally of one epoch), in emission order. */
  rows(epoch?: number): LiteralValue[][] {
    return rowsOf(this.ctx.emitted.filter((e) => epoch === undefined || e.epoch === epoch).map((e) => e.batch));
  }
  /** Epoch tags of the emitted batches, deduplicated, in order. */
  epochs(): number[] {
    return [...new Set(this.ctx.emitted.map((e) => e.epoch))];
  }
}

/** A schema from `name:TYPE` pairs, e.g. `schema('k:INTEGER', 's:VARCHAR')`. */
export function schema(...cols: string[]): Schema {
  return schemaOf(cols.map((c) => { const [n, t] = c.split(':'); return field(n!, t as SqlType, true); }));
}

/** One column in canonical physical type; `dictionary` makes a Dictionary<Utf8, Int32> column (dictionary order given, or first-seen order). */
export function column(type: SqlType, values: readonly LiteralValue[], dictionary?: true | readonly string[]): Data {
  const n = values.length;
  const bitmap = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  values.forEach((v, i) => { if (v === null) nulls++; else bitmap[i >> 3]! |= 1 << (i & 7); });
  const nullBitmap = nulls > 0 ? bitmap : undefined;
  const t = toArrowType(type);
  if (type === 'VARCHAR' && dictionary) {
    const dict = dictionary === true ? [...new Set(values.filter((v): v is string => v !== null))] : [...dictionary];
    const codes = Int32Array.from(values, (v) => (v === null ? 0 : dict.indexOf(v as string)));
    if (codes.some((c) => c < 0)) throw new Error('value missing from the given dictionary');
    return makeData({ type: new Dictionary(new Utf8(), new Int32()), length: n, nullCount: nulls, nullBitmap, data: codes, dictionary: makeVector(utf8FromStrings(dict)) });
  }
  switch (type) {
    case 'NULL': return makeData({ type: t as never, length: n, nullCount: n });
    case 'VARCHAR': return utf8FromStrings(values.map((v) => (v === null ? null : String(v))));
    case 'BOOLEAN': {
      const bits = new Uint8Array((n + 7) >> 3);
      values.forEach((v, i) => { if (v === true) bits[i >> 3]! |= 1 << (i & 7); });
      return makeData({ type: t as never, length: n, nullCount: nulls, nullBitmap, data: bits });
    }
    case 'INTEGER': case 'DATE': return makeData({ type: t as never, length: n, nullCount: nulls, nullBitmap, data: Int32Array.from(values, (v) => (v === null ? 0 : Number(v))) });
    case 'DOUBLE': return makeData({ type: t as never, length: n, nullCount: nulls, nullBitmap, data: Float64Array.from(values, (v) => (v === null ? 0 : Number(v))) });
    case 'BIGINT': case 'TIMESTAMP': return makeData({ type: t as never, length: n, nullCount: nulls, nullBitmap, data: BigInt64Array.from(values, (v) => (v === null ? 0n : BigInt(v as number | bigint))) as never });
  }
}

/** A batch from rows; `dict` lists the VARCHAR columns to dictionary-encode. */
export function batchOf(s: Schema, rows: readonly (readonly LiteralValue[])[], dict: readonly number[] = []): RecordBatch {
  const cols = s.fields.map((f, c) => column(f.type, rows.map((r) => r[c] ?? null), dict.includes(c) ? true : undefined));
  return batchFromColumns(s, cols, rows.length);
}

/** The value of row i of a column: number (INTEGER, DOUBLE, DATE days), bigint (BIGINT, TIMESTAMP), string, boolean or null. */
export function valueAt(d: Data, i: number): LiteralValue {
  if (!isValidAt(d, i)) return null;
  // Arrow JS rule: values/offsets are pre-sliced; only bit buffers add data.offset.
  switch (d.typeId) {
    case Type.Bool: { const j = d.offset + i; return (((d.values as Uint8Array)[j >> 3]! >> (j & 7)) & 1) === 1; }
    case Type.Utf8: return new TextDecoder().decode((d.values as Uint8Array).subarray(d.valueOffsets[i]!, d.valueOffsets[i + 1]!));
    case Type.Dictionary: {
      const dict = d.dictionary!.data[0]!;
      return valueAt(dict, (d.values as Int32Array)[i]!);
    }
    default: return (d.values as unknown as ArrayLike<number | bigint>)[i * d.stride]!;
  }
}

/** All rows of some batches as arrays of plain values. */
export function rowsOf(batches: readonly RecordBatch[]): LiteralValue[][] {
  const out: LiteralValue[][] = [];
  for (const b of batches) {
    const cols = b.data.children;
    for (let i = 0; i < b.numRows; i++) out.push(cols.map((c) => valueAt(c, i)));
  }
  return out;
}

/** Rows sorted into a canonical order (for comparing unordered results). */
export function sorted(rows: readonly LiteralValue[][]): LiteralValue[][] {
  const keyed = rows.map((r) => ({ r, k: JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)) }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  return keyed.map((x) => x.r);
}
