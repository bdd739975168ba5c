/**
 * Hash join (inner, left, right, full, semi, anti) on equi-keys with an
 * optional residual predicate over the joined row. Input 0 is left, input 1
 * right; output columns are left then right (semi/anti: left only) whichever
 * side builds.
 *
 * The build side is consumed first (`selectInput`), buffered, and at its END
 * hashed into a KeyTable (typed arrays; NULL keys never match) straight from
 * the buffered batches; the columns read after the build are gathered from
 * those batches too when they are fixed-width or VARCHAR (batch-parts.ts),
 * else concatenated into one batch, in bounded steps (hash-join-build.ts). Build rows are laid out by group (CSR: `groupStart`,
 * `groupRows`), so probing a batch is: find group ids, expand to
 * (probe row, build row) pairs in chunks of ≤ stepRows (runtime/step-budget.ts), gather both sides.
 *
 * The build side is static: its table is kept across epochs, and probe rows
 * of epoch e produce output tagged e. Build rows owed to outer/semi/anti
 * joins are emitted per probe epoch when its watermark passes (join-output.ts).
 * A build side that may carry several epochs (an iteration feeding both
 * sides) is joined per epoch instead (per-epoch-join.ts).
 *
 * Arrays of one run come from the thread's scratch pool and go back at close
 * (kernels/buffer-pool.ts): the pair and group-id indexes, and the INTEGER,
 * DATE and DOUBLE build columns the build concatenated — the output gathers
 * copies of those (join-output.ts), so nothing emitted reads them after the
 * run; VARCHAR build columns may be emitted as a dictionary over themselves
 * and are left to the GC. Each was fresh bytes per query (TPC-H Q3: 1.4 MB).
 */
import { anchorMaps } from '../map-anchors.js';
import { Type, type Data, type RecordBatch } from 'apache-arrow';
import { InternalError } from '../../relnode/errors.js';
import { emptyBatch } from '../batch.js';
import { giveArray, takeScratch } from '../kernels/buffer-pool.js';
import { KeyTable, joinKeyKind, type KeyKind } from '../kernels/hash.js';
import { emitBounded, type Operator, type OperatorContext } from '../operator.js';
import { JoinOutput, type JoinPredicate } from './join-output.js';
import { groupPairs, identityPairs, uniquePairs } from './hash-join-pairs.js';
import { perEpochJoin } from './per-epoch-join.js';
import { buildSteps, releaseConcatenated, buildTuning, columnsOf, concatInSteps, hasNegative, matchNullAware, type BuiltTable } from './hash-join-build.js';
import { PartedBatch } from '../batch-parts.js';
import { batchBytes } from '../memory.js';
import type { RuntimeFilterSlot } from '../runtime-filter.js';
import { stepRows } from '../runtime/step-budget.js';
import { packedMap } from '../packed.js';
import type { KeyFilter, LoopHint } from '../kernels/key-filter.js';
import { membershipBeforeTable, membershipFilter, type MembershipCase } from './hash-join-member.js';
import { checkHashJoinConfig, type HashJoinConfig } from './hash-join-config.js';

export type { HashJoinConfig } from './hash-join-config.js';

/** Creates a hash join operator instance. */
export function hashJoin(config: HashJoinConfig): Operator {
  checkHashJoinConfig(config);
  // A per-epoch instance sees one epoch's build rows: it never publishes a runtime filter.
  return perEpochJoin(config.buildSide === 'left' ? 0 : 1, (perEpoch) => new HashJoin(config, !perEpoch));
}

class HashJoin implements Operator {
  private ctx!: OperatorContext;
  private out!: JoinOutput;
  private readonly build: number;
  private readonly probe: number;
  private readonly buildKeys: readonly number[];
  private readonly probeKeys: readonly number[];
  /*
   * What the per-batch methods read of the config, copied into the join's own fields: configs of different
   * queries have different shapes (their optional fields), and probeBatch read `config.joinType` through each
   * shape in turn: a "wrong map" deopt and a recompile in TPC-H Q18's timed runs (bench/deopt-runs.ts --why).
   */
  private readonly joinType: HashJoinConfig['joinType'];
  private readonly noResidual: boolean;
  private readonly nullAware: boolean;
  private buildBatches: RecordBatch[] = [];
  private built = false;
  /** The build phase started (it runs as deferred steps). */
  private building = false;
  private table!: KeyTable;
  /** The concatenated build side; null when it stays in parts (batch-parts.ts). */
  private buildBatch: RecordBatch | null = null;
  private buildRows = 0;
  /** The build batch is a concatenation this join made (not an input batch): its fixed-width columns are its own. */
  private buildOwned = false;
  /** Build rows by group: rows of group g are groupRows[groupStart[g] .. groupStart[g + 1]). */
  private groupStart: Int32Array = new Int32Array(1);
  private groupRows: Int32Array = new Int32Array(0);
  /** Every group has one build row (the common PK-FK case): skip the CSR ranges. */
  private unique = true;
  /** Unique keys and no NULL key: group id = build row, so no lookup at all. */
  private identity = false;
  /** Per build row, its group (-1 for a NULL key). */
  private buildGids: Int32Array = new Int32Array(0);
  /** Some build row has a NULL key (decides a NULL-aware anti join, see `nullAware`). */
  private buildHasNull = false;
  /** Probe batches that arrived before the build side ended (the runtime normally holds them back). */
  private pending: { batch: RecordBatch; epoch: number }[] = [];
  private pendingWatermark = -1;
  private pIdx = new Int32Array(0);
  private bIdx = new Int32Array(0);
  /** Pairs per output chunk (stepRows): the pooled index arrays may be longer. */
  private cap = 0;
  /**
   * The probe's group ids, one array for every batch (a fresh one per batch was TPC-H Q5's fourth
   * largest typed-array cost: 1.75 MB per run). A cursor whose output steps are deferred holds it until
   * it is done (`gidsHeld`); a batch probed meanwhile gets an array of its own.
   */
  private gidScratch = new Int32Array(0);
  private gidsHeld = false;
  /** Per-epoch group flags for semi/anti with build = left and no residual. */
  private readonly groupFlags = new Map<number, Uint8Array>();
  /** The build keys' exact filter when a match is all the output needs (hash-join-member.ts): probes test it, not the table. */
  private member: KeyFilter | null = null;
  private readonly memberHint: LoopHint = { clustered: false };
  /** The membership filter was decided before the build, which then built no key table. */
  private tableless = false;

  constructor(private readonly config: HashJoinConfig, private readonly publish: boolean) {
    this.build = config.buildSide === 'left' ? 0 : 1;
    this.probe = 1 - this.build;
    this.buildKeys = this.build === 0 ? config.leftKeys : config.rightKeys;
    this.probeKeys = this.build === 0 ? config.rightKeys : config.leftKeys;
    this.joinType = config.joinType;
    this.noResidual = config.residual === undefined;
    this.nullAware = config.nullAware === true;
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.out = new JoinOutput(ctx, this.config.joinType, this.probe === 0, this.config.residual, this.config.used, this.config.dictionaryOutput === true);
    const cap = stepRows(ctx);
    this.cap = cap;
    this.pIdx = takeScratch(Int32Array, cap);
    this.bIdx = takeScratch(Int32Array, cap);
  }

  selectInput(): number {
    return this.built ? -1 : this.build;
  }

  processBatch(input: number, batch: RecordBatch, epoch: number): void {
    if (batch.numRows === 0) return;
    if (input === this.build) {
      if (this.built) throw new InternalError('hash join received a build-side batch after its END');
      this.ctx.reserveMemory(batchBytes(batch));
      this.buildBatches.push(batch);
    } else if (!this.built) { this.ctx.reserveMemory(batchBytes(batch)); this.pending.push({ batch, epoch }); }
    else this.probeBatch(batch, epoch);
  }

  onInputEnd(input: number): void {
    if (input !== this.build || this.built || this.building) return;
    this.building = true;
    // The build runs as bounded steps (hash-join-build.ts); probes and owed rows follow it.
    const steps = this.buildTable();
    let next = 0;
    emitBounded(this.ctx, () => {
      if (!this.built) { steps.next(); return true; }
      // Probe batches that arrived early: one per step (each defers its own output steps, which run right after it).
      if (next < this.pending.length) { const p = this.pending[next++]!; this.probeBatch(p.batch, p.epoch); return true; }
      this.pending = [];
      const w = this.pendingWatermark;
      // Build rows owed are known only once the probes above ran (they may be pending).
      if (w >= 0) emitBounded(this.ctx, () => { this.emitBuildSide(w); return false; });
      return false;
    });
  }

  onEpochWatermarkIncremented(epoch: number): void {
    if (!this.built) { this.pendingWatermark = epoch; return; }
    this.emitBuildSide(epoch);
  }

  finish(): void {
    if (!this.built) this.onInputEnd(this.build);
    emitBounded(this.ctx, () => { if (this.built) this.emitBuildSide(Infinity); return false; });
  }

  close(): void {
    this.buildBatches = [];
    this.pending = [];
    this.groupFlags.clear();
    // The run is over (the runtime closes operators when it ends): nothing reads these arrays any more.
    giveArray(this.pIdx);
    giveArray(this.bIdx);
    this.pIdx = this.bIdx = new Int32Array(0);
    if (!this.gidsHeld) giveArray(this.gidScratch);
    this.gidScratch = new Int32Array(0);
    if (this.buildOwned && this.buildBatch !== null) {
      this.buildOwned = false;
      releaseConcatenated(this.buildBatch);
    }
    // The instance's own key table (built in buildTable, never shared): its group words, slots and direct map go back too.
    if (this.table !== undefined) this.table.release();
    if (this.publish) this.config.runtimeFilter?.closed();
  }

  /**
   * The build phase: concatenates the build side (when it is not kept in parts), then hashes and lays it
   * out in bounded steps. Only this driver is a generator: its `yield*` loops re-enter it at every step,
   * and V8 counts those resumptions toward its tier-up, so the once-per-query setup and wrap-up live in
   * plain methods (`startBuild`, `builtAs`) that never get hot (a 19 KB TurboFan compile of the whole phase
   * after 20 warm-ups, bench/deopt-runs.ts).
   */
  private *buildTable(): Generator<void, void, void> {
    const start = this.startBuild();
    if (start.concat !== null) this.setConcatenated(yield* concatInSteps(start.concat, start.reads), start.concat.length > 1);
    const built: BuiltTable = { gids: new Int32Array(0), start: this.groupStart, rows: this.groupRows, unique: true, identity: false };
    // A membership probe decided from the published filter needs no key table (hash-join-member.ts).
    const early = membershipBeforeTable(this.memberCase(), this.ctx.inputSchemas[this.probe]!.fields[this.probeKeys[0]!]!.type);
    if (early === null) yield* buildSteps(this.table, start.keyParts, this.buildRows, built);
    this.builtAs(built, early);
  }

  /** The build's setup: the key table, the key columns per batch, and the batches to concatenate (null: kept in parts). */
  private startBuild(): { keyParts: Data[][]; concat: RecordBatch[] | null; reads: boolean[] } {
    const ins = this.ctx.inputSchemas;
    const lf = ins[0]!.fields;
    const rf = ins[1]!.fields;
    const kinds = this.config.leftKeys.map((l, i) => this.config.keyKinds?.[i] ?? joinKeyKind(lf[l]!.type, rf[this.config.rightKeys[i]!]!.type));
    const buildFields = ins[this.build]!.fields;
    this.table = new KeyTable(this.buildKeys.map((k) => buildFields[k]!.type), kinds);
    const batches = this.buildBatches;
    this.buildBatches = [];
    // Keys are hashed from the buffered batches; only columns read later are gathered or concatenated (the others become placeholders).
    const keyParts = columnsOf(batches, this.buildKeys);
    const reads = buildFields.map((_, c) => this.out.readsBuildColumn(c));
    let rows = 0;
    for (const b of batches) rows += b.numRows;
    this.buildRows = rows;
    if (this.publish) this.config.runtimeFilter?.contribute(this.buildKeys.map((_, j) => keyParts.map((p) => p[j]!)));
    // Not concatenated when every column read later can be gathered from the parts (and none is emitted
    // as a dictionary over its whole column): the output gathers straight from the buffered batches, and
    // the parts never read a column `reads` leaves out (no placeholder batches per build batch).
    const parted = buildTuning.parted && batches.length > 1 && !this.out.buildDictionaries(rows) && buildFields.every((_, c) => !reads[c] || PartedBatch.supports(batches, c));
    if (parted) {
      this.buildBatch = null;
      this.out.setBuildParts(new PartedBatch(batches, reads));
      return { keyParts, concat: null, reads };
    }
    // No batches: the concatenation is null, and setConcatenated stands in an empty batch.
    return { keyParts, concat: batches, reads };
  }

  /** The concatenated build side (`owned`: a concatenation this join made). */
  private setConcatenated(batch: RecordBatch | null, owned: boolean): void {
    this.buildBatch = batch ?? emptyBatch(this.ctx.inputSchemas[this.build]!);
    this.buildOwned = owned;
    this.buildRows = this.buildBatch.numRows;
    this.out.setBuild(this.buildBatch);
  }

  /** What decides on membership probes (hash-join-member.ts), but the build keys' uniqueness. */
  private memberCase(): Omit<MembershipCase, 'unique'> {
    const buildUnread = (): boolean => this.out.readsNoBuildColumn(this.ctx.inputSchemas[this.build]!.fields.length);
    return { joinType: this.joinType, noResidual: this.noResidual, keys: this.probeKeys.length, publishes: this.publish, slot: this.config.runtimeFilter, buildUnread };
  }

  /** Takes the laid-out build table (none when `early`, the membership filter, was decided before it). */
  private builtAs(built: BuiltTable, early: KeyFilter | null): void {
    this.buildGids = built.gids;
    // Only a NULL-aware anti join reads it: no pass over every build row otherwise.
    this.buildHasNull = this.nullAware && hasNegative(built.gids);
    this.groupStart = built.start;
    this.groupRows = built.rows;
    this.unique = built.unique;
    this.identity = built.identity;
    this.member = early ?? membershipFilter({ ...this.memberCase(), unique: this.unique });
    this.tableless = early !== null;
    this.built = true;
  }

  private probeBatch(batch: RecordBatch, epoch: number): void {
    const n = batch.numRows;
    const cols = batch.data.children;
    if (this.member !== null && this.probeMembers(this.member, batch, cols[this.probeKeys[0]!]!, epoch)) return;
    const own = this.gidsHeld;
    if (!own && this.gidScratch.length < n) { giveArray(this.gidScratch); this.gidScratch = takeScratch(Int32Array, Math.max(n, 2 * this.gidScratch.length)); }
    const gids = this.table.find(packedMap(this.probeKeys, (k) => cols[k]!), n, own ? new Int32Array(n) : this.gidScratch.subarray(0, n));
    const out = this.out;
    const jt = this.joinType;
    const noResidual = this.noResidual;
    if ((jt === 'semi' || jt === 'anti') && noResidual) {
      if (this.probe === 0) {
        // Probe = left: a row matches iff its key is in the table.
        const matched = new Uint8Array(n);
        for (let i = 0; i < n; i++) if (gids[i]! >= 0) matched[i] = 1;
        if (this.nullAware && this.buildRows > 0) matchNullAware(cols[this.probeKeys[0]!]!, matched, this.buildHasNull);
        out.probeDone(batch, matched, epoch);
      } else {
        // Build = left: mark matched groups; build rows are resolved at the watermark.
        let f = this.groupFlags.get(epoch);
        if (f === undefined) { f = new Uint8Array(this.table.size); this.groupFlags.set(epoch, f); }
        for (let i = 0; i < n; i++) { const g = gids[i]!; if (g >= 0) f[g] = 1; }
        out.probeDone(batch, null, epoch);
      }
      return;
    }
    const probe = new ProbeCursor(this, batch, gids, epoch, out.tracksProbe ? new Uint8Array(n) : null, !own);
    if (!own) this.gidsHeld = true;
    emitBounded(this.ctx, () => probe.step());
  }

  /** The probe of an inner join that only keeps the probe rows whose key is a build key (hash-join-member.ts). */
  private probeMembers(member: KeyFilter, batch: RecordBatch, key: Data, epoch: number): boolean {
    if (!(key.values instanceof Int32Array) || key.typeId === Type.Dictionary) {
      // Canonical columns (io/canonical.ts) hold INTEGER and DATE as plain Int32 values: only VARCHAR comes as a dictionary.
      if (this.tableless) throw new InternalError(`a join built without a key table got a ${String(key.type)} probe key`);
      return false;
    }
    const n = batch.numRows;
    // The selection is used before this returns: the gid scratch serves when no cursor holds it.
    if (!this.gidsHeld && this.gidScratch.length < n) { giveArray(this.gidScratch); this.gidScratch = takeScratch(Int32Array, Math.max(n, 2 * this.gidScratch.length)); }
    const sel = this.gidsHeld ? new Int32Array(n) : this.gidScratch;
    const m = member.select(key, sel, undefined, n, this.memberHint);
    this.out.probeRows(batch, m === n ? null : sel, m, epoch);
    return true;
  }

  /**
   * Fills up to one chunk of (probe row, build row) pairs starting at the
   * cursor and hands it to the output; returns true while pairs remain.
   * One call emits at most one batch (bounded steps, operator.ts).
   */
  fill(p: ProbeCursor): boolean {
    const { batch, gids, epoch, probeMatched } = p;
    const n = batch.numRows;
    // The loops are leaves (hash-join-pairs.ts: why), so this per-chunk method has none.
    const m = this.identity
      ? identityPairs(gids, n, this.cap, p, this.pIdx, this.bIdx)
      : this.unique
        ? uniquePairs(gids, n, this.cap, this.groupStart, this.groupRows, p, this.pIdx, this.bIdx)
        : groupPairs(gids, n, this.cap, this.groupStart, this.groupRows, p, this.pIdx, this.bIdx);
    this.out.pairs(batch, this.pIdx, this.bIdx, m, epoch, probeMatched);
    if (p.i < n) return true;
    if (p.scratch) this.gidsHeld = false;
    this.out.probeDone(batch, probeMatched, epoch);
    return false;
  }

  private emitBuildSide(w: number): void {
    // Semi/anti with build = left and no residual: turn matched groups into matched build rows first.
    for (const [e, f] of [...this.groupFlags]) {
      if (e > w) continue;
      this.groupFlags.delete(e);
      const flags = this.out.buildMatched(e);
      const gids = this.buildGids;
      for (let r = 0; r < gids.length; r++) { const g = gids[r]!; if (g >= 0 && f[g] === 1) flags[r] = 1; }
    }
    this.out.emitBuildSide(w);
  }
}

/** Where the probe of one batch stands: the next probe row, and inside a duplicate group the next build row (−1 = group start). */
class ProbeCursor {
  i = 0;
  s = -1;
  constructor(
    private readonly join: HashJoin,
    readonly batch: RecordBatch,
    readonly gids: Int32Array,
    readonly epoch: number,
    readonly probeMatched: Uint8Array | null,
    /** `gids` is the join's scratch array (released when the cursor is done). */
    readonly scratch: boolean,
  ) {}
  step(): boolean {
    return this.join.fill(this);
  }
}

// Keep ProbeCursor's hidden classes across major GCs (identityPairs and the pair loops check them):
// exec/map-anchors.ts. Placeholders of the fields' kinds; the cursor is never stepped.
anchorMaps(new ProbeCursor(Object.create(HashJoin.prototype) as HashJoin, emptyBatch({ fields: [] } as unknown as Parameters<typeof emptyBatch>[0]), new Int32Array(0), 0, null, false));
