/**
 * Window partitions, peer groups and frames over rows already sorted by
 * (partition keys, order keys). Positions are row numbers of the sorted
 * buffer. A partition is [start, end); a row's peers are the rows of its
 * partition with equal order keys (NULLs equal); a frame is [fs, fe), empty
 * when fs >= fe.
 *
 * ROWS frames count rows. RANGE frames compare the one order key's value:
 * `n PRECEDING` reaches back to rows whose key is within n (in the order's
 * direction), CURRENT ROW means the row's peers. A row whose key is NULL
 * frames its NULL peers for an offset bound (DuckDB); RANGE offsets over the
 * non-NULL rows find their ends by binary search, so frames cost O(n log n).
 */
import type { Data } from 'apache-arrow';
import type { SortKey } from '../../relnode/rel.js';
import type { FrameBound, WindowFrame } from '../../relnode/window.js';
import { normalizeKey, type NormalizedKey } from './sort-keys.js';

/** Marks row i when it starts a new group of equal keys (row 0 always does); `into` already marked rows stay marked. */
export function markKeyChanges(cols: readonly Data[], n: number, into: Uint8Array = new Uint8Array(n)): Uint8Array {
  if (n > 0) into[0] = 1;
  for (const d of cols) {
    const k = normalizeKey(d);
    const v = k.values;
    const nulls = k.nulls;
    for (let i = 1; i < n; i++) {
      if (into[i]) continue;
      if (nulls !== null && (nulls[i] | nulls[i - 1]!)) { if (nulls[i] !== nulls[i - 1]) into[i] = 1; continue; }
      const a = v[i]!; const b = v[i - 1]!;
      if (a !== b && !(a !== a && b !== b)) into[i] = 1; // NaN equals NaN
    }
  }
  return into;
}

/** Peer-group bounds of every row, by absolute position: its peers are [start[i], end[i]). */
export interface Peers {
  readonly start: Int32Array;
  readonly end: Int32Array;
  /** 0-based peer-group ordinal of each row within its partition (dense_rank − 1). */
  readonly group: Int32Array;
}

/** Room for the peers of n rows. */
export function allocPeers(n: number): Peers {
  return { start: new Int32Array(n), end: new Int32Array(n), group: new Int32Array(n) };
}

/** Fills the peers of partition [ps, pe) from the order-key change marks. */
export function peersOf(orderStarts: Uint8Array, ps: number, pe: number, into: Peers): void {
  const { start, end, group } = into;
  let g = -1;
  let s = ps;
  for (let i = ps; i < pe; i++) {
    if (i === ps || orderStarts[i]) { s = i; g++; }
    start[i] = s;
    group[i] = g;
  }
  let e = pe;
  for (let i = pe - 1; i >= ps; i--) {
    end[i] = e;
    if (i === ps || orderStarts[i]) e = i;
  }
}

/** The one RANGE order key as numbers, with its NULL mask and direction. */
export interface RangeKey {
  readonly values: ArrayLike<number>;
  readonly nulls: Uint8Array | null;
  readonly desc: boolean;
}

/** The RANGE key of sorted column `d` (BIGINT read as doubles). */
export function rangeKey(d: Data, key: SortKey): RangeKey {
  const k: NormalizedKey = normalizeKey(d);
  const v = k.values;
  const values = v instanceof BigInt64Array ? Float64Array.from(v, Number) : v;
  return { values, nulls: k.nulls, desc: key.desc };
}

/** First position p in [lo, hi) where `before(p)` is false (`before` holds on a prefix). */
function lowerBound(lo: number, hi: number, before: (p: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/** Frame bounds [start[i], end[i]) of every row, by absolute position. */
export interface Frames {
  readonly start: Int32Array;
  readonly end: Int32Array;
}

/** Room for the frames of n rows. */
export function allocFrames(n: number): Frames {
  return { start: new Int32Array(n), end: new Int32Array(n) };
}

/** Fills the frames of partition [ps, pe) for one frame clause. `key` is needed only for RANGE frames with offsets. */
export function framesOf(frame: WindowFrame, ps: number, pe: number, peers: Peers, key: RangeKey | undefined, into: Frames): void {
  const { start, end } = into;
  // The non-NULL run of a RANGE key inside the partition (NULLs sort together at one end).
  let vs = ps;
  let ve = pe;
  if (key?.nulls) {
    const nl = key.nulls;
    while (vs < pe && nl[vs]) vs++;
    ve = vs;
    while (ve < pe && !nl[ve]) ve++;
  }
  const bound = (b: FrameBound, i: number, isEnd: boolean): number => {
    switch (b.kind) {
      case 'unboundedPreceding': return ps;
      case 'unboundedFollowing': return pe;
      case 'currentRow':
        if (frame.mode === 'rows') return isEnd ? i + 1 : i;
        return isEnd ? peers.end[i]! : peers.start[i]!;
      case 'preceding': case 'following': {
        if (frame.mode === 'rows') {
          const off = b.kind === 'preceding' ? -b.offset : b.offset;
          const p = i + off + (isEnd ? 1 : 0);
          return p < ps ? ps : p > pe ? pe : p;
        }
        const k = key!;
        if (k.nulls !== null && k.nulls[i]) return isEnd ? peers.end[i]! : peers.start[i]!;
        const vals = k.values;
        // In the order's direction: PRECEDING moves towards earlier rows.
        const ascOff = (b.kind === 'preceding') !== k.desc ? -b.offset : b.offset;
        const t = vals[i]! + ascOff;
        if (!k.desc) return isEnd ? lowerBound(vs, ve, (p) => vals[p]! <= t) : lowerBound(vs, ve, (p) => vals[p]! < t);
        return isEnd ? lowerBound(vs, ve, (p) => vals[p]! >= t) : lowerBound(vs, ve, (p) => vals[p]! > t);
      }
    }
  };
  for (let i = ps; i < pe; i++) {
    start[i] = bound(frame.start, i, false);
    end[i] = bound(frame.end, i, true);
  }
}
