import { describe, expect, it } from 'vitest';
import { sort, type SortConfig } from '../../../src/exec/operators/sort.js';
import type { SortKey } from '../../../src/relnode/rel.js';
import type { LiteralValue } from '../../../src/relnode/rex.js';
import type { Schema } from '../../../src/relnode/types.js';
import { Harness, batchOf, column, schema } from '../helpers/fake-context.js';
import { batchFromColumns } from '../../../src/exec/batch.js';

type Row = LiteralValue[];

function run(s: Schema, cfg: SortConfig, batches: Row[][], batchSize = 1024, dict: number[] = []): Harness {
  const h = new Harness(sort(cfg), s, [s], batchSize);
  batches.forEach((rows, i) => { if (rows.length) h.push(0, batchOf(s, rows, i % 2 === 1 ? dict : [])); });
  return h.finish();
}

const key = (index: number, desc = false, nullsFirst = false): SortKey => ({ index, desc, nullsFirst });

/** Reference: a stable sort of rows by the keys (strings by code point). */
function refSort(rows: Row[], keys: SortKey[]): Row[] {
  const cmpVal = (x: LiteralValue, y: LiteralValue): number => {
    if (typeof x === 'string') { const a = [...x].map((c) => c.codePointAt(0)!); const b = [...(y as string)].map((c) => c.codePointAt(0)!); for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!; return a.length - b.length; }
    if (typeof x === 'number' && (Number.isNaN(x) || Number.isNaN(y))) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
    return x! < y! ? -1 : x! > y! ? 1 : 0;
  };
  return rows.map((r, i) => ({ r, i })).sort((a, b) => {
    for (const k of keys) {
      const x = a.r[k.index]!; const y = b.r[k.index]!;
      if (x === null || y === null) { if (x === y) continue; return (x === null) === k.nullsFirst ? -1 : 1; }
      const c = cmpVal(x, y);
      if (c !== 0) return k.desc ? -c : c;
    }
    return a.i - b.i;
  }).map((x) => x.r);
}

const S = schema('i:INTEGER', 's:VARCHAR', 'd:DOUBLE', 'b:BIGINT', 'f:BOOLEAN', 'dt:DATE', 'id:INTEGER');
const ROWS: Row[] = [
  [3, 'b', 1.5, 5n, true, 10, 0],
  [1, 'a', NaN, -(2n ** 60n), false, 3, 1],
  [null, 'b', -0.5, 2n ** 60n, null, null, 2],
  [3, null, 2.5, 0n, false, 7, 3],
  [1, '\u{1F600}', Infinity, 7n, true, -2, 4],
  [2, '\uFFFD', -Infinity, null, true, 3, 5],
  [3, 'b', null, 5n, true, 10, 6],
  [1, 'ab', 1.5, -1n, false, 0, 7],
];

describe('sort', () => {
  const cases: [string, SortKey[]][] = [
    ['int asc nulls last', [key(0)]],
    ['int desc nulls first', [key(0, true, true)]],
    ['string asc (code point order)', [key(1)]],
    ['string desc nulls first, then int', [key(1, true, true), key(0)]],
    ['double asc with NaN and ±Infinity', [key(2)]],
    ['double desc nulls first', [key(2, true, true)]],
    ['bigint beyond 2^53', [key(3)]],
    ['boolean then date desc', [key(4), key(5, true)]],
    ['multi-key stable', [key(0), key(4, true)]],
  ];
  for (const [name, keys] of cases) {
    it(name, () => {
      const expected = refSort(ROWS, keys);
      for (const bs of [1024, 3]) {
        expect(run(S, { keys }, [ROWS.slice(0, 3), ROWS.slice(3)], bs, [1]).rows()).toEqual(expected);
      }
    });
  }

  it('offset and fetch, with and without top-k compaction', () => {
    const keys = [key(0), key(1, true)];
    const expected = refSort(ROWS, keys);
    expect(run(S, { keys, fetch: 3, offset: 2 }, [ROWS.slice(0, 4), ROWS.slice(4)]).rows()).toEqual(expected.slice(2, 5));
    expect(run(S, { keys, fetch: 0 }, [ROWS]).rows()).toEqual([]);
    expect(run(S, { keys, offset: 6 }, [ROWS]).rows()).toEqual(expected.slice(6));
    expect(run(S, { keys, fetch: 100 }, [ROWS]).rows()).toEqual(expected);
  });

  it('top-k matches a full sort on larger random data', () => {
    const T = schema('a:INTEGER', 'b:DOUBLE', 's:VARCHAR', 'id:INTEGER');
    let seed = 42;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    const rows: Row[] = Array.from({ length: 30000 }, (_, i) => [rnd() < 0.05 ? null : Math.floor(rnd() * 500), rnd() < 0.02 ? null : Math.round(rnd() * 1000) / 10, `s${Math.floor(rnd() * 50)}`, i]);
    const batches: Row[][] = [];
    for (let i = 0; i < rows.length; i += 1000) batches.push(rows.slice(i, i + 1000));
    for (const keys of [[key(0)], [key(0, true, true), key(2)], [key(1, false, true), key(0, true)], [key(2, true), key(1)]]) {
      for (const [fetch, offset] of [[10, 0], [25, 7], [5000, 100]] as const) {
        const got = run(T, { keys, fetch, offset }, batches, 512, [2]).rows();
        expect(got).toEqual(refSort(rows, keys).slice(offset, offset + fetch));
      }
    }
  });

  it('top-k over big batches (threshold by selection before the first compaction) matches a full sort: ties, -0, later NULLs and NaNs', () => {
    const T = schema('a:INTEGER', 'b:DOUBLE', 'id:INTEGER');
    let seed = 9;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    const n = 20000;
    // Few distinct values (many ties at the k-th value), -0 next to 0; NULLs and NaNs only after the first big batch.
    const rows: Row[] = Array.from({ length: n }, (_, i) => [
      i >= 12000 && rnd() < 0.05 ? null : Math.floor(rnd() * 40) - 20,
      i >= 12000 && rnd() < 0.05 ? (rnd() < 0.5 ? null : NaN) : rnd() < 0.1 ? -0 : Math.floor(rnd() * 30) / 2 - 7,
      i,
    ]);
    const batches = [rows.slice(0, 9000), rows.slice(9000, 12000), rows.slice(12000)];
    for (const keys of [[key(0, true), key(2)], [key(0), key(2, true)], [key(1, true, true), key(2)], [key(1, false, false), key(0)], [key(1, true, false), key(2)]]) {
      for (const [fetch, offset] of [[10, 0], [3, 4], [700, 10]] as const) {
        const got = run(T, { keys, fetch, offset }, batches, 100000).rows();
        expect(got).toEqual(refSort(rows, keys).slice(offset, offset + fetch));
      }
    }
  });

  it('single-key radix path (≥ 1024 rows) matches the reference, incl. NaN, -0, ±Infinity, NULLs, ties', () => {
    const T = schema('i:INTEGER', 'd:DOUBLE', 's:VARCHAR', 'id:INTEGER');
    let seed = 7;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    const specials = [NaN, -0, 0, Infinity, -Infinity, -1e300, 1e-300, 2.5, -2.5];
    const rows: Row[] = Array.from({ length: 5000 }, (_, i) => [
      rnd() < 0.05 ? null : Math.floor((rnd() - 0.5) * 2 ** 32) >> (rnd() < 0.5 ? 20 : 0),
      rnd() < 0.05 ? null : rnd() < 0.2 ? specials[Math.floor(rnd() * specials.length)]! : (rnd() - 0.5) * 1000,
      rnd() < 0.05 ? null : `k${Math.floor(rnd() * 300)}`,
      i,
    ]);
    const same = (a: Row[], b: Row[]): void => expect(a.map((r) => r[3])).toEqual(b.map((r) => r[3]));
    for (const k of [key(0), key(0, true, true), key(1), key(1, true), key(1, false, true), key(2), key(2, true, true)]) {
      same(run(T, { keys: [k] }, [rows.slice(0, 2500), rows.slice(2500)], 4096, [2]).rows(), refSort(rows, [k]));
    }
  });

  it('sorts per epoch, emitting at the watermark', () => {
    const T = schema('a:INTEGER');
    const h = new Harness(sort({ keys: [key(0, true)] }), T, [T]);
    h.push(0, batchOf(T, [[1], [3]]), 0);
    h.push(0, batchOf(T, [[10], [30]]), 1);
    h.push(0, batchOf(T, [[2]]), 0);
    h.watermark(0);
    expect(h.rows(0)).toEqual([[3], [2], [1]]);
    expect(h.rows(1)).toEqual([]);
    h.finish();
    expect(h.rows(1)).toEqual([[30], [10]]);
  });

  it('empty input emits nothing', () => {
    expect(run(S, { keys: [key(0)] }, []).rows()).toEqual([]);
  });

  it('dictionary columns with different dictionaries and a reversed order', () => {
    const T = schema('s:VARCHAR', 'id:INTEGER');
    const h = new Harness(sort({ keys: [key(0)] }), T, [T]);
    h.push(0, batchFromColumns(T, [column('VARCHAR', ['c', 'a', 'b'], ['c', 'b', 'a']), column('INTEGER', [0, 1, 2])]));
    h.push(0, batchFromColumns(T, [column('VARCHAR', ['b', 'a'], ['b', 'a']), column('INTEGER', [3, 4])]));
    h.finish();
    expect(h.rows()).toEqual([['a', 1], ['a', 4], ['b', 2], ['b', 3], ['c', 0]]);
  });

  it('rows that fit one output batch are sorted and emitted by finish itself (no pending step); more take steps', () => {
    const s = schema('x:INTEGER');
    const rows = [[3], [1], [2]];
    const small = run(s, { keys: [key(0)] }, [rows.slice(0, 2), rows.slice(2)]);
    expect(small.rows()).toEqual([[1], [2], [3]]);
    expect(small.ctx.steps).toBe(0);
    const big = run(s, { keys: [key(0)] }, [rows], 2); // 3 rows, 2 per output batch
    expect(big.rows()).toEqual([[1], [2], [3]]);
    expect(big.ctx.steps).toBeGreaterThan(0);
  });

  it('VARCHAR keys rank alike with few rows (comparison sort) and many (interned): empty, prefixes, multi-byte, NULLs', () => {
    const s = schema('s:VARCHAR', 'id:INTEGER');
    const words = ['b', '', 'ab', 'a', null, '\u00e9', 'abc', 'a', '', 'zz', null, '\u{1F600}'];
    for (const n of [3, 12, 16, 17, 40]) {
      const rows: Row[] = Array.from({ length: n }, (_, i) => [words[(i * 7) % words.length]!, i]);
      for (const k of [key(0), key(0, true, true)]) expect(run(s, { keys: [k] }, [rows]).rows()).toEqual(refSort(rows, [k]));
    }
  });
});
