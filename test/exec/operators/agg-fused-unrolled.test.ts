/**
 * The unrolled generated loops of agg-fused-loops.ts (sumLoop, codedLoop, perCodeLoop: 8 or 4 rows
 * per iteration, each row's sums before its count(*), int32 state indexes) leave the state bit for
 * bit as a one-row-at-a-time step in the formulation they replaced (count first, then Knuth's
 * TwoSum per slot) — for 0 (counts only) to 7 summed slots (both unroll widths), row counts around the width,
 * runs of one group and random groups, with and without a selection, over values of huge and tiny
 * magnitude, subnormals, ±0, ±Infinity and NaN; codedLoop stops at each unresolved key and resumes.
 * The one-pass loop (one row per iteration, its sums before its count) likewise, through its filter.
 * And FusedAggregates over batches with NULLs (the masked Neumaier loop) gives the bits of the
 * unrolled no-NULL path over the same batches without their NULL rows.
 */
import { Float64, makeData, type Data } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { codedLoop, passLoop, perCodeLoop, rowsPerIteration, sumLoop } from '../../../src/exec/operators/agg-fused-loops.js';
import { FusedAggregates } from '../../../src/exec/operators/agg-fused.js';
import type { KeyRows } from '../../../src/exec/kernels/hash-byte-keys.js';
import type { AggCall } from '../../../src/relnode/rel.js';
import { HEAVY } from '../../helpers/heavy.js';

let seed = 17;
const rnd = (k: number): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 4) % k; };

/** One value: mostly ordinary of any magnitude; with `special`, also ±Infinity and NaN. */
function value(special: boolean): number {
  const p = rnd(100);
  if (p < 4) return p < 2 ? 0 : -0;
  if (p < 8) return (rnd(2) ? 1 : -1) * 5e-324 * (1 + rnd(1000)); // subnormal
  if (p < 12) return (rnd(2) ? 1 : -1) * 1e300 * (1 + rnd(100) / 7); // sums overflow to ±Infinity at times
  if (special && p < 14) return [Infinity, -Infinity, NaN][rnd(3)]!;
  return (rnd(2) ? 1 : -1) * (1 + rnd(1 << 20)) * 10 ** (rnd(40) - 20);
}

const columns = (U: number, n: number, special: boolean): Float64Array[] =>
  Array.from({ length: U }, () => Float64Array.from({ length: n }, () => value(special)));

/** The layout of T slots (stride 1 + 3T), every other slot summed when `gaps`. */
function layout(U: number, gaps: boolean): { S: number; offs: number[] } {
  const T = gaps ? 2 * U : U;
  return { S: 1 + 3 * T, offs: Array.from({ length: U }, (_, k) => 1 + 3 * (gaps ? 2 * k : k)) };
}

/**
 * The reference: positions j0 ≤ j < m one at a time, row `rows[j]` (or j) into group `groupOf(r)`,
 * count(*) first, then per slot the TwoSum step; stops at the first negative group.
 */
function reference(S: number, offs: number[], V: Float64Array[], st: Float64Array, rows: Int32Array | null, groupOf: (r: number, j: number) => number, j0: number, m: number): number {
  for (let j = j0; j < m; j++) {
    const r = rows === null ? j : rows[j]!;
    const g = groupOf(r, j);
    if (g < 0) return j;
    const b = S * g;
    st[b]++;
    for (let k = 0; k < offs.length; k++) {
      const x = V[k]![r]!;
      const s = st[b + offs[k]!]!;
      const t = s + x;
      const bp = t - s;
      st[b + offs[k]! + 1] += (s - (t - bp)) + (x - bp);
      st[b + offs[k]!] = t;
    }
  }
  return m;
}

/**
 * The states' bits, for an exact comparison (-0 included), every NaN as one: which operand's NaN
 * payload and sign an x86 add passes on depends on the register allocation, not on the formula.
 */
const bitsOf = (st: Float64Array): bigint[] => [...new BigUint64Array(st.buffer, st.byteOffset, st.length)].map((b, i) => (Number.isNaN(st[i]) ? -1n : b));

/** Group ids for n rows over G groups: random, or runs of one group. */
function groups(n: number, G: number, runs: boolean): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0, g = 0; i < n; i++) { if (!runs || rnd(20) === 0) g = rnd(G); out[i] = g; }
  return out;
}

/** A selection of about half of n rows, ascending. */
function selection(n: number): Int32Array {
  const rows: number[] = [];
  for (let r = 0; r < n; r++) if (rnd(2) === 0) rows.push(r);
  return Int32Array.from(rows);
}

// Summed-slot counts on both sides of the unroll switch (4 → 5: by 8 up to four, by 4 past them); all six under EDDY_HEAVY.
const CASES = (HEAVY ? [0, 1, 2, 4, 5, 7] : [0, 1, 4, 5]).flatMap((U) => [false, true].map((gaps) => ({ U, gaps })));
const SIZES = [0, 1, 7, 8, 9, 31, 33, 500];

describe('unrolled fused loops: the same state bits as one row at a time', () => {
  it('unrolls by 8 up to four summed slots, by 4 past them', () => {
    expect([1, 4, 5, 9].map(rowsPerIteration)).toEqual([8, 8, 4, 4]);
  });

  for (const { U, gaps } of CASES) {
    const { S, offs } = layout(U, gaps);
    const tag = `${U} summed slot(s)${gaps ? ' between unsummed ones' : ''}`;

    it(`sumLoop, ${tag}`, () => {
      for (const n of SIZES) for (const withSel of [false, true]) for (const special of [false, true]) for (const runs of [false, true]) {
        const V = columns(U, n, special);
        const sel = withSel ? selection(n) : null;
        const m = sel === null ? n : sel.length;
        const gids = groups(m, 5, runs);
        const got = new Float64Array(5 * S);
        const want = new Float64Array(5 * S);
        sumLoop(S, offs, withSel)(V, got, sel, gids, m);
        reference(S, offs, V, want, sel, (_, j) => gids[j]!, 0, m);
        expect(bitsOf(got)).toEqual(bitsOf(want));
      }
    });

    it(`perCodeLoop, ${tag}`, () => {
      for (const n of SIZES) for (const withSel of [false, true]) for (const special of [false, true]) {
        const V = columns(U, n, special);
        const codes = groups(n, 7, rnd(2) === 0);
        const sel = withSel ? selection(n) : null;
        const m = sel === null ? n : sel.length;
        const got = new Float64Array(7 * S).fill(0.5); // states carried over from earlier batches
        const want = got.slice();
        const j0 = m > 3 ? 2 : 0;
        expect(perCodeLoop(S, offs, withSel)(V, got, sel, codes, 0, null, 0, new Int32Array(7), j0, m)).toBe(m);
        reference(S, offs, V, want, sel, (r) => codes[r]!, j0, m);
        expect(bitsOf(got)).toEqual(bitsOf(want));
      }
    });

    for (const shape of ['code', 'byte', 'pair', 'codes', 'int'] as const) {
      it(`codedLoop '${shape}', ${tag}: stops at each unresolved key, resolves it and resumes`, () => {
        for (const n of [...SIZES, 2000]) for (const withSel of [false, true]) {
          const V = columns(U, n, true);
          const keys = keyRows(shape, n);
          const sel = withSel ? selection(n) : null;
          const m = sel === null ? n : sel.length;
          const loop = codedLoop(S, offs, withSel, shape);
          const got = new Float64Array(64 * S);
          const want = new Float64Array(64 * S);
          const wantMap = keys.map.slice();
          let gid = 0;
          for (let j = 0, w = 0; j <= m;) {
            j = loop(V, got, sel, keys.a, keys.ao, keys.b, keys.bo, keys.map, j, m);
            w = reference(S, offs, V, want, sel, (r) => wantMap[keys.keyAt(r)]!, w, m);
            expect(j).toBe(w);
            expect(bitsOf(got)).toEqual(bitsOf(want));
            if (j === m) break;
            const r = sel === null ? j : sel[j]!;
            keys.map[keys.keyAt(r)] = wantMap[keys.keyAt(r)] = gid++;
          }
          const distinct = new Set(Array.from({ length: m }, (_, j) => keys.keyAt(sel === null ? j : sel[j]!)));
          expect(gid).toBe(distinct.size); // the loop stopped once at each key's first row
        }
      });
    }
  }
});

describe('one-pass loop: the same state bits as the reference step', () => {
  // Leaves c0 (values) and c1 (the filter's column); slot k adds c0[i] * k0 + k (a computed argument).
  const head = 'const c0 = C[0];\nconst c1 = C[1];\nconst k0 = K[0];\n';
  const filter = 'if (!(c1[i] > 0.3)) continue;\n';
  for (const U of [1, 3, 5]) {
    const { S, offs } = layout(U, false);
    const xs = offs.map((_, k) => `(c0[i] * k0 + ${k})`);
    for (const shape of ['none', 'byte', 'pair'] as const) {
      it(`${U} slot(s), keys '${shape}': filtered rows skipped, unresolved keys resolved in first-seen order`, () => {
        for (const n of [...SIZES, 2000]) {
          const c0 = Float64Array.from({ length: n }, () => value(true));
          const c1 = Float64Array.from({ length: n }, () => rnd(10) / 10);
          const K = [1 + rnd(3) / 7];
          const keys = shape === 'none' ? null : keyRows(shape, n);
          const map = keys === null ? new Int32Array(1) : keys.map;
          const keyAt = (r: number): number => (keys === null ? 0 : keys.keyAt(r));
          const kept = Int32Array.from(Array.from({ length: n }, (_, r) => r).filter((r) => c1[r]! > 0.3));
          const V = offs.map((_, k) => Float64Array.from(c0, (x) => x * K[0]! + k));
          const loop = passLoop(head, filter, '', xs, S, offs, shape);
          const got = new Float64Array(64 * S);
          const want = new Float64Array(64 * S);
          const wantMap = map.slice();
          let gid = shape === 'none' ? 1 : 0;
          for (let i = 0, w = 0; ;) {
            i = loop([c0, c1], K, got, keys?.a ?? new Int32Array(0), keys?.ao ?? 0, keys?.b ?? null, keys?.bo ?? 0, map, i, n, () => { throw new Error('no overflow here'); });
            w = reference(S, offs, V, want, kept, (r) => wantMap[keyAt(r)]!, w, kept.length);
            expect(i).toBe(w === kept.length ? n : kept[w]);
            expect(bitsOf(got)).toEqual(bitsOf(want));
            if (i === n) break;
            map[keyAt(i)] = wantMap[keyAt(i)] = gid++;
            // The pass resumes at row i; the reference at position w (row kept[w] === i).
          }
          expect(gid).toBe(shape === 'none' ? 1 : new Set(Array.from(kept, keyAt)).size);
        }
      });
    }
  }
});

/** Keys of shape `shape` for n rows (at most 64 distinct), every one unresolved (-1), and the key of row r. */
function keyRows(shape: KeyRows['shape'], n: number): KeyRows & { keyAt: (r: number) => number } {
  // 'int': values 1000 + k, read as map[a[r] - ao] with ao the table's lowest value (hash-int-keys.ts).
  const ao = shape === 'byte' || shape === 'pair' ? 3 : shape === 'int' ? 1000 : 0;
  const a = shape === 'code' || shape === 'codes' || shape === 'int' ? new Int32Array(n) : new Uint8Array(n + ao);
  const b = shape === 'pair' ? new Uint8Array(n + 5) : shape === 'codes' ? new Int32Array(n) : null;
  const bo = shape === 'pair' ? 5 : shape === 'codes' ? 4 : 0;
  for (let r = 0; r < n; r++) {
    a[(shape === 'byte' || shape === 'pair' ? ao : 0) + r] = shape === 'codes' ? rnd(16) : shape === 'int' ? 1000 + rnd(40) : 60 + rnd(shape === 'pair' ? 4 : 40);
    if (b !== null) b[(shape === 'pair' ? bo : 0) + r] = shape === 'codes' ? rnd(4) : 65 + rnd(8);
  }
  const keyAt = (r: number): number => {
    switch (shape) {
      case 'code': return a[r]!;
      case 'byte': return a[ao + r]!;
      case 'pair': return (a[ao + r]! << 8) | b![bo + r]!;
      case 'codes': return a[r]! * bo + b![r]!;
      case 'int': return a[r]! - ao;
    }
  };
  return { shape, a, ao, b, bo, map: new Int32Array(1 << 16).fill(-1), perm: null, keyAt };
}

describe('FusedAggregates: batches with NULLs (masked loop) and without (unrolled loop) agree', () => {
  const call = (fn: string, args: number[], type = 'DOUBLE'): AggCall => ({ fn, args, distinct: false, type, name: fn } as never);
  const CALLS = [call('sum', [0]), call('count', [0], 'BIGINT'), call('avg', [1]), call('sum', [2])];

  function column(v: Float64Array, valid: Uint8Array | null): Data {
    if (valid === null) return makeData({ type: new Float64(), length: v.length, nullCount: 0, data: v });
    const bm = new Uint8Array((v.length + 7) >> 3);
    let nulls = 0;
    valid.forEach((ok, i) => { if (ok) bm[i >> 3]! |= 1 << (i & 7); else nulls++; });
    return makeData({ type: new Float64(), length: v.length, nullCount: nulls, nullBitmap: bm, data: v });
  }

  it('sums, averages and counts bit for bit, over finite values of any magnitude and ±0', () => {
    const withNulls = new FusedAggregates(CALLS);
    const without = new FusedAggregates(CALLS);
    const G = 6;
    withNulls.resize(G);
    without.resize(G);
    for (let batch = 0; batch < 8; batch++) {
      const n = 300 + 41 * batch;
      const V = columns(3, n, false);
      const gids = groups(n, G, batch % 2 === 0);
      // A row is NULL in every argument or in none, so both sides see the same rows per slot.
      const valid = Uint8Array.from({ length: n }, () => (rnd(7) === 0 ? 0 : 1));
      withNulls.add(V.map((v) => column(v, valid)), gids, null, n);
      const keep = Int32Array.from(Array.from(valid).flatMap((ok, i) => (ok ? [i] : [])));
      without.add(V.map((v) => column(v, null)), Int32Array.from(keep, (r) => gids[r]!), keep, keep.length);
    }
    for (let k = 0; k < CALLS.length; k++) {
      const a = withNulls.value(k, 0, G);
      const b = without.value(k, 0, G);
      expect(bitsOf(new Float64Array(a.values.buffer, a.values.byteOffset, G))).toEqual(bitsOf(new Float64Array(b.values.buffer, b.values.byteOffset, G)));
    }
  });
});
