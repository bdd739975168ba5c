/**
 * One round's groups of a fused body pipeline's GROUP BY (pipeline.ts):
 * INTEGER key tuples → dense group ids in first-seen order, with the state
 * of min / max / count per group.
 *
 * Decision: a single key whose values are known to lie in a small range (a
 * column of a static join side: static-index.ts keeps each column's range)
 * is direct-mapped — its group id is `key − min` itself, so a lookup is one
 * flag read and the state arrays are indexed by key, as in a hand-written
 * label-propagation loop (a new group's min / max starts at INTEGER's
 * extreme, so the pair loop's update reads one value); other keys (and NULL keys: the last word of a key
 * tuple is its NULL mask) go through an int-tuple hash and get ids after the
 * direct range. `order` lists the ids in first-seen order (the output
 * order). The object is reused round after round: `reset` clears only what
 * the last round touched.
 */
import type { Data } from 'apache-arrow';
import { makeColumn } from '../../exec/kernels/column.js';
import { IntTupleTable } from './int-tuple-table.js';
import { intSortKey, sortIdsByKey } from './int-order.js';

export type GroupAggFn = 'min' | 'max' | 'count' | 'count_star';

export class RoundGroups {
  /** Groups so far this round. */
  size = 0;
  /** Group ids in first-seen order (`size` of them). */
  order: Int32Array = new Int32Array(0);
  /** Key values by group (one array per key column) and the NULL mask of each group's key. */
  keys: Int32Array[];
  masks: Int32Array = new Int32Array(0);
  /** min/max values (and whether a value was seen), counts: per aggregate, by group. */
  vals: Int32Array[];
  has: Uint8Array[];
  counts: Float64Array[];
  private cap = 0;
  private readonly table: IntTupleTable;
  /** Table tuple id → group id. */
  private tableGid = new Int32Array(64);
  /** Direct-mapped single key: 1 at key − directMin once that group exists this round. */
  private readonly direct: Uint8Array | null;
  /** Ids below this are direct-mapped keys; table groups get ids from here on. */
  private readonly directIds: number;
  private tableSize = 0;

  constructor(readonly nKeys: number, readonly fns: readonly GroupAggFn[], private readonly directMin: number, directRange: number) {
    this.table = new IntTupleTable(nKeys + 1);
    this.direct = nKeys === 1 && directRange > 0 ? new Uint8Array(directRange) : null;
    this.directIds = this.direct?.length ?? 0;
    this.keys = Array.from({ length: nKeys }, () => new Int32Array(0));
    this.vals = fns.map(() => new Int32Array(0));
    this.has = fns.map(() => new Uint8Array(0));
    this.counts = fns.map(() => new Float64Array(0));
    if (this.directIds > 0) this.grow(this.directIds);
  }

  /** The direct-mapped flags (1 at key − directMin once the group exists) and their base, or null. */
  get directFlags(): Uint8Array | null {
    return this.direct;
  }

  get directBase(): number {
    return this.directMin;
  }

  /** Makes the direct group of slot s (key s + directMin); the caller checked it is new. State arrays never grow for it. */
  touch(s: number): void {
    this.direct![s] = 1;
    this.newGroup(s);
    this.keys[0]![s] = s + this.directMin;
    this.masks[s] = 0;
  }

  /** Forgets the round's groups (keeps capacity). */
  reset(): void {
    const d = this.direct;
    if (d !== null) for (let i = 0; i < this.size; i++) { const g = this.order[i]!; if (g < this.directIds) d[g] = 0; }
    this.table.clear();
    this.size = 0;
    this.tableSize = 0;
  }

  /** The group of a one-column key (mask 1 = NULL), made when new. */
  gid1(k: number, mask: number): number {
    const d = this.direct;
    if (d !== null && mask === 0) {
      const s = k - this.directMin;
      if (s >= 0 && s < d.length) {
        if (d[s] === 1) return s;
        d[s] = 1;
        this.newGroup(s);
        this.keys[0]![s] = k;
        this.masks[s] = 0;
        return s;
      }
    }
    const before = this.table.size;
    const t = this.table.add2(k, mask);
    if (t < before) return this.tableGid[t]!;
    const g = this.newGroup(this.directIds + this.tableSize++);
    this.mapTable(t, g);
    this.keys[0]![g] = k;
    this.masks[g] = mask;
    return g;
  }

  /** The group of the key tuple words[at .. at + nKeys] (the last word the NULL mask), made when new. */
  gidW(words: Int32Array, at: number): number {
    if (this.nKeys === 1) return this.gid1(words[at]!, words[at + 1]!);
    const before = this.table.size;
    const t = this.table.add(words, at);
    if (t < before) return this.tableGid[t]!;
    const g = this.newGroup(this.directIds + this.tableSize++);
    this.mapTable(t, g);
    for (let k = 0; k < this.nKeys; k++) this.keys[k]![g] = words[at + k]!;
    this.masks[g] = words[at + this.nKeys]!;
    return g;
  }

  private mapTable(t: number, g: number): void {
    if (t >= this.tableGid.length) { const x = new Int32Array(2 * (t + 1)); x.set(this.tableGid); this.tableGid = x; }
    this.tableGid[t] = g;
  }

  private newGroup(g: number): number {
    if (g >= this.cap) this.grow(g + 1);
    if (this.size >= this.order.length) { const o = new Int32Array(Math.max(1024, 2 * this.order.length)); o.set(this.order); this.order = o; }
    this.order[this.size++] = g;
    // min / max start at INTEGER's extreme (the fused pair loop compares without reading `has` first).
    for (let a = 0; a < this.fns.length; a++) { this.has[a]![g] = 0; this.counts[a]![g] = 0; this.vals[a]![g] = this.fns[a] === 'max' ? -0x80000000 : 0x7fffffff; }
    return g;
  }

  private grow(need: number): void {
    const cap = Math.max(need, 2 * this.cap, 1024);
    const old = this.cap;
    const i32 = (x: Int32Array): Int32Array => { const y = new Int32Array(cap); y.set(x.subarray(0, old)); return y; };
    this.keys = this.keys.map(i32);
    this.masks = i32(this.masks);
    this.vals = this.vals.map(i32);
    this.has = this.has.map((x) => { const y = new Uint8Array(cap); y.set(x.subarray(0, old)); return y; });
    this.counts = this.counts.map((x) => { const y = new Float64Array(cap); y.set(x.subarray(0, old)); return y; });
    this.cap = cap;
  }

  /**
   * Orders the round's groups by the value of min / max aggregate `a`, smallest first (a group without a value as
   * INTEGER's largest; a radix sort of `order`, int-order.ts). The in-place label updates emit a
   * round in this order (pipeline.ts), so the next round spreads its smallest labels first and later, larger ones
   * are pruned against them (fewer lowered labels and working rows: the order of a label-propagation frontier).
   */
  sortByValue(a: number): void {
    const n = this.size;
    if (n < 2) return;
    const vals = this.vals[a]!;
    const has = this.has[a]!;
    if (this.sortKeys.length < this.cap) this.sortKeys = new Uint32Array(this.cap);
    const keys = this.sortKeys;
    for (let i = 0; i < n; i++) { const g = this.order[i]!; keys[g] = intSortKey(vals[g]!, has[g] === 1); }
    sortIdsByKey(this.order, n, keys);
  }

  private sortKeys = new Uint32Array(0);

  /** Output columns of groups `order[at .. at + n)`: the keys (INTEGER), then per aggregate min/max (INTEGER) or count (BIGINT). */
  columns(at: number, n: number): Data[] {
    const ids = this.order.subarray(at, at + n);
    const cols: Data[] = this.keys.map((keys, k) => {
      const vals = new Int32Array(n);
      let nulls = 0;
      const f = new Uint8Array((n + 7) >> 3);
      for (let i = 0; i < n; i++) { const id = ids[i]!; vals[i] = keys[id]!; if ((this.masks[id]! & (1 << k)) === 0) f[i >> 3]! |= 1 << (i & 7); else nulls++; }
      return makeColumn('INTEGER', vals, nulls > 0 ? f : null, n);
    });
    this.fns.forEach((fn, a) => {
      if (fn === 'count' || fn === 'count_star') {
        const c = new BigInt64Array(n);
        for (let i = 0; i < n; i++) c[i] = BigInt(this.counts[a]![ids[i]!]!);
        cols.push(makeColumn('BIGINT', c, null, n));
        return;
      }
      const f = new Uint8Array((n + 7) >> 3);
      const vals = new Int32Array(n);
      let nulls = 0;
      for (let i = 0; i < n; i++) { const id = ids[i]!; vals[i] = this.vals[a]![id]!; if (this.has[a]![id] === 1) f[i >> 3]! |= 1 << (i & 7); else nulls++; }
      cols.push(makeColumn('INTEGER', vals, nulls > 0 ? f : null, n));
    });
    return cols;
  }

  /** Bytes held (memory accounting). */
  get bytes(): number {
    return this.cap * (4 * (this.nKeys + 1) + 13 * this.fns.length) + this.order.byteLength + (this.direct?.byteLength ?? 0);
  }
}
