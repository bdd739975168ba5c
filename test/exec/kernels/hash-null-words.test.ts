/**
 * NULL words (kernels/hash-null-words.ts): in a GROUP BY a NULL key column is its column's NULL word,
 * so keys with NULLs are hashed like the others. Every sequence must give the gids of a first-seen
 * Map over the keys' values (NULL equal to NULL, apart from every value: INT_MIN, INT64_MIN, NaN,
 * the empty string, 0), whatever the values stored under the NULLs, the batch cuts and selections;
 * a join's `find` never matches a NULL; key columns come out with their NULLs (and 0 under them).
 */
import { describe, expect, it } from 'vitest';
import { Bool, Dictionary, Float64, Int32, Int64, Null, Utf8, makeData, makeVector, type Data } from 'apache-arrow';
import { KeyTable } from '../../../src/exec/kernels/hash.js';
import { utf8FromStrings } from '../../../src/exec/batch.js';
import type { SqlType } from '../../../src/relnode/types.js';
import { valueAt } from '../helpers/fake-context.js';
import { rng } from '../../helpers/rng.js';

type V = number | bigint | string | boolean | null;

const INT_MIN = -2147483648;
const INT64_MIN = -(2n ** 63n);

function validity(vals: readonly V[]): { nullCount: number; nullBitmap: Uint8Array | undefined } {
  const bm = new Uint8Array((vals.length + 7) >> 3);
  let nulls = 0;
  vals.forEach((v, i) => { if (v === null) nulls++; else bm[i >> 3]! |= 1 << (i & 7); });
  return { nullCount: nulls, nullBitmap: nulls > 0 ? bm : undefined };
}

/**
 * A column of `type` whose NULL rows store `under` (a value some other row holds, or the NULL word
 * itself): a key table must read the validity, not the value, of a NULL row.
 */
function col(type: SqlType, vals: readonly V[], under: V = null, dict = false): Data {
  const n = vals.length;
  const { nullCount, nullBitmap } = validity(vals);
  const u = (v: V): V => (v === null ? under : v);
  switch (type) {
    case 'INTEGER': case 'DATE': return makeData({ type: new Int32(), length: n, nullCount, nullBitmap, data: Int32Array.from(vals, (v) => Number(u(v) ?? 0)) });
    case 'BIGINT': return makeData({ type: new Int64(), length: n, nullCount, nullBitmap, data: BigInt64Array.from(vals, (v) => BigInt(u(v) as bigint ?? 0n)) as never });
    case 'DOUBLE': return makeData({ type: new Float64(), length: n, nullCount, nullBitmap, data: Float64Array.from(vals, (v) => Number(u(v) ?? 0)) });
    case 'BOOLEAN': {
      const bits = new Uint8Array((n + 7) >> 3);
      vals.forEach((v, i) => { if (u(v) === true) bits[i >> 3]! |= 1 << (i & 7); });
      return makeData({ type: new Bool(), length: n, nullCount, nullBitmap, data: bits });
    }
    case 'NULL': return makeData({ type: new Null(), length: n, nullCount: n });
    case 'VARCHAR': {
      if (!dict) return utf8FromStrings(vals.map((v) => (v === null ? null : String(v))));
      // A dictionary with a NULL entry (code 0): of the NULLs, rows 0, 3, 6, ... are valid rows whose
      // entry is NULL, the others NULL rows whose code points at a real entry.
      const strs = [...new Set(vals.filter((v): v is string => v !== null))];
      const bm = new Uint8Array((n + 7) >> 3);
      let nulls = 0;
      const codes = Int32Array.from(vals, (v, i) => {
        if (v !== null || i % 3 === 0) bm[i >> 3]! |= 1 << (i & 7);
        else nulls++;
        return v !== null ? 1 + strs.indexOf(v as string) : i % 3 === 0 || strs.length === 0 ? 0 : 1;
      });
      return makeData({ type: new Dictionary(new Utf8(), new Int32()), length: n, nullCount: nulls, nullBitmap: nulls > 0 ? bm : undefined, data: codes, dictionary: makeVector(utf8FromStrings([null, ...strs])) });
    }
    default: throw new Error(type);
  }
}

/** A value's identity in GROUP BY: NULL apart from all values, NaN one value, -0 = 0. */
function keyOf(v: V): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isNaN(v) ? 'n:NaN' : `n:${v === 0 ? 0 : v}`;
  return `${typeof v}:${String(v)}`;
}

/** First-seen gids of rows of several columns. */
function reference(cols: readonly (readonly V[])[]): number[] {
  const m = new Map<string, number>();
  return cols[0]!.map((_, i) => {
    const k = cols.map((c) => keyOf(c[i]!)).join('|');
    let g = m.get(k);
    if (g === undefined) { g = m.size; m.set(k, g); }
    return g;
  });
}

/** groupIds of the rows cut into batches of `step`. */
function groupAll(t: KeyTable, types: readonly SqlType[], cols: readonly (readonly V[])[], step: number, under: V[] = [], dict: boolean[] = []): number[] {
  const out: number[] = [];
  const n = cols[0]!.length;
  for (let off = 0; off < n; off += step) {
    const part = cols.map((c, k) => col(types[k]!, c.slice(off, off + step), under[k] ?? null, dict[k] ?? false));
    out.push(...t.groupIds(part, part[0]!.length));
  }
  return out;
}

/** The table's keys as values, group by group (NULL as null). */
function keysOf(t: KeyTable): V[][] {
  const cols = t.keyColumns(0, t.size);
  return Array.from({ length: t.size }, (_, g) => cols.map((c) => valueAt(c, g) as V));
}

describe('NULL words', () => {
  it('one INTEGER key: NULL groups together, apart from INT_MIN and from the value stored under it', () => {
    const vals: V[] = [5, null, INT_MIN, 7, null, INT_MIN, 5, null, 0];
    for (const under of [5, INT_MIN, 0]) {
      for (const step of [1, 2, 9]) {
        const t = new KeyTable(['INTEGER']);
        expect(groupAll(t, ['INTEGER'], [vals], step, [under])).toEqual(reference([vals]));
        expect(keysOf(t)).toEqual([[5], [null], [INT_MIN], [7], [0]]);
      }
    }
  });

  it('INT_MIN and its neighbours grouped before the first NULL: the NULL word moves to a value no group holds', () => {
    const first: V[] = [INT_MIN, INT_MIN + 1, 3, INT_MIN + 3];
    const later: V[] = [null, INT_MIN + 2, INT_MIN, null, INT_MIN + 1, INT_MIN + 2, INT_MIN + 4, null];
    const t = new KeyTable(['INTEGER']);
    const all = [...first, ...later];
    expect([...t.groupIds([col('INTEGER', first)], 4), ...t.groupIds([col('INTEGER', later, INT_MIN + 2)], later.length)]).toEqual(reference([all]));
    expect(keysOf(t).map((k) => k[0])).toEqual([INT_MIN, INT_MIN + 1, 3, INT_MIN + 3, null, INT_MIN + 2, INT_MIN + 4]);
    // The output column holds 0 under its NULL, not the NULL word.
    const out = t.keyColumn(0, Int32Array.of(4, 0));
    expect(Array.from(out.values as Int32Array)).toEqual([0, INT_MIN]);
  });

  it('BIGINT: NULL apart from INT64_MIN and 0; then a join-style find never matches NULL', () => {
    const vals: V[] = [INT64_MIN, null, 0n, null, INT64_MIN, 1n << 40n, 0n];
    for (const under of [INT64_MIN, 0n]) {
      const t = new KeyTable(['BIGINT']);
      expect(groupAll(t, ['BIGINT'], [vals], 3, [under])).toEqual(reference([vals]));
      expect(keysOf(t).map((k) => k[0])).toEqual([INT64_MIN, null, 0n, 1n << 40n]);
      expect(Array.from(t.find([col('BIGINT', [null, INT64_MIN, 0n, 5n], under)], 4))).toEqual([-1, 0, 2, -1]);
    }
  });

  it('DOUBLE: NaN one group, -0 = 0, NULL apart; BOOLEAN: NULL apart from false', () => {
    const d: V[] = [NaN, null, -0, 0, 1.5, null, NaN, -1.5];
    const t = new KeyTable(['DOUBLE']);
    expect(groupAll(t, ['DOUBLE'], [d], 3, [NaN])).toEqual(reference([d]));
    expect(keysOf(t).map((k) => k[0])).toEqual([NaN, null, 0, 1.5, -1.5]);
    const b: V[] = [null, false, true, null, false];
    const u = new KeyTable(['BOOLEAN']);
    expect(groupAll(u, ['BOOLEAN'], [b], 2, [false])).toEqual(reference([b]));
    expect(keysOf(u).map((k) => k[0])).toEqual([null, false, true]);
  });

  it('VARCHAR: NULL apart from the empty string, plain and dictionary (NULL rows and NULL entries group together)', () => {
    const s: V[] = ['', null, 'a', null, '', 'bb', null, 'a', null, null];
    for (const dict of [false, true]) {
      const t = new KeyTable(['VARCHAR']);
      expect(groupAll(t, ['VARCHAR'], [s], 4, [''], [dict])).toEqual(reference([s]));
      expect(keysOf(t).map((k) => k[0])).toEqual(['', null, 'a', 'bb']);
      expect(Array.from(t.find([col('VARCHAR', [null, '', 'zz'], null, dict)], 3))).toEqual([-1, 0, -1]);
    }
  });

  it('one-byte VARCHAR flags with empty strings and NULLs in big batches (the empty entry of the one-byte table); find of an absent empty string', () => {
    const s: V[] = Array.from({ length: 700 }, (_, i) => [null, 'A', '', 'F', null, 'B', ''][(i * 5) % 7]!);
    const t = new KeyTable(['VARCHAR']);
    expect(groupAll(t, ['VARCHAR'], [s], 100)).toEqual(reference([s]));
    expect(keysOf(t).map((k) => k[0])).toEqual([null, 'B', 'F', 'A', '']);
    const j = new KeyTable(['VARCHAR']);
    expect(Array.from(j.insertKeys([col('VARCHAR', ['A', null])], 2))).toEqual([0, -1]);
    const probe: V[] = Array.from({ length: 80 }, (_, i) => ['A', '', null][i % 3]!);
    expect(Array.from(j.find([col('VARCHAR', probe)], 80))).toEqual(probe.map((v) => (v === 'A' ? 0 : -1)));
  });

  it('a NULL-typed key column beside an INTEGER one', () => {
    const a: V[] = [1, null, 1, INT_MIN, null];
    const z: V[] = [null, null, null, null, null];
    const t = new KeyTable(['INTEGER', 'NULL']);
    expect(groupAll(t, ['INTEGER', 'NULL'], [a, z], 2, [INT_MIN])).toEqual(reference([a, z]));
    expect(keysOf(t)).toEqual([[1, null], [null, null], [INT_MIN, null]]);
  });

  it('several key columns of every type, NULL in every position, INT_MIN values, selections: the gids of a first-seen Map', () => {
    const r = rng(7);
    const N = 6000;
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    const types: SqlType[] = ['INTEGER', 'VARCHAR', 'DOUBLE', 'BIGINT', 'BOOLEAN', 'DATE'];
    const pools: V[][] = [
      [null, INT_MIN, 0, 1, 2, -7],
      [null, '', 'x', 'yy', 'a longer string'],
      [null, NaN, -0, 0, 2.5],
      [null, INT64_MIN, 0n, 3n],
      [null, true, false],
      [null, 0, 19000, INT_MIN],
    ];
    for (const width of [1, 2, 3, 6]) {
      const ts = types.slice(0, width);
      const cols = ts.map((_, k) => Array.from({ length: N }, () => pick(pools[k]!)));
      const unders: V[] = [INT_MIN, 'x', NaN, INT64_MIN, true, 0];
      for (const dict of [false, true]) {
        const t = new KeyTable(ts);
        expect(groupAll(t, ts, cols, 1000, unders.slice(0, width), ts.map((x) => dict && x === 'VARCHAR'))).toEqual(reference(cols));
        const want = new Map<string, V[]>();
        for (let i = 0; i < N; i++) { const row = cols.map((c) => c[i]!); const k = row.map(keyOf).join('|'); if (!want.has(k)) want.set(k, row); }
        expect(keysOf(t).map((k) => k.map(keyOf).join('|'))).toEqual([...want.keys()]);
      }
      // With a selection (every third row, read in place).
      const t = new KeyTable(ts);
      const sel = Int32Array.from({ length: N / 3 }, (_, i) => 3 * i);
      const data = ts.map((x, k) => col(x, cols[k]!, unders[k]!));
      expect(Array.from(t.groupIds(data, sel.length, new Int32Array(sel.length), sel))).toEqual(reference(cols.map((c) => Array.from(sel, (i) => c[i]!))));
    }
  });

  it('many groups (> 64K, incremental grows) with NULLs in two INTEGER keys', () => {
    const N = 140_000;
    const a: V[] = Array.from({ length: N }, (_, i) => (i % 5 === 0 ? null : (i * 7919) % 90_001));
    const b: V[] = Array.from({ length: N }, (_, i) => (i % 7 === 0 ? null : i % 3));
    const t = new KeyTable(['INTEGER', 'INTEGER']);
    expect(groupAll(t, ['INTEGER', 'INTEGER'], [a, b], 8192, [3, 1])).toEqual(reference([a, b]));
    expect(t.size).toBeGreaterThan(65_536);
    const one = new KeyTable(['INTEGER']);
    expect(groupAll(one, ['INTEGER'], [a], 8192, [5])).toEqual(reference([a]));
  });
});
