/**
 * The tuple steps of a fused body pipeline (pipeline.ts) where the pair loop
 * (pipeline-fused.ts) does not apply: joined rows as index vectors, one per
 * source (the spine batch, each step's build rows or key ids), expanded by a
 * static join and filtered by a keyed-table lookup.
 *
 * Decision: plain typed-array passes, one per step; a static side's rows are
 * sorted by key (static-index.ts), so an expansion writes consecutive row
 * numbers.
 */
import { makeColumn } from '../../exec/kernels/column.js';
import type { KeyedStore } from './keyed-store.js';
import type { StaticIndex } from './static-index.js';

/** Joined rows as index vectors, one per source so far. */
export interface Tuples { idx: Int32Array[]; m: number }

/** Inner join against a static side: each tuple once per matching build row. */
export function expandTuples(t: Tuples, keys: Int32Array, ok: Uint8Array, index: StaticIndex): Tuples {
  const m = t.m;
  const lo = new Int32Array(m);
  const hi = new Int32Array(m);
  let total = 0;
  for (let i = 0; i < m; i++) {
    if (ok[i] === 0) continue;
    const g = index.group(keys[i]!);
    if (g < 0) continue;
    const s = index.start[g]!;
    const e = index.start[g + 1]!;
    lo[i] = s; hi[i] = e;
    total += e - s;
  }
  const k = t.idx.length;
  const idx: Int32Array[] = [];
  for (let s = 0; s <= k; s++) idx.push(new Int32Array(total));
  const out = idx[k]!;
  let o = 0;
  if (k === 1) {
    const a = t.idx[0]!;
    const na = idx[0]!;
    for (let i = 0; i < m; i++) {
      const ai = a[i]!;
      for (let e = lo[i]!; e < hi[i]!; e++) { na[o] = ai; out[o++] = e; }
    }
  } else {
    for (let i = 0; i < m; i++) {
      for (let e = lo[i]!; e < hi[i]!; e++) {
        for (let s = 0; s < k; s++) idx[s]![o] = t.idx[s]![i]!;
        out[o++] = e;
      }
    }
  }
  return { idx, m: total };
}

/** Inner join against a keyed table on its key: tuples whose key has a row, with its key id. */
export function lookupTuples(t: Tuples, keys: Int32Array, ok: Uint8Array, store: KeyedStore): Tuples {
  const m = t.m;
  const valid = new Uint8Array((m + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < m; i++) { if (ok[i] === 1) valid[i >> 3]! |= 1 << (i & 7); else nulls++; }
  const gids = store.find([makeColumn('INTEGER', keys, nulls > 0 ? valid : null, m)], m, new Int32Array(m));
  const k = t.idx.length;
  const idx: Int32Array[] = t.idx.map((x) => x);
  idx.push(gids);
  let o = 0;
  for (let i = 0; i < m; i++) {
    if (gids[i]! < 0) continue;
    if (o !== i) for (let s = 0; s <= k; s++) idx[s]![o] = idx[s]![i]!;
    o++;
  }
  return { idx, m: o };
}
