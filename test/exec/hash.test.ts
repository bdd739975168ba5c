import { describe, expect, it } from 'vitest';
import { KeyTable, joinKeyKind } from '../../src/exec/kernels/hash.js';
import { directRangeFits } from '../../src/exec/kernels/hash-direct.js';
import type { SqlType } from '../../src/relnode/types.js';
import type { LiteralValue } from '../../src/relnode/rex.js';
import { column, valueAt } from './helpers/fake-context.js';

function ids(t: KeyTable, types: SqlType[], cols: LiteralValue[][], how: 'group' | 'build' | 'find' = 'group', dict: number[] = []): number[] {
  const data = cols.map((c, i) => column(types[i]!, c, dict.includes(i) ? true : undefined));
  const n = cols[0]!.length;
  const out = how === 'group' ? t.groupIds(data, n) : how === 'build' ? t.insertKeys(data, n) : t.find(data, n);
  return Array.from(out);
}

function keys(t: KeyTable): LiteralValue[][] {
  const cols = t.keyColumns(0, t.size);
  return Array.from({ length: t.size }, (_, i) => cols.map((c) => valueAt(c, i)));
}

describe('KeyTable', () => {
  it('keyColumns(start, end) are the keys of groups start..end − 1, in gid order (a range not from 0)', () => {
    const t = new KeyTable(['INTEGER', 'VARCHAR']);
    expect(ids(t, ['INTEGER', 'VARCHAR'], [[5, 6, 5, 7, 8], ['a', 'b', 'a', 'c', 'd']])).toEqual([0, 1, 0, 2, 3]);
    const cols = t.keyColumns(1, 3);
    expect(cols.map((c) => [valueAt(c, 0), valueAt(c, 1)])).toEqual([[6, 7], ['b', 'c']]);
    expect(cols[0]!.length).toBe(2);
  });

  it('short VARCHAR keys (cached by packed bytes): empty, 1-3 bytes, multi-byte UTF-8 and longer strings stay distinct', () => {
    const t = new KeyTable(['VARCHAR', 'VARCHAR']);
    const a = ['', 'A', 'AB', 'ABC', 'ABCD', 'é', 'A', '', 'ABC', 'ABCD', 'B'];
    const b = ['x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x'];
    expect(ids(t, ['VARCHAR', 'VARCHAR'], [a, b])).toEqual([0, 1, 2, 3, 4, 5, 1, 0, 3, 4, 6]);
    expect(keys(t).map((k) => k[0])).toEqual(['', 'A', 'AB', 'ABC', 'ABCD', 'é', 'B']);
    // A later batch: one-byte strings come from the 256-entry table, a new one ('C') and a NULL still intern.
    expect(ids(t, ['VARCHAR', 'VARCHAR'], [['B', 'A', 'C', null, 'C', 'AB'], ['x', 'x', 'x', 'x', 'x', 'x']])).toEqual([6, 1, 7, 8, 7, 2]);
    // A join probe (lookup only) caches found strings, never absent ones: 'C' stays absent until inserted.
    const j = new KeyTable(['VARCHAR']);
    expect(ids(j, ['VARCHAR'], [['R', 'F']], 'build')).toEqual([0, 1]);
    expect(ids(j, ['VARCHAR'], [['C', 'R', 'F', 'C']], 'find')).toEqual([-1, 0, 1, -1]);
    expect(ids(j, ['VARCHAR'], [['C']], 'build')).toEqual([2]);
    expect(ids(j, ['VARCHAR'], [['C', 'R', 'x']], 'find')).toEqual([2, 0, -1]);
  });

  it('one-byte VARCHAR keys: small batches first (no one-byte table yet), then a batch of 64+ rows (the table is made) give the same ids', () => {
    const t = new KeyTable(['VARCHAR']);
    expect(ids(t, ['VARCHAR'], [['x', 'y', 'x', 'z']])).toEqual([0, 1, 0, 2]);
    const big = Array.from({ length: 100 }, (_, i) => ['z', 'x', 'q', 'y', 'ab'][i % 5]!);
    const want = big.map((v) => ({ x: 0, y: 1, z: 2, q: 3, ab: 4 })[v]!);
    expect(ids(t, ['VARCHAR'], [big])).toEqual(want);
    expect(ids(t, ['VARCHAR'], [big])).toEqual(want); // now through the one-byte table
    expect(ids(t, ['VARCHAR'], [['q', 'w', 'y']])).toEqual([3, 5, 1]);
    expect(keys(t).map((k) => k[0])).toEqual(['x', 'y', 'z', 'q', 'ab', 'w']);
    // A lookup-only table (join probe) never caches an absent one-byte string.
    const j = new KeyTable(['VARCHAR']);
    expect(ids(j, ['VARCHAR'], [['a', 'b']], 'build')).toEqual([0, 1]);
    expect(ids(j, ['VARCHAR'], [Array.from({ length: 70 }, (_, i) => ['b', 'c', 'a'][i % 3]!)], 'find')).toEqual(Array.from({ length: 70 }, (_, i) => [1, -1, 0][i % 3]!));
  });

  it('one INTEGER key: dense ids in first-seen order, NULLs grouped', () => {
    const t = new KeyTable(['INTEGER']);
    expect(ids(t, ['INTEGER'], [[5, 7, 5, null, -1, null, 7]])).toEqual([0, 1, 0, 2, 3, 2, 1]);
    expect(ids(t, ['INTEGER'], [[-1, 8]])).toEqual([3, 4]);
    expect(keys(t)).toEqual([[5], [7], [null], [-1], [8]]);
  });

  it('survives many growths (W = 1, 2, 3)', () => {
    for (const types of [['INTEGER'], ['INTEGER', 'INTEGER'], ['INTEGER', 'INTEGER', 'INTEGER']] as SqlType[][]) {
      const t = new KeyTable(types);
      const n = 50_000;
      const cols = types.map((_, c) => Array.from({ length: n }, (_, i) => (i % 20_000) * (c + 1) * 7919));
      const got = ids(t, types, cols);
      expect(t.size).toBe(20_000);
      for (let i = 0; i < n; i++) expect(got[i]).toBe(i % 20_000);
    }
  });

  it('grows from its small initial slots and interner one key at a time (VARCHAR, W = 1 and 2)', () => {
    // The slots start at 8 (W = 1) / 4 (W > 1) and the interner at 8 strings in a 64-byte arena
    // (on-heap sizes): every early key crosses a growth, across calls and inside one.
    for (const types of [['VARCHAR'], ['VARCHAR', 'INTEGER']] as SqlType[][]) {
      const t = new KeyTable(types);
      const key = (i: number): string => (i % 3 === 0 ? String.fromCharCode(97 + (i % 26)) + i : `k${i}-${'x'.repeat(i % 40)}`);
      for (let i = 0; i < 40; i++) {
        const cols = types.map((ty) => (ty === 'VARCHAR' ? [key(i), key(i >> 1)] : [i, i >> 1]));
        expect(ids(t, types, cols)).toEqual([i, i >> 1]);
      }
      const many = Array.from({ length: 300 }, (_, i) => i);
      expect(ids(t, types, types.map((ty) => many.map((i) => (ty === 'VARCHAR' ? key(i) : i))))).toEqual(many);
      expect(keys(t).map((k) => k[0])).toEqual(many.map(key));
    }
  });

  it('find and insertKeys: NULL never matches, absent keys give -1', () => {
    const t = new KeyTable(['INTEGER']);
    expect(ids(t, ['INTEGER'], [[1, null, 2]], 'build')).toEqual([0, -1, 1]);
    expect(ids(t, ['INTEGER'], [[2, 3, null, 1]], 'find')).toEqual([1, -1, -1, 0]);
    expect(t.size).toBe(2);
  });

  it('VARCHAR keys: Utf8 and dictionary columns with different dictionaries agree', () => {
    const t = new KeyTable(['VARCHAR']);
    expect(ids(t, ['VARCHAR'], [['a', 'b', null, 'a']])).toEqual([0, 1, 2, 0]);
    expect(ids(t, ['VARCHAR'], [['b', 'c', 'a', null]], 'group', [0])).toEqual([1, 3, 0, 2]);
    const d2 = column('VARCHAR', ['c', 'zz', 'a'], ['zz', 'a', 'c']);
    expect(Array.from(t.groupIds([d2], 3))).toEqual([3, 4, 0]);
    expect(keys(t)).toEqual([['a'], ['b'], [null], ['c'], ['zz']]);
    // Probe: absent strings (Utf8 and dictionary) never match.
    expect(ids(t, ['VARCHAR'], [['zz', 'nope', null]], 'find')).toEqual([4, -1, -1]);
    expect(ids(t, ['VARCHAR'], [['nope', 'b']], 'find', [0])).toEqual([-1, 1]);
  });

  it('multi-column keys with NULLs in different positions are distinct groups', () => {
    const types: SqlType[] = ['INTEGER', 'VARCHAR', 'DOUBLE'];
    const t = new KeyTable(types);
    const got = ids(t, types, [
      [1, 1, null, 1, null, 1],
      ['x', null, 'x', 'x', 'x', null],
      [0.5, 0.5, 0.5, 0.5, 0.5, 0.5],
    ]);
    expect(got).toEqual([0, 1, 2, 0, 2, 1]);
    expect(keys(t)).toEqual([[1, 'x', 0.5], [1, null, 0.5], [null, 'x', 0.5]]);
    expect(ids(t, types, [[1, 1], [null, 'x'], [0.5, 0.5]], 'find')).toEqual([-1, 0]);
  });

  it('DOUBLE keys: -0 equals 0 and NaN equals NaN', () => {
    const t = new KeyTable(['DOUBLE']);
    expect(ids(t, ['DOUBLE'], [[0, -0, NaN, NaN, 1.5]])).toEqual([0, 0, 1, 1, 2]);
  });

  it('BIGINT and TIMESTAMP keys round-trip exactly', () => {
    const t = new KeyTable(['BIGINT', 'TIMESTAMP', 'BOOLEAN', 'DATE']);
    const big = 2n ** 62n + 1n;
    const got = ids(t, ['BIGINT', 'TIMESTAMP', 'BOOLEAN', 'DATE'], [[big, big, -1n], [5n, 5n, -5n], [true, true, false], [3, 3, -3]]);
    expect(got).toEqual([0, 0, 1]);
    expect(keys(t)).toEqual([[big, 5n, true, 3], [-1n, -5n, false, -3]]);
  });

  it('join key kinds coerce INTEGER with BIGINT and numbers with DOUBLE', () => {
    expect(joinKeyKind('INTEGER', 'BIGINT')).toBe('i64');
    expect(joinKeyKind('INTEGER', 'DOUBLE')).toBe('f64');
    expect(joinKeyKind('DATE', 'TIMESTAMP')).toBe('i64');
    const t = new KeyTable(['BIGINT'], ['i64']);
    t.insertKeys([column('BIGINT', [7n, -2n])], 2);
    expect(Array.from(t.find([column('INTEGER', [-2, 7, 8])], 3))).toEqual([1, 0, -1]);
    const f = new KeyTable(['DOUBLE'], ['f64']);
    f.insertKeys([column('DOUBLE', [2, 3.5])], 2);
    expect(Array.from(f.find([column('INTEGER', [2, 3])], 2))).toEqual([0, -1]);
    const ts = new KeyTable(['TIMESTAMP'], ['i64']);
    ts.insertKeys([column('TIMESTAMP', [86_400_000n])], 1);
    expect(Array.from(ts.find([column('DATE', [1, 2])], 2))).toEqual([0, -1]);
  });

  it('a sliced dictionary column reads codes at its offset', () => {
    const t = new KeyTable(['VARCHAR']);
    const d = column('VARCHAR', ['a', 'b', 'c', 'b'], true).slice(1, 3);
    expect(Array.from(t.groupIds([d], 3))).toEqual([0, 1, 0]);
    expect(keys(t)).toEqual([['b'], ['c']]);
  });
});

describe('KeyTable.build (join build side)', () => {
  it('directRangeFits: a few words per key, or up to 2^18 entries at most 16 per key', () => {
    expect(directRangeFits(4 * 1000 + 1024, 1000)).toBe(true);
    expect(directRangeFits(16 * 1000, 1000)).toBe(true);
    expect(directRangeFits(16 * 1000 + 1, 1000)).toBe(false);
    expect(directRangeFits(150_000, 30_000)).toBe(true); // TPC-H Q3's customers
    expect(directRangeFits(1 << 18, (1 << 18) / 16)).toBe(true);
    expect(directRangeFits((1 << 18) + 1, 30_000)).toBe(false);
    expect(directRangeFits(100_000, 5_000)).toBe(false);
    expect(directRangeFits(0, 10)).toBe(false);
  });

  it('dense int keys use the direct-mapped path; sparse and other keys the hash table', () => {
    for (const keys of [[5, 7, 5, null, 6, 1000], [5, 7, 5, null, 2_000_000_000, -2_000_000_000]]) {
      const t = new KeyTable(['INTEGER']);
      const gids = Array.from(t.build([column('INTEGER', keys)], keys.length));
      expect(gids).toEqual([0, 1, 0, -1, 2, 3]);
      const probe = [7, 5, null, 6, 8, keys[5]!, -2_147_483_648, 2_147_483_647, keys[4]!];
      expect(Array.from(t.find([column('INTEGER', probe)], probe.length))).toEqual([1, 0, -1, keys[4] === 6 ? 2 : -1, -1, 3, -1, -1, 2]);
      expect(() => t.insertKeys([column('INTEGER', [1])], 1)).toThrow(/after freeze/);
    }
    const s = new KeyTable(['VARCHAR', 'INTEGER']);
    expect(Array.from(s.build([column('VARCHAR', ['a', 'b', 'a']), column('INTEGER', [1, 1, 1])], 3))).toEqual([0, 1, 0]);
    expect(Array.from(s.find([column('VARCHAR', ['b', 'a']), column('INTEGER', [1, 2])], 2))).toEqual([1, -1]);
  });
});
