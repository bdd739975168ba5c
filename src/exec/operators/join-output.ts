/**
 * Output side of the joins (hash-join.ts, nested-loop-join.ts): turns chunks
 * of candidate (probe row, build row) pairs into output batches, applying the
 * residual condition, and tracks which rows matched for outer, semi and anti
 * joins.
 *
 * Output columns are always left then right (semi/anti: left only),
 * whichever side is the build side. Unmatched build rows are tracked per
 * probe epoch and emitted when that epoch's watermark passes (or at finish):
 * the result of epoch e is join(build, probe rows of epoch e). Epoch 0 always
 * exists, so a batch query with an empty probe side still emits them; inside
 * an iteration so does every round whose watermark passed (a subtask the
 * round's probe rows all hashed away from still owes its build rows).
 *
 * Late materialization: with `used`, only the output columns the plan reads
 * above the join are gathered; the others are emitted as all-NULL
 * placeholders of Arrow type Null (no buffers). Lowering (planner/lower.ts)
 * passes `used` only when it knows every reader of the join's output.
 *
 * Dictionary gather: a VARCHAR column of a small build side (at most
 * 4096 rows: nation, region, a filtered dimension) is emitted as
 * Dictionary codes over the build column itself instead of copying its bytes
 * per output row. The codes are the build row ids; the dictionary object is
 * one per build, so the kernels' per-dictionary caches (string tests, the
 * aggregate's interned ids, sort ranks) work once per build, and a later
 * join building on this output gathers codes only (TPC-H Q5/Q7/Q8/Q9's
 * n_name). Larger build sides keep copying: consumers that redo work per
 * dictionary per batch (hash partitioning, a cache block's byte count) would
 * pay for the whole build column on every batch — unless lowering says only
 * a single-instance grouped aggregate reads the output (`dictionaryOutput`):
 * the aggregate interns each dictionary entry once for all batches
 * (hash-encode.ts dictionaryIds) instead of every row's copied bytes (TPC-H
 * Q10: four customer strings of 57K build rows, 114K output rows).
 */
import { anchorMaps } from '../map-anchors.js';
import { Dictionary, Int32, Type, Utf8, makeVector, type Data, type DataType, type RecordBatch, type Vector } from 'apache-arrow';
import type { JoinType } from '../../relnode/rel.js';
import { toArrowType } from '../../relnode/types.js';
import { dictionaryData } from '../arrow-build.js';
import { batchFromColumns, isRun, nullData, takeData, takeValidity } from '../batch.js';
import type { PartedBatch } from '../batch-parts.js';
import { nullColumn } from '../kernels/column.js';
import { emitBounded, type OperatorContext } from '../operator.js';
import { stepRows } from '../runtime/step-budget.js';
import { packedConcat, packedMap } from '../packed.js';

/** Build sides of at most `dictBuildRows` rows emit their VARCHAR columns dictionary-encoded (mutable for benchmarks: 0 turns it off). */
export const joinOutputTuning = { dictBuildRows: 4096 };

/**
 * The largest build side concatenated in one step once its output outgrows it (a memory copy of its read columns:
 * a few milliseconds per million rows); a larger one stays in parts (bounded steps, operator.ts).
 */
const MAX_LATE_CONCAT_ROWS = 2_000_000;

/** A compiled predicate over the concatenated left + right row: selected rows, or null for all. */
export type JoinPredicate = (batch: RecordBatch) => Int32Array | null;

/** Writes the joined rows of candidate pairs and tracks matches. */
export class JoinOutput {
  /** Pairs produce output rows (inner and outer joins). */
  readonly emitsPairs: boolean;
  /** Probe rows need matched flags (outer on the probe side, semi/anti with probe = left). */
  readonly tracksProbe: boolean;
  /** Build rows need matched flags (outer on the build side, semi/anti with build = left). */
  readonly tracksBuild: boolean;
  private readonly semiAnti: boolean;
  private readonly names: string[];
  /** The build side: one batch, or its batches unconcatenated (`parted`, batch-parts.ts). */
  private build: RecordBatch | null = null;
  private parted: PartedBatch | null = null;
  /** Per column of `parted`: emitted (else a placeholder). */
  private partedUsed: boolean[] = [];
  /** Rows gathered from `parted` so far: past its row count the build is concatenated after all. */
  private partedGathered = 0;
  private buildRows = 0;
  private readonly buildFlags = new Map<number, Uint8Array>();
  private emittedEpoch0 = false;
  /** Inside an iteration: the first round whose owed build rows were not yet set up. */
  private nextRound = 0;
  private probeTypes: DataType[] | null = null;

  constructor(
    private readonly ctx: OperatorContext,
    private readonly joinType: JoinType,
    /** True when the probe side is the left input. */
    private readonly probeIsLeft: boolean,
    private readonly residual: JoinPredicate | undefined,
    /** Per output column (left then right; semi/anti: left): false when nothing above reads it. Absent: all are read. */
    private readonly used?: readonly boolean[],
    /** Dictionary-encode the build side's VARCHAR columns whatever its size (see the header). */
    private readonly dictionaryOutput = false,
  ) {
    const jt = joinType;
    this.semiAnti = jt === 'semi' || jt === 'anti';
    this.emitsPairs = !this.semiAnti;
    const probeOuter = jt === 'full' || (jt === 'left' && probeIsLeft) || (jt === 'right' && !probeIsLeft);
    const buildOuter = jt === 'full' || (jt === 'left' && !probeIsLeft) || (jt === 'right' && probeIsLeft);
    this.tracksProbe = probeOuter || (this.semiAnti && probeIsLeft);
    this.tracksBuild = buildOuter || (this.semiAnti && !probeIsLeft);
    const ins = ctx.inputSchemas;
    this.names = [...ins[0]!.fields, ...ins[1]!.fields].map((f) => f.name);
    this.leftWidth = ins[0]!.fields.length;
  }

  private readonly leftWidth: number;

  /** Is column c of the left (isLeft) or right side read above the join? */
  private isUsed(isLeft: boolean, c: number): boolean {
    return this.used === undefined || this.used[isLeft ? c : this.leftWidth + c] !== false;
  }

  /** Is build column `c` read after the build (emitted, or read by the residual)? Else it need not be concatenated. */
  readsBuildColumn(c: number): boolean {
    if (this.residual !== undefined) return true;
    // Semi/anti joins that build the right side emit left (probe) columns only.
    if (this.semiAnti && this.probeIsLeft) return false;
    return this.isUsed(!this.probeIsLeft, c);
  }

  /** Whether nothing after the build reads any of the build side's `width` columns (not emitted, no residual). */
  readsNoBuildColumn(width: number): boolean {
    for (let c = 0; c < width; c++) if (this.readsBuildColumn(c)) return false;
    return true;
  }

  /**
   * An inner join whose build side is not read (`readsNoBuildColumn`) and whose build keys are unique:
   * emits the matching probe rows `sel[0..m)` each once (sel null: every row of the batch matched, and
   * leaves as the batch's own columns), the build columns as placeholders.
   */
  probeRows(probe: RecordBatch, sel: Int32Array | null, m: number, epoch: number): void {
    if (m === 0) return;
    const pl = this.probeIsLeft;
    const pc = sel === null ? this.sliceSide(probe, pl, 0, m) : isRun(sel, m) ? this.sliceSide(probe, pl, sel[0]!, m) : this.gatherSide(probe, pl, sel, m);
    const bc = this.nullsOf(false, m);
    this.ctx.emit(batchFromColumns(this.ctx.outputSchema, pl ? packedConcat(pc, bc) : packedConcat(bc, pc), m), epoch);
  }

  /** Gathers rows `sel[0..m)` of the build side's columns; unused columns become placeholders. */
  private gatherBuild(sel: Int32Array, m: number): Data[] {
    const parted = this.parted;
    if (parted !== null && (this.partedGathered += m) > parted.numRows && parted.numRows <= MAX_LATE_CONCAT_ROWS) {
      // The output has gathered the build's size: from here on one concatenated copy is cheaper than locating rows
      // (bench/join-parted.ts: gathering ten times the build from its parts cost 7% more CPU than concatenating).
      this.setBuild(parted.concat());
    }
    const p = this.parted;
    if (p === null) return this.gatherSide(this.build!, !this.probeIsLeft, sel, m);
    return p.takeColumns(sel, m, this.partedUsed);
  }

  /** Gathers rows `sel[0..m)` of one side's columns; unused columns become placeholders. */
  private gatherSide(src: RecordBatch, isLeft: boolean, sel: Int32Array, m: number): Data[] {
    const dicts = src === this.build ? this.buildDicts : null;
    const cols = src.data.children;
    const out: Data[] = [];
    for (let i = 0; i < cols.length; i++) {
      const dict = dicts === null ? undefined : dicts[i];
      out.push(!this.isUsed(isLeft, i) ? nullColumn(m) : dict === undefined ? takeData(cols[i]!, sel, m) : dictionaryGather(cols[i]!, dict, sel, m));
    }
    return out;
  }

  /** Per build column: its dictionary form (type and values) when it is emitted dictionary-encoded. */
  private buildDicts: (BuildDictionary | undefined)[] | null = null;

  /** Whether a build side of `rows` rows emits its VARCHAR columns dictionary-encoded (over one concatenated column). */
  buildDictionaries(rows: number): boolean {
    return rows > 0 && (this.dictionaryOutput || rows <= joinOutputTuning.dictBuildRows);
  }

  /** The buffered build side, unconcatenated (never with `buildDictionaries`). */
  setBuildParts(parted: PartedBatch): void {
    this.parted = parted;
    // Per build column, whether it is emitted: an array made once per build, not a closure per gathered chunk
    // (its optimized code was dropped and compiled again in TPC-H Q18's timed runs, bench/deopt-runs.ts).
    this.partedUsed = [];
    for (let c = 0; c < parted.width; c++) this.partedUsed.push(this.isUsed(!this.probeIsLeft, c));
    this.build = null;
    this.buildRows = parted.numRows;
    this.buildDicts = null;
  }

  /** The buffered build side (all its rows, one batch). */
  setBuild(build: RecordBatch): void {
    this.build = build;
    this.parted = null;
    this.buildRows = build.numRows;
    this.buildDicts = this.buildDictionaries(build.numRows)
      // packedMap: one elements kind whoever calls (a `.map` array read in `gatherSide` deopted "wrong map" in TPC-H Q18).
      ? packedMap(build.data.children, (c) => (c.typeId === Type.Utf8 ? { type: new Dictionary(new Utf8(), new Int32()), values: makeVector(c as Data<Utf8>) } : undefined))
      : null;
  }

  /** Matched flags of the build rows for a probe epoch (created on first use). */
  buildMatched(epoch: number): Uint8Array {
    let f = this.buildFlags.get(epoch);
    if (f === undefined) { f = new Uint8Array(this.buildRows); this.buildFlags.set(epoch, f); }
    return f;
  }

  private joined(probe: RecordBatch, pIdx: Int32Array, bIdx: Int32Array, m: number): Data[] {
    // Probe rows that each matched once, in order, are a slice of the probe batch (no gather).
    const run = isRun(pIdx, m);
    const first = pIdx[0]!;
    const pl = this.probeIsLeft;
    const pc = run ? this.sliceSide(probe, pl, first, m) : this.gatherSide(probe, pl, pIdx, m);
    const bc = this.gatherBuild(bIdx, m);
    // Not `.map` or a spread on this path: their arrays change map once the caller is optimized (exec/packed.ts).
    return this.probeIsLeft ? packedConcat(pc, bc) : packedConcat(bc, pc);
  }

  /** Rows [first, first + m) of one side's columns, without copying; unused columns become placeholders. */
  private sliceSide(src: RecordBatch, isLeft: boolean, first: number, m: number): Data[] {
    const cols = src.data.children;
    const out: Data[] = [];
    for (let i = 0; i < cols.length; i++) {
      const c = cols[i]!;
      out.push(!this.isUsed(isLeft, i) ? nullColumn(m) : first === 0 && m === c.length ? c : c.slice(first, m));
    }
    return out;
  }

  /**
   * Handles `m` candidate pairs of one probe batch: applies the residual,
   * marks matches, and emits joined rows (inner/outer joins).
   */
  pairs(probe: RecordBatch, pIdx: Int32Array, bIdx: Int32Array, m: number, epoch: number, probeMatched: Uint8Array | null): void {
    if (m === 0) return;
    let cols: Data[] | null = null;
    if (this.residual !== undefined) {
      cols = this.joined(probe, pIdx, bIdx, m);
      const sel = this.residual(batchFromColumns(this.names, cols, m));
      if (sel !== null) {
        if (sel.length === 0) return;
        // Keep only the surviving pairs.
        for (let k = 0; k < sel.length; k++) { const s = sel[k]!; pIdx[k] = pIdx[s]!; bIdx[k] = bIdx[s]!; }
        cols = packedMap(cols, (c) => takeData(c, sel));
        m = sel.length;
      }
    }
    if (probeMatched !== null) for (let k = 0; k < m; k++) probeMatched[pIdx[k]!] = 1;
    if (this.tracksBuild) { const f = this.buildMatched(epoch); for (let k = 0; k < m; k++) f[bIdx[k]!] = 1; }
    if (!this.emitsPairs) return;
    this.ctx.emit(batchFromColumns(this.ctx.outputSchema, cols ?? this.joined(probe, pIdx, bIdx, m), m), epoch);
  }

  /** After all pairs of a probe batch: emits its unmatched rows (outer) or its semi/anti rows. */
  probeDone(probe: RecordBatch, probeMatched: Uint8Array | null, epoch: number): void {
    if (this.probeTypes === null) this.probeTypes = packedMap(probe.data.children, (c) => c.type as DataType);
    if (!this.tracksProbe || probeMatched === null) return;
    const want = this.joinType === 'semi' ? 1 : 0;
    const sel = new Int32Array(probe.numRows);
    let m = 0;
    for (let i = 0; i < probe.numRows; i++) if (probeMatched[i] === want) sel[m++] = i;
    this.emitRows(probe, sel, m, epoch, true);
  }

  /**
   * Emits rows `sel` of one side (in batches ≤ stepRows, one per step), the
   * other side NULL (semi/anti: left columns only).
   */
  private emitRows(src: RecordBatch | null, sel: Int32Array, m: number, epoch: number, isProbe: boolean): void {
    const size = stepRows(this.ctx);
    const srcIsLeft = isProbe === this.probeIsLeft;
    let s = 0;
    emitBounded(this.ctx, () => {
      if (s >= m) return false;
      const e = Math.min(m, s + size);
      const part = sel.subarray(s, e);
      s = e;
      const own = isProbe ? this.gatherSide(src!, srcIsLeft, part, part.length) : this.gatherBuild(part, part.length);
      if (this.semiAnti) this.ctx.emit(batchFromColumns(this.ctx.outputSchema, own, part.length), epoch);
      else {
        const other = this.nullsOf(!isProbe, part.length);
        this.ctx.emit(batchFromColumns(this.ctx.outputSchema, srcIsLeft ? packedConcat(own, other) : packedConcat(other, own), part.length), epoch);
      }
      return s < m;
    });
  }

  /** All-NULL columns for the probe side (probe = true) or the build side. */
  private nullsOf(probe: boolean, n: number): Data[] {
    const isLeft = probe === this.probeIsLeft;
    if (!probe) {
      const types = this.parted !== null ? Array.from({ length: this.parted.width }, (_, i) => this.parted!.type(i)) : this.build!.data.children.map((c) => c.type as DataType);
      return types.map((t, i) => (this.isUsed(isLeft, i) ? nullData(t, n) : nullColumn(n)));
    }
    const types = this.probeTypes ?? this.ctx.inputSchemas[this.probeIsLeft ? 0 : 1]!.fields.map((f) => toArrowType(f.type));
    return types.map((t, i) => (this.isUsed(isLeft, i) ? nullData(t, n) : nullColumn(n)));
  }

  /** Emits the build-side rows owed for every probe epoch ≤ w (outer: unmatched; semi/anti: matched/unmatched). */
  emitBuildSide(w: number): void {
    if (!this.tracksBuild) return;
    if (w >= 0 && !this.emittedEpoch0) this.buildMatched(0);
    // Inside an iteration every round is a query of its own: a subtask that got no probe rows in a
    // round still owes that round's build rows (anti/outer: all of them), as epoch 0 is owed above.
    if (this.ctx.inIteration && Number.isFinite(w)) {
      for (let e = this.nextRound; e <= w; e++) this.buildMatched(e);
      this.nextRound = Math.max(this.nextRound, w + 1);
    }
    const epochs = [...this.buildFlags.keys()].filter((e) => e <= w).sort((a, b) => a - b);
    const want = this.joinType === 'semi' ? 1 : 0;
    for (const e of epochs) {
      const flags = this.buildFlags.get(e)!;
      this.buildFlags.delete(e);
      if (e === 0) this.emittedEpoch0 = true;
      const sel = new Int32Array(flags.length);
      let m = 0;
      for (let r = 0; r < flags.length; r++) if (flags[r] === want) sel[m++] = r;
      this.emitRows(this.build, sel, m, e, false);
    }
  }
}

/** A build column as a dictionary: its own rows are the entries, build row ids the codes. */
interface BuildDictionary {
  readonly type: Dictionary<Utf8, Int32>;
  readonly values: Vector<Utf8>;
}

/** Rows `sel[0..m)` of build column `c` as Dictionary codes over `dict` (index < 0 → NULL, code 0). */
function dictionaryGather(c: Data, dict: BuildDictionary, sel: Int32Array, m: number): Data {
  const codes = new Int32Array(m);
  let neg = false;
  for (let i = 0; i < m; i++) { const j = sel[i]!; if (j < 0) neg = true; else codes[i] = j; }
  const { bitmap, nulls } = takeValidity(c, sel, m, neg);
  return dictionaryData(dict.type, m, nulls, bitmap, codes, dict.values);
}

// Keep JoinOutput's hidden classes across major GCs: exec/map-anchors.ts. A context with two empty inputs.
anchorMaps(new JoinOutput({ inputSchemas: [{ fields: [] }, { fields: [] }] } as unknown as OperatorContext, 'inner', true, undefined));
