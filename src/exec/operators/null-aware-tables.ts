/**
 * The build side of NOT IN's multi-key NULL-aware anti join (null-aware-anti-join.ts): hash tables
 * per NULL pattern, so a probe row is answered by a few lookups instead of a pass over every build row.
 *
 * NOT IN over k items keeps a probe row P iff its row comparison with every build row B is FALSE: some
 * item pair both non-NULL and different. An item whose condition tests `l IS NULL` (resp. `r IS NULL`)
 * is *wild* on that side (sets LW, RW): a NULL there makes the item TRUE. A NULL on a side that is not
 * wild makes the item unknown unless the other side's NULL is wild. With q = P's NULL items and m = B's,
 * B drops P iff they are *compatible* — (q ∖ LW) ⊆ (m ∩ RW) and (m ∖ RW) ⊆ (q ∩ LW) — and equal on
 * every item outside q ∪ m. So:
 * - (ALL, q) for q ⊆ LW: one table over all build rows keyed on the items outside q answers for every
 *   B with m ⊆ q (compatible, and q ∪ m = q); a build row with a NULL among the keys is not in it.
 *   For q = 0 it is the plain anti join's exact table.
 * - (m, q ∪ m) for each other compatible build pattern m: a table over the build rows of pattern m,
 *   keyed on the items outside q ∪ m. Build rows with NULLs (usually a few percent) are gathered per
 *   pattern at the build.
 * - no item left to key on: the source's rows all match (any row drops P), if it has any.
 * Tables are built the first time a probe pattern needs them (those of q = 0 at the build), each in
 * bounded steps, and only for patterns that occur: at most 2^k − 1 of each, so k is capped (a pattern
 * is one byte; planner/not-in-join.ts). With no NULL anywhere only the exact table exists and a probe
 * costs one lookup, as in the plain anti join.
 */
import { Type, type Data } from 'apache-arrow';
import type { SqlType } from '../../relnode/types.js';
import { takeData } from '../batch.js';
import { KeyTable, type KeyKind } from '../kernels/hash.js';
import { STEP_ROWS } from '../runtime/step-budget.js';

/** The most items a NULL pattern (one byte) holds. */
export const MAX_NULL_AWARE_KEYS = 8;

/** A table's source: all build rows (else a NULL pattern 1..255). */
const ALL = 256;

/** Estimated bytes a key table holds per row (group words, slots, ids): the memory account's order of magnitude. */
const TABLE_BYTES_PER_ROW = 24;

/** Any key column holds a NULL (or is a NULL-typed column). */
export function anyNull(cols: readonly Data[]): boolean {
  for (const c of cols) if (c.typeId === Type.Null || c.nullCount > 0) return true;
  return false;
}

/** Per row `i < n`, bit j set when key column j is NULL there. */
export function nullMasks(cols: readonly Data[], n: number, out: Uint8Array): void {
  out.fill(0, 0, n);
  for (let j = 0; j < cols.length; j++) {
    const c = cols[j]!;
    if (c.typeId !== Type.Null && c.nullCount === 0) continue;
    const bit = 1 << j;
    const bm = c.nullBitmap;
    if (c.typeId === Type.Null || bm === undefined || bm.length === 0) { for (let i = 0; i < n; i++) out[i] |= bit; continue; }
    const off = c.offset;
    for (let i = 0; i < n; i++) { const b = off + i; if (((bm[b >> 3]! >> (b & 7)) & 1) === 0) out[i] |= bit; }
  }
}

/** Where a built table stands: a key table, every row matches ('any'), or no row does ('none'). */
type Built = KeyTable | 'any' | 'none';

/** The build side's tables (see the header). */
export class NullAwareTables {
  /** NULL patterns of build rows other than 0, ascending. */
  readonly patterns: number[] = [];
  private readonly patternParts = new Map<number, Data[][]>();
  private readonly patternRows = new Map<number, number>();
  /** Key columns of every build row, per buffered batch. */
  private allParts: readonly (readonly Data[])[] = [];
  private allRows = 0;
  private readonly tables = new Map<number, Built>();
  /** Per probe pattern: the tables it looks up, in order (ALL first). */
  private readonly plans = new Map<number, number[]>();
  private gids = new Int32Array(0);

  constructor(
    private readonly types: readonly SqlType[],
    private readonly kinds: readonly KeyKind[],
    /** Items wild on the probe side (bit j: a NULL in the probe's item j makes the item TRUE). */
    private readonly leftWild: number,
    /** Items wild on the build side. */
    private readonly rightWild: number,
    private readonly reserve: (bytes: number) => void,
  ) {}

  /** Builds the exact table and one per build NULL pattern, in bounded steps. `parts`: each buffered batch's key columns. */
  *build(parts: readonly (readonly Data[])[], n: number): Generator<void, void, void> {
    const exact = new KeyTable(this.types, this.kinds);
    if (n > 0) yield* exact.buildSteps(parts, n, STEP_ROWS);
    if (n > 0 && exact.size > 0) this.tables.set(key(ALL, 0), exact);
    else { exact.release(); this.tables.set(key(ALL, 0), 'none'); }
    this.allParts = parts;
    this.allRows = n;
    if (!parts.some(anyNull)) return;
    const k = this.types.length;
    let masks = new Uint8Array(0);
    for (const cols of parts) {
      const len = cols[0]!.length;
      if (masks.length < len) masks = new Uint8Array(len);
      nullMasks(cols, len, masks);
      const byPattern = new Map<number, number[]>();
      for (let i = 0; i < len; i++) {
        const m = masks[i]!;
        if (m === 0) continue;
        let rows = byPattern.get(m);
        if (rows === undefined) byPattern.set(m, (rows = []));
        rows.push(i);
      }
      for (const [m, rows] of byPattern) {
        const sel = Int32Array.from(rows);
        const taken = Array.from({ length: k }, (_, j) => takeData(cols[j]!, sel, sel.length, false));
        this.reserve(4 * k * sel.length);
        const list = this.patternParts.get(m);
        if (list === undefined) { this.patternParts.set(m, [taken]); this.patterns.push(m); } else list.push(taken);
        this.patternRows.set(m, (this.patternRows.get(m) ?? 0) + sel.length);
      }
      yield;
    }
    this.patterns.sort((a, b) => a - b);
    // The tables a probe row without NULLs looks up.
    yield* this.ensure(this.missing([0]));
  }

  /** The tables the probe patterns `qs` need that are not built yet. */
  missing(qs: Iterable<number>): number[] {
    const out: number[] = [];
    for (const q of qs) for (const t of this.plan(q)) if (!this.tables.has(t) && !out.includes(t)) out.push(t);
    return out;
  }

  /** Builds the tables `keys` (from `missing`) in bounded steps. */
  *ensure(keys: readonly number[]): Generator<void, void, void> {
    for (const t of keys) {
      if (this.tables.has(t)) continue;
      const source = t >> 8;
      const e = t & 255;
      const cols = outside(e, this.types.length);
      const rows = source === ALL ? this.allRows : this.patternRows.get(source) ?? 0;
      if (rows === 0) { this.tables.set(t, 'none'); continue; }
      if (cols.length === 0) { this.tables.set(t, 'any'); continue; }
      const parts = (source === ALL ? this.allParts : this.patternParts.get(source)!).map((p) => cols.map((j) => p[j]!));
      const table = new KeyTable(cols.map((j) => this.types[j]!), cols.map((j) => this.kinds[j]!));
      this.reserve(TABLE_BYTES_PER_ROW * rows);
      yield* table.buildSteps(parts, rows, STEP_ROWS);
      this.tables.set(t, table);
    }
  }

  /**
   * Marks `matched[r] = 1` for the probe rows `rows[0..count)` (null: rows 0..count) of pattern `q`
   * that some build row may equal. `cols`: the probe batch's key columns. Every table `q` needs is built.
   */
  probe(cols: readonly Data[], q: number, rows: Int32Array | null, count: number, matched: Uint8Array): void {
    let sel = rows;
    let m = count;
    const plan = this.plan(q);
    for (let p = 0; p < plan.length && m > 0; p++) {
      const t = this.tables.get(plan[p]!)!;
      if (t === 'none') continue;
      if (t === 'any') { for (let i = 0; i < m; i++) matched[sel === null ? i : sel[i]!] = 1; return; }
      const keyCols = outside(plan[p]! & 255, cols.length).map((j) => (sel === null ? cols[j]! : takeData(cols[j]!, sel, m, false)));
      if (this.gids.length < m) this.gids = new Int32Array(Math.max(m, 2 * this.gids.length));
      const gids = t.find(keyCols, m, this.gids.subarray(0, m));
      if (p === plan.length - 1) {
        for (let i = 0; i < m; i++) if (gids[i]! >= 0) matched[sel === null ? i : sel[i]!] = 1;
        return;
      }
      // Rows still unmatched go on to the next table.
      const next = new Int32Array(m);
      let w = 0;
      for (let i = 0; i < m; i++) {
        const r = sel === null ? i : sel[i]!;
        if (gids[i]! >= 0) matched[r] = 1; else next[w++] = r;
      }
      sel = next;
      m = w;
    }
  }

  /** Gives the tables' pooled arrays back (the run is over). */
  release(): void {
    for (const t of this.tables.values()) if (t instanceof KeyTable) t.release();
    this.tables.clear();
    this.patternParts.clear();
    this.allParts = [];
  }

  /** The tables probe pattern `q` looks up: (ALL, q) when q ⊆ LW, then (m, q | m) for each other compatible build pattern m. */
  private plan(q: number): number[] {
    let p = this.plans.get(q);
    if (p === undefined) {
      const lw = this.leftWild;
      const rw = this.rightWild;
      const union = (q & ~lw) === 0;
      p = union ? [key(ALL, q)] : [];
      for (const m of this.patterns) {
        if (union && (m & ~q) === 0) continue; // in (ALL, q)
        if ((q & ~lw & ~(m & rw)) === 0 && (m & ~rw & ~(q & lw)) === 0) p.push(key(m, q | m));
      }
      this.plans.set(q, p);
    }
    return p;
  }
}

/** A table's id: its source (ALL or a build pattern) and the items it leaves out. */
function key(source: number, e: number): number {
  return (source << 8) | e;
}

/** The items 0..k-1 not in pattern `e`. */
function outside(e: number, k: number): number[] {
  const out: number[] = [];
  for (let j = 0; j < k; j++) if ((e & (1 << j)) === 0) out.push(j);
  return out;
}
