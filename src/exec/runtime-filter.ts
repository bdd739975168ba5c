/**
 * Runtime filters (sideways information passing): a hash join publishes a
 * membership filter of its build keys (kernels/key-filter.ts) and the probe
 * side's scan drops rows whose key cannot match before anything downstream
 * copies them.
 *
 * Decision: the planner pairs a join with probe-side scans at lowering time
 * (planner/runtime-filters.ts) and links them through one RuntimeFilterSlot
 * per join, captured by the join's and the scan's factories — no global
 * registry, so a slot lives exactly as long as its job graph. Each join
 * subtask contributes its build keys when its build side ends; the filter
 * exists once every subtask has contributed. Until then the scan passes rows
 * through: the scheduler normally pulls the probe branch only after the build
 * ended (exec/runtime/scheduler.ts), but a source feeding both sides is
 * pulled earlier, and the filter only ever removes rows the join would drop.
 * A join whose build side carries several epochs (an iteration) never
 * publishes: one epoch's keys say nothing about another's.
 *
 * A run of the graph starts when subtask 0 of the join is instantiated: the
 * slot forgets the previous run's filter then (instances are created before
 * any source is pulled). The same graph must not run twice concurrently.
 *
 * Adaptive: a scan stops testing a filter that kept more than 90% of the
 * first 64K rows it saw — then the test costs more than it saves.
 *
 * One copy: the scan's own pushed conjuncts that cannot raise (`prefilter`,
 * kernels/predicate.ts compileSafeRefine) narrow the key filters' selection
 * before the kept rows are gathered. Q3's lineitem kept 581K of 6M rows by
 * its key filter, copied them (4 columns), and the Filter above then kept
 * 30K by l_shipdate and copied again; now 30K rows are copied once and the
 * Filter passes the batch through. The Filter still runs: the prefilter only
 * drops rows it would drop. Batches no key filter tested are left to it.
 *
 * Buffers of one run: the scan's two selection arrays come from the thread's
 * scratch pool and go back when the scan closes (kernels/buffer-pool.ts),
 * and the filters' bit arrays go back once every join subtask of the run has
 * closed (`closed`): each was fresh bytes per query (TPC-H Q3: 1.3 MB).
 */
import type { Data, RecordBatch } from 'apache-arrow';
import { takeBatch } from './batch.js';
import { KeyFilter, type LoopHint } from './kernels/key-filter.js';
import { giveArray, takeScratch } from './kernels/buffer-pool.js';
import type { SourceEvent, SourceFactory, SourceInstance } from './operator.js';

/** The filters of one hash join: one per equi-key, filled from every subtask's build keys. */
export class RuntimeFilterSlot {
  private parts: Data[][] = [];
  private contributed = 0;
  private closedSubtasks = 0;
  private built: (KeyFilter | undefined)[] | undefined;
  /** Rows the scans tested and kept, for EXPLAIN ANALYZE and tests (this run). */
  rowsTested = 0;
  rowsKept = 0;

  /**
   * @param id the number EXPLAIN prints (`rf1`)
   * @param keys how many equi-keys the join has
   * @param subtasks the join's parallelism: contributions expected per run (set once lowering knows it)
   */
  constructor(readonly id: number, readonly keys: number, public subtasks: number) {}

  /** Called when join subtask `subtask` is instantiated; subtask 0 starts a new run. */
  instantiated(subtask: number): void {
    if (subtask !== 0) return;
    this.parts = [];
    this.contributed = 0;
    this.closedSubtasks = 0;
    this.built = undefined;
    this.rowsTested = 0;
    this.rowsKept = 0;
  }

  /** A join subtask's build keys (per equi-key a column, or its pieces: one per build batch). */
  contribute(keyColumns: readonly (Data | readonly Data[])[]): void {
    keyColumns.forEach((c, k) => { const p = (this.parts[k] ??= []); if (Array.isArray(c)) p.push(...(c as readonly Data[])); else p.push(c as Data); });
    if (++this.contributed < this.subtasks) return;
    this.built = Array.from({ length: this.keys }, (_, k) => KeyFilter.build(this.parts[k] ?? []));
    this.parts = [];
  }

  /**
   * Called when a join subtask of this run closes. Once all have, the run is over (the runtime closes
   * operators when the whole run ends, and a scan's later `filter` calls find none and pass rows
   * through): the filters' bit arrays go back to the thread's scratch pool.
   */
  closed(): void {
    if (++this.closedSubtasks < this.subtasks) return;
    const built = this.built;
    this.built = undefined;
    this.parts = [];
    if (built !== undefined) for (const f of built) f?.release();
  }

  /** The filter of key `k`, once every subtask contributed (undefined before, or when the key type takes none). */
  filter(k: number): KeyFilter | undefined {
    return this.built?.[k];
  }
}

/** One filter a scan applies: key `key` of `slot`, tested on the scan's output column `column`. */
export interface RuntimeFilterUse {
  readonly slot: RuntimeFilterSlot;
  readonly key: number;
  readonly column: number;
}

const SAMPLE_ROWS = 65_536;
export const KEEP_RATIO = 0.9;

/** Refines a non-empty selection of a batch's rows in place (a prefix view of it); must not raise. */
export type Prefilter = (batch: RecordBatch, sel: Int32Array) => Int32Array;

/**
 * Wraps a source factory so every batch goes through the runtime filters `uses` (when published),
 * then through `prefilter` (conjuncts a Filter above applies anyway) on the rows they kept.
 */
export function runtimeFilteredSource(inner: SourceFactory, uses: readonly RuntimeFilterUse[], prefilter?: Prefilter): SourceFactory {
  return async (ctx) => {
    const src = await inner(ctx);
    return new FilteredSource(src, uses, prefilter);
  };
}

class FilteredSource implements SourceInstance {
  private sel = new Int32Array(0);
  private spare = new Int32Array(0);
  /** An asynchronous `next` of the inner source is in flight: its batch will still be filtered into `sel`. */
  private awaiting = false;
  private closed = false;
  private readonly tested: number[];
  private readonly kept: number[];
  private readonly off: boolean[];
  /** Each use's bitmap loop choice (key-filter.ts LoopHint). */
  private readonly hints: LoopHint[];

  constructor(private readonly src: SourceInstance, private readonly uses: readonly RuntimeFilterUse[], private readonly prefilter: Prefilter | undefined) {
    this.hints = uses.map(() => ({ clustered: false }));
    this.tested = uses.map(() => 0);
    this.kept = uses.map(() => 0);
    this.off = uses.map(() => false);
  }

  next(): SourceEvent | null | Promise<SourceEvent | null> {
    for (;;) {
      const ev = this.src.next();
      if (ev instanceof Promise) {
        this.awaiting = true;
        return ev.then((e) => { this.awaiting = false; const r = this.apply(e); return r === undefined ? this.next() : r; });
      }
      const r = this.apply(ev);
      if (r !== undefined) return r;
    }
  }

  close(): void | Promise<void> {
    // The runtime may close a source twice (at its end and with the run): give the arrays back once,
    // and not while a pending read may still write into them (they are then left to the GC).
    if (!this.closed && !this.awaiting) {
      giveArray(this.sel);
      giveArray(this.spare);
      this.sel = new Int32Array(0);
      this.spare = new Int32Array(0);
    }
    this.closed = true;
    return this.src.close();
  }

  /** The event with filtered rows; undefined when every row of a batch was dropped (pull again). */
  private apply(ev: SourceEvent | null): SourceEvent | null | undefined {
    if (ev === null || 'watermark' in ev) return ev;
    const tagged = 'epoch' in ev && 'batch' in ev;
    const batch = tagged ? ev.batch : (ev as RecordBatch);
    const out = this.filterBatch(batch);
    if (out === null) return undefined;
    return out === batch ? ev : tagged ? { batch: out, epoch: ev.epoch } : out;
  }

  /**
   * Tests every published filter, each only on the rows the ones before it
   * kept (the selection narrows from filter to filter), and gathers the
   * surviving rows once at the end: a scan with two selective filters (Q5's
   * lineitem) no longer copies its columns after each. When any filter was
   * tested, the prefilter narrows the selection further before the copy.
   */
  private filterBatch(batch: RecordBatch): RecordBatch | null {
    const n = batch.numRows;
    let m = n;
    let narrowed = false;
    let tested = false;
    for (let u = 0; u < this.uses.length; u++) {
      if (this.off[u]) continue;
      const use = this.uses[u]!;
      const f = use.slot.filter(use.key);
      if (f === undefined) continue;
      if (this.sel.length < n) { giveArray(this.sel); this.sel = takeScratch(Int32Array, Math.max(n, 2 * this.sel.length)); }
      // The second buffer only once a filter tests a narrowed selection (a scan with one filter needs none).
      if (narrowed && this.spare.length < this.sel.length) { giveArray(this.spare); this.spare = takeScratch(Int32Array, this.sel.length); }
      const before = m;
      tested = true;
      const col = batch.data.children[use.column]!;
      // The filter writes into the spare buffer, reading the current selection; then they swap.
      const k = narrowed ? f.select(col, this.spare, this.sel, m, this.hints[u]) : f.select(col, this.sel, undefined, n, this.hints[u]);
      if (narrowed) { const t = this.sel; this.sel = this.spare; this.spare = t; }
      use.slot.rowsTested += before;
      use.slot.rowsKept += k;
      this.tested[u] += before;
      this.kept[u] += k;
      if (this.tested[u]! >= SAMPLE_ROWS && this.kept[u]! > KEEP_RATIO * this.tested[u]!) this.off[u] = true;
      if (k === 0) return null;
      m = k;
      if (m < n) narrowed = true;
    }
    let sel: Int32Array = this.sel;
    if (tested && this.prefilter !== undefined) {
      // After a tested filter, sel[0..m) is the selection (all rows when it kept every one).
      sel = this.prefilter(batch, this.sel.subarray(0, m));
      m = sel.length;
      if (m === 0) return null;
    }
    return m < n ? takeBatch(batch, sel, m) : batch;
  }
}
