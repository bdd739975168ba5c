/**
 * approx_count_distinct: a HyperLogLog estimate per group in bounded memory
 * (hyperloglog.ts: 2^11 one-byte registers, ~2.3% standard error).
 *
 * A group starts sparse: an open-addressed set of the 32-bit hashes of its
 * values, exact (up to hash collisions) while it holds at most 256 of them.
 * The 257th distinct hash turns it into the dense 2 KiB register array, so a
 * group never takes more than ~2 KiB however many values it sees, and the many
 * small groups of a high-cardinality GROUP BY stay small. Values are hashed a
 * batch at a time straight from the Arrow buffers (no per-row JS values);
 * sparse and dense states merge, so it runs at parallelism > 1. The estimate
 * is deterministic (fixed hash functions), not DuckDB's exact figure: both are
 * estimates and differ by a few percent on large inputs.
 */
import * as arrow from 'apache-arrow';
import { makeData, type Data } from 'apache-arrow';
import { toArrowType } from '../../relnode/types.js';
import { hash32, hashBytes, hashNumber, hllAdd, hllEstimate, HLL_M } from '../kernels/hyperloglog.js';
import { dictionaryEntries } from '../kernels/utf8.js';
import { readValue } from '../kernels/value-at.js';
import { int64FromDoubles, isNullAt, type AggState } from './agg-arrays.js';

/** Distinct hashes a group keeps exactly before it switches to registers. */
const SPARSE_MAX = 256;

/** One group: a sparse hash set (0 = empty slot) with its size, or dense registers. */
interface Group {
  set: Uint32Array | null;
  size: number;
  registers: Uint8Array | null;
}

/** approx_count_distinct(x): NULLs are skipped; no values gives 0. */
export class ApproxDistinctState implements AggState {
  private groups: (Group | undefined)[] = [];
  private hashes = new Uint32Array(0);

  resize(groups: number): void {
    if (this.groups.length < groups) this.groups.length = groups;
  }

  add(args: readonly Data[], gids: Int32Array, n: number): void {
    const d = args[0]!;
    if (d.typeId === arrow.Type.Null) return;
    if (this.hashes.length < n) this.hashes = new Uint32Array(Math.max(n, 1024));
    const h = this.hashes;
    hashColumn(d, n, h);
    const masked = d.nullCount > 0;
    for (let i = 0; i < n; i++) {
      if (masked && isNullAt(d, i)) continue;
      this.offer(gids[i]!, h[i]!);
    }
  }

  merge(other: AggState, map: Int32Array): void {
    const o = (other as ApproxDistinctState).groups;
    for (let j = 0; j < map.length; j++) {
      const src = o[j];
      if (src === undefined) continue;
      const g = map[j]!;
      if (src.registers !== null) {
        const dst = this.denseGroup(g);
        for (let r = 0; r < HLL_M; r++) if (src.registers[r]! > dst[r]!) dst[r] = src.registers[r]!;
      } else {
        for (const x of src.set!) if (x !== 0) this.offer(g, x);
      }
    }
  }

  value(start: number, end: number): Data {
    const len = end - start;
    const out = new Float64Array(len);
    for (let g = start; g < end; g++) {
      const grp = this.groups[g];
      out[g - start] = grp === undefined ? 0 : grp.registers !== null ? Math.round(hllEstimate(grp.registers)) : grp.size;
    }
    return makeData({ type: toArrowType('BIGINT') as never, length: len, nullCount: 0, data: int64FromDoubles(out, 0, len) as never });
  }

  private offer(g: number, hash: number): void {
    let grp = this.groups[g];
    if (grp === undefined) this.groups[g] = grp = { set: new Uint32Array(8), size: 0, registers: null };
    if (grp.registers !== null) { hllAdd(grp.registers, hash); return; }
    const x = hash === 0 ? 1 : hash;
    if (!insert(grp.set!, x)) return;
    grp.size++;
    if (grp.size * 2 > grp.set!.length) {
      if (grp.size > SPARSE_MAX) this.toDense(grp);
      else grp.set = rehash(grp.set!, grp.set!.length * 2);
    }
  }

  private denseGroup(g: number): Uint8Array {
    let grp = this.groups[g];
    if (grp === undefined) this.groups[g] = grp = { set: null, size: 0, registers: new Uint8Array(HLL_M) };
    if (grp.registers === null) this.toDense(grp);
    return grp.registers!;
  }

  private toDense(grp: Group): void {
    const regs = new Uint8Array(HLL_M);
    for (const x of grp.set!) if (x !== 0) hllAdd(regs, x);
    grp.registers = regs;
    grp.set = null;
  }
}

/** Inserts x (non-zero) into an open-addressed set; false when it was there. */
function insert(set: Uint32Array, x: number): boolean {
  const mask = set.length - 1;
  for (let i = Math.imul(x, 0x9e3779b1) >>> 0 & mask; ; i = (i + 1) & mask) {
    const cur = set[i]!;
    if (cur === x) return false;
    if (cur === 0) { set[i] = x; return true; }
  }
}

function rehash(set: Uint32Array, capacity: number): Uint32Array {
  const out = new Uint32Array(capacity);
  for (const x of set) if (x !== 0) insert(out, x);
  return out;
}

/** The 32-bit hashes of rows [0, n) of a column into `out` (NULL rows get arbitrary values). */
function hashColumn(d: Data, n: number, out: Uint32Array): void {
  const v = d.values as unknown;
  switch (d.typeId) {
    case arrow.Type.Utf8: {
      const bytes = v as Uint8Array, o = d.valueOffsets;
      for (let i = 0; i < n; i++) out[i] = hashBytes(bytes, o[i]!, o[i + 1]!);
      return;
    }
    case arrow.Type.Dictionary: {
      const e = dictionaryEntries(d.dictionary as arrow.Vector);
      const keys = v as Int32Array;
      for (let i = 0; i < n; i++) { const k = keys[i]!; out[i] = hashBytes(e.bytes, e.offsets[k]!, e.offsets[k + 1]!); }
      return;
    }
    case arrow.Type.Bool: {
      const bits = v as Uint8Array;
      for (let i = 0; i < n; i++) { const j = d.offset + i; out[i] = hash32(((bits[j >> 3]! >> (j & 7)) & 1) + 1); }
      return;
    }
    default:
  }
  if (v instanceof Float64Array || v instanceof Float32Array) {
    for (let i = 0; i < n; i++) out[i] = hashNumber(v[i]!);
  } else if (v instanceof BigInt64Array) {
    const w = new Int32Array(v.buffer, v.byteOffset, v.length * 2);
    for (let i = 0; i < n; i++) out[i] = hash32(w[2 * i]! ^ hash32(w[2 * i + 1]!));
  } else if (v instanceof Int32Array || v instanceof Int16Array || v instanceof Int8Array) {
    for (let i = 0; i < n; i++) out[i] = hash32(v[i]!);
  } else {
    // Anything else (not produced by eddy's own columns today): hash the value's text.
    for (let i = 0; i < n; i++) {
      const s = String(readValue(d, i));
      let h = 0x811c9dc5;
      for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193);
      out[i] = hash32(h);
    }
  }
}
