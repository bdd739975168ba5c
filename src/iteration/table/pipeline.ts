/**
 * A fused body pipeline of a table iteration (issue 9's graph workloads):
 * the round's rows (input 0, the "spine") go through a chain of inner
 * equi-joins on one INTEGER key, each against either a static side (kept
 * data: indexed once, when it ends) or the keyed table of a USING KEY
 * variable (`recurring`: probed in place, as the previous round left it),
 * each with optional comparisons of INTEGER columns, and end in either the
 * joined rows' chosen columns or a per-round GROUP BY of INTEGER keys with
 * min / max / count. The planner (planner/lower-iterate-fuse.ts) builds the
 * spec from the body plan when every piece fits, at parallelism 1.
 *
 * Decision: a joined row is a tuple of row indexes, one per source (the
 * spine batch, each step's build rows or key ids); columns are read through
 * the indexes only where a key, a comparison, a group or an output needs
 * them, so nothing is materialized between the steps and an aggregate over
 * the joins materializes nothing but its groups (label propagation over a
 * graph: the edges a round touches are never built as rows). A static side
 * with a dense key range is indexed by key (CSR by `key − min`), otherwise
 * through an int hash; the group table is reused round after round. The
 * index of data indexed before (the same buffers) is reused across queries
 * (static-index-cache.ts).
 */
import type { Data, RecordBatch } from 'apache-arrow';
import { batchFromColumns, emptyBatch, takeData } from '../../exec/batch.js';
import { concatBatches } from '../../exec/batch-concat.js';
import { makeColumn } from '../../exec/kernels/column.js';
import { emitBounded, type Operator, type OperatorContext } from '../../exec/operator.js';
import { batchBytes } from '../../exec/memory.js';
import { RoundGroups } from './pipeline-groups.js';
import { aggregatePairs as aggregateFusedPairs, currentLabel, fusedStep, refsOf, type PairValue } from './pipeline-fused.js';
import { storeOf, type KeyedStore } from './keyed-store.js';
import { StaticIndex } from './static-index.js';
import { staticIndexOf } from './static-index-cache.js';
import { expandTuples, lookupTuples, type Tuples } from './pipeline-tuples.js';
import type { Cmp, PipelineSpec, PipelineStep, PipelineTerminal, Ref } from './pipeline-spec.js';


export class PipelineOperator implements Operator {
  private ctx!: OperatorContext;
  private readonly statics = new Map<number, { batches: RecordBatch[]; bytes: number; index: StaticIndex | null }>();
  private readonly stores: (KeyedStore | null)[] = [];
  private pruneStore: KeyedStore | null = null;
  /** The min aggregate whose value orders the emitted rows once in-place updates ran (−1: first-seen order). */
  private inPlaceAgg = -1;
  private pending: { batch: RecordBatch; epoch: number }[] = [];
  private readonly rounds = new Map<number, RoundGroups>();
  private spare: RoundGroups[] = [];
  private groupsBytes = 0;
  private pendingBytes = 0;

  /** The step from which the rest runs as one pass over (row, edge) pairs (pipeline-fused.ts), or −1. */
  private readonly fusedAt: number;

  constructor(private readonly spec: PipelineSpec) {
    this.fusedAt = fusedStep(spec);
  }

  /** Whether the pair loop applies to this run's data: NULL-free INTEGER static columns, an int-keyed table. */
  private fusable(): boolean {
    const L = this.fusedAt;
    const index = this.staticOf(L);
    const store = L + 1 < this.spec.steps.length ? this.stores[L + 1]! : null;
    if (store !== null && !store.hasIntKey) return false;
    return refsOf(this.spec, L).every((r) => {
      if (r.src !== L + 1) return true;
      const d = index.batch.data.children[r.col]!;
      return d.values instanceof Int32Array && d.nullCount === 0;
    });
  }

  /** Runs the steps from `fusedAt` on as one pass over the pairs (pipeline-fused.ts). */
  private aggregatePairs(t: Tuples, keys: Int32Array, ok: Uint8Array, spine: readonly Data[], epoch: number): void {
    const L = this.fusedAt;
    const term = this.spec.terminal as Extract<PipelineTerminal, { kind: 'agg' }>;
    const index = this.staticOf(L);
    const storeStep = this.spec.steps[L + 1];
    const store = storeStep !== undefined ? this.stores[L + 1]! : null;
    const tupleValues = new Map<string, PairValue>();
    const value = (r: Ref): PairValue => {
      if (r.src === L + 1) return { kind: 1, b: index.batch.data.children[r.col]!.values as Int32Array };
      if (r.src === L + 2) return { kind: 2, s: store!.intColumn(r.col), byKey: () => store!.byKey(r.col) };
      const at = `${r.src}.${r.col}`;
      const known = tupleValues.get(at);
      if (known !== undefined) return known;
      const v = new Int32Array(t.m);
      const f = new Uint8Array(t.m);
      this.read(r, t, spine, v, f);
      const p: PairValue = { kind: 0, t: v, tok: f };
      tupleValues.set(at, p);
      return p;
    };
    const cmps = [...this.spec.steps[L]!.residual, ...(storeStep?.residual ?? [])]
      .map((c) => ({ op: c.op, a: value(c.a), b: 'value' in c.b ? null : value(c.b), value: 'value' in c.b ? c.b.value : 0 }));
    const groups = this.groupsOf(epoch);
    const current = term.prune !== undefined ? currentLabel(this.spec, value) : null;
    // In-place updates: the round's rows go out smallest label first (RoundGroups.sortByValue).
    if (current !== null && this.pruneStore?.hasIntKey === true) this.inPlaceAgg = term.prune!.agg;
    aggregateFusedPairs({
      m: t.m, keys, ok, index, store, storeKey: storeStep !== undefined ? value(storeStep.probe) : null, cmps,
      group: value(term.groups[0]!), aggs: term.aggs.map((a) => ({ fn: a.fn, arg: a.arg !== undefined ? value(a.arg) : null })), groups,
      prune: term.prune !== undefined && this.pruneStore !== null && this.pruneStore.hasIntKey ? { view: this.pruneStore.byKey(term.prune.column), agg: term.prune.agg, current } : null,
    });
    this.account(groups);
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    for (const s of this.spec.steps) {
      if (s.kind === 'static') { this.statics.set(s.input, { batches: [], bytes: 0, index: null }); this.stores.push(null); }
      else this.stores.push(storeOf(ctx, s.iterationId, s.variable, s.keys, s.types));
    }
    const prune = this.spec.terminal.kind === 'agg' ? this.spec.terminal.prune : undefined;
    if (prune !== undefined) this.pruneStore = storeOf(ctx, prune.iterationId, prune.variable, prune.keys, prune.types);
  }

  selectInput(): number {
    for (const [input, st] of this.statics) if (st.index === null) return input;
    return -1;
  }

  private get built(): boolean {
    return this.selectInput() < 0;
  }

  processBatch(input: number, batch: RecordBatch, epoch: number): void {
    if (batch.numRows === 0) return;
    if (input !== 0) {
      const st = this.statics.get(input)!;
      const bytes = batchBytes(batch);
      this.ctx.reserveMemory(bytes);
      st.bytes += bytes;
      st.batches.push(batch);
      return;
    }
    if (!this.built) { const b = batchBytes(batch); this.ctx.reserveMemory(b); this.pendingBytes += b; this.pending.push({ batch, epoch }); return; }
    this.probe(batch, epoch);
  }

  onInputEnd(input: number): void {
    const st = this.statics.get(input);
    if (st === undefined || st.index !== null) return;
    const step = this.spec.steps.find((s) => s.kind === 'static' && s.input === input) as Extract<PipelineStep, { kind: 'static' }>;
    const batches = st.batches;
    st.batches = [];
    st.index = staticIndexOf(batches, step.buildKey, () => new StaticIndex(concatBatches(batches) ?? emptyBatch(this.ctx.inputSchemas[input]!), step.buildKey));
    this.ctx.reserveMemory(st.index.bytes + batchBytes(st.index.batch));
    this.ctx.releaseMemory(st.bytes);
    st.bytes = 0;
    if (!this.built) return;
    const pending = this.pending;
    this.pending = [];
    this.ctx.releaseMemory(this.pendingBytes);
    this.pendingBytes = 0;
    for (const p of pending) this.probe(p.batch, p.epoch);
  }

  onEpochWatermarkIncremented(w: number): void {
    this.emitRounds(w);
  }

  finish(): void {
    this.emitRounds(Infinity);
  }

  close(): void {
    this.pending = [];
    this.rounds.clear();
    this.spare = [];
  }

  /** Runs one spine batch through the steps, a slice of rows per bounded step. */
  private probe(batch: RecordBatch, epoch: number): void {
    const n = batch.numRows;
    const slice = Math.max(256, this.ctx.batchSize >> 3);
    let at = 0;
    emitBounded(this.ctx, () => {
      const end = Math.min(n, at + slice);
      this.runSlice(batch, at, end, epoch);
      at = end;
      return at < n;
    });
  }

  private runSlice(batch: RecordBatch, from: number, to: number, epoch: number): void {
    const m0 = to - from;
    const base = new Int32Array(m0);
    for (let i = 0; i < m0; i++) base[i] = from + i;
    let t: Tuples = { idx: [base], m: m0 };
    const spine = batch.data.children;
    let fused = false;
    this.spec.steps.forEach((step, j) => {
      if (t.m === 0 || fused) return;
      const keys = new Int32Array(t.m);
      const ok = new Uint8Array(t.m);
      this.read(step.probe, t, spine, keys, ok);
      if (j === this.fusedAt && this.fusable()) { this.aggregatePairs(t, keys, ok, spine, epoch); fused = true; return; }
      t = step.kind === 'static' ? expandTuples(t, keys, ok, this.statics.get(step.input)!.index!) : lookupTuples(t, keys, ok, this.stores[j]!);
      for (const c of step.residual) if (t.m > 0) t = this.compare(t, c, spine);
    });
    if (t.m === 0 || fused) return;
    if (this.spec.terminal.kind === 'agg') this.aggregate(t, spine, epoch);
    else this.emitRows(t, spine, epoch);
  }

  /** Values (and validity) of an INTEGER column at each tuple. */
  private read(ref: Ref, t: Tuples, spine: readonly Data[], out: Int32Array, ok: Uint8Array): void {
    const idx = t.idx[ref.src]!;
    const m = t.m;
    if (ref.src > 0 && this.stores[ref.src - 1] !== null) {
      const c = this.stores[ref.src - 1]!.intColumn(ref.col);
      const v = c.values;
      const f = c.valid;
      for (let i = 0; i < m; i++) { const r = idx[i]!; out[i] = v[r]!; ok[i] = f[r]!; }
      return;
    }
    const d = ref.src === 0 ? spine[ref.col]! : this.staticOf(ref.src - 1).batch.data.children[ref.col]!;
    if (!(d.values instanceof Int32Array)) return; // an all-NULL column: ok stays 0
    const v = d.values;
    const bm = d.nullCount > 0 ? d.nullBitmap : null;
    if (bm === null || bm === undefined) {
      for (let i = 0; i < m; i++) { out[i] = v[idx[i]!]!; ok[i] = 1; }
      return;
    }
    const off = d.offset;
    for (let i = 0; i < m; i++) { const r = idx[i]!; out[i] = v[r]!; ok[i] = (bm[(off + r) >> 3]! >> ((off + r) & 7)) & 1; }
  }

  private staticOf(step: number): StaticIndex {
    const s = this.spec.steps[step]!;
    if (s.kind !== 'static') throw new Error('internal error: not a static step');
    return this.statics.get(s.input)!.index!;
  }

  /** Keeps the tuples where the comparison holds. */
  private compare(t: Tuples, c: Cmp, spine: readonly Data[]): Tuples {
    const m = t.m;
    const a = new Int32Array(m);
    const aok = new Uint8Array(m);
    this.read(c.a, t, spine, a, aok);
    let b: Int32Array | null = null;
    let bok: Uint8Array | null = null;
    const constant = 'value' in c.b ? c.b.value : 0;
    if (!('value' in c.b)) { b = new Int32Array(m); bok = new Uint8Array(m); this.read(c.b, t, spine, b, bok); }
    const keep = new Uint8Array(m);
    for (let i = 0; i < m; i++) {
      if (aok[i] === 0 || (bok !== null && bok[i] === 0)) continue;
      const x = a[i]!;
      const y = b !== null ? b[i]! : constant;
      let r: boolean;
      switch (c.op) {
        case 'eq': r = x === y; break;
        case 'ne': r = x !== y; break;
        case 'lt': r = x < y; break;
        case 'le': r = x <= y; break;
        case 'gt': r = x > y; break;
        default: r = x >= y; break;
      }
      if (r) keep[i] = 1;
    }
    let o = 0;
    const idx = t.idx;
    for (let i = 0; i < m; i++) {
      if (keep[i] === 0) continue;
      if (o !== i) for (let s = 0; s < idx.length; s++) idx[s]![o] = idx[s]![i]!;
      o++;
    }
    return { idx, m: o };
  }

  /** The chosen columns of the joined rows, emitted as batches of at most `batchSize` rows. */
  private emitRows(t: Tuples, spine: readonly Data[], epoch: number): void {
    const term = this.spec.terminal as Extract<PipelineTerminal, { kind: 'rows' }>;
    const size = Math.max(1, this.ctx.batchSize);
    for (let s0 = 0; s0 < t.m; s0 += size) {
      const n = Math.min(size, t.m - s0);
      const cols = term.out.map((ref) => {
        const sel = t.idx[ref.src]!.subarray(s0, s0 + n);
        if (ref.src > 0 && this.stores[ref.src - 1] !== null) {
          const c = this.stores[ref.src - 1]!.intColumn(ref.col);
          const v = new Int32Array(n);
          const f = new Uint8Array((n + 7) >> 3);
          let nulls = 0;
          for (let i = 0; i < n; i++) { const r = sel[i]!; v[i] = c.values[r]!; if (c.valid[r] === 1) f[i >> 3]! |= 1 << (i & 7); else nulls++; }
          return makeColumn('INTEGER', v, nulls > 0 ? f : null, n);
        }
        const d = ref.src === 0 ? spine[ref.col]! : this.staticOf(ref.src - 1).batch.data.children[ref.col]!;
        return takeData(d, sel, n, false);
      });
      this.ctx.emit(batchFromColumns(this.ctx.outputSchema, cols, n), epoch);
    }
  }

  private groupsOf(epoch: number): RoundGroups {
    let g = this.rounds.get(epoch);
    if (g === undefined) {
      const term = this.spec.terminal as Extract<PipelineTerminal, { kind: 'agg' }>;
      g = this.spare.pop();
      if (g === undefined) {
        // One key read from a static side's INTEGER column of known range: direct-mapped groups.
        const ref = term.groups[0]!;
        const range = term.groups.length === 1 && ref.src > 0 && this.stores[ref.src - 1] === null ? this.staticOf(ref.src - 1).ranges[ref.col] : undefined;
        const width = range !== undefined && range[1] - range[0] < 1 << 24 ? range[1] - range[0] + 1 : 0;
        g = new RoundGroups(term.groups.length, term.aggs.map((x) => x.fn), range?.[0] ?? 0, width);
      }
      this.rounds.set(epoch, g);
    }
    return g;
  }

  /** Adds the tuples to their round's groups. */
  private aggregate(t: Tuples, spine: readonly Data[], epoch: number): void {
    const term = this.spec.terminal as Extract<PipelineTerminal, { kind: 'agg' }>;
    const g = this.groupsOf(epoch);
    const m = t.m;
    const G = term.groups.length;
    const W = G + 1;
    const words = new Int32Array(m * W);
    const v = new Int32Array(m);
    const ok = new Uint8Array(m);
    for (let k = 0; k < G; k++) {
      this.read(term.groups[k]!, t, spine, v, ok);
      for (let i = 0; i < m; i++) {
        words[i * W + k] = ok[i] === 1 ? v[i]! : 0;
        if (ok[i] === 0) words[i * W + G]! |= 1 << k;
      }
    }
    const gids = new Int32Array(m);
    for (let i = 0; i < m; i++) gids[i] = g.gidW(words, i * W);
    term.aggs.forEach((agg, a) => {
      const counts = g.counts[a]!;
      if (agg.fn === 'count_star') { for (let i = 0; i < m; i++) counts[gids[i]!]!++; return; }
      this.read(agg.arg!, t, spine, v, ok);
      if (agg.fn === 'count') { for (let i = 0; i < m; i++) if (ok[i] === 1) counts[gids[i]!]!++; return; }
      const vals = g.vals[a]!;
      const has = g.has[a]!;
      const min = agg.fn === 'min';
      for (let i = 0; i < m; i++) {
        if (ok[i] === 0) continue;
        const id = gids[i]!;
        const x = v[i]!;
        if (has[id] === 0) { has[id] = 1; vals[id] = x; } else if (min ? x < vals[id]! : x > vals[id]!) vals[id] = x;
      }
    });
    this.account(g);
  }

  private account(g: RoundGroups): void {
    let bytes = 0;
    for (const r of this.rounds.values()) bytes += r.bytes;
    for (const r of this.spare) bytes += r.bytes;
    if (bytes > this.groupsBytes) this.ctx.reserveMemory(bytes - this.groupsBytes);
    this.groupsBytes = Math.max(bytes, this.groupsBytes);
    void g;
  }

  /** Emits (and recycles) the groups of every round ≤ w. */
  private emitRounds(w: number): void {
    if (this.spec.terminal.kind !== 'agg') return;
    const term = this.spec.terminal;
    for (const [epoch, g] of [...this.rounds].sort((x, y) => x[0] - y[0])) {
      if (epoch > w) continue;
      this.rounds.delete(epoch);
      if (this.inPlaceAgg >= 0) g.sortByValue(this.inPlaceAgg);
      const total = g.size;
      const size = Math.max(1, this.ctx.batchSize);
      let at = 0;
      const done = (): false => { g.reset(); this.spare.push(g); return false; };
      emitBounded(this.ctx, () => {
        const n = Math.min(size, total - at);
        if (n <= 0) return done();
        const cols = g.columns(at, n);
        this.ctx.emit(batchFromColumns(this.ctx.outputSchema, cols, n), epoch);
        at += n;
        return at >= total ? done() : true;
      });
    }
  }
}

