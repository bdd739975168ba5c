/**
 * KeyTable's one-byte VARCHAR key path (hash-byte-keys.ts): group ids, first-seen order and key
 * output must equal a string-keyed reference, across batches that take the path and batches that
 * do not (a longer string, a NULL, too few rows), with and without a selection.
 */
import { describe, expect, it } from 'vitest';
import { KeyTable } from '../../src/exec/kernels/hash.js';
import { BYTE_KEYS_MIN_ROWS } from '../../src/exec/kernels/hash-byte-keys.js';
import type { LiteralValue } from '../../src/relnode/rex.js';
import { column, valueAt } from './helpers/fake-context.js';

const N = BYTE_KEYS_MIN_ROWS + 500;

/** Reference: gid per selected row from a Map of joined string keys, in first-seen order. */
class Reference {
  readonly order: string[] = [];
  private readonly ids = new Map<string, number>();
  gids(cols: LiteralValue[][], sel: number[] | null): number[] {
    const rows = sel ?? cols[0]!.map((_, i) => i);
    return rows.map((r) => {
      const k = JSON.stringify(cols.map((c) => c[r]));
      let g = this.ids.get(k);
      if (g === undefined) { g = this.order.length; this.order.push(k); this.ids.set(k, g); }
      return g;
    });
  }
}

function check(ncols: number, batches: { cols: LiteralValue[][]; sel: number[] | null }[]): void {
  const types = Array.from({ length: ncols }, () => 'VARCHAR' as const);
  const t = new KeyTable(types);
  const ref = new Reference();
  for (const b of batches) {
    const data = b.cols.map((c) => column('VARCHAR', c));
    const sel = b.sel === null ? null : Int32Array.from(b.sel);
    const n = b.sel === null ? b.cols[0]!.length : b.sel.length;
    expect(Array.from(t.groupIds(data, n, undefined, sel))).toEqual(ref.gids(b.cols, b.sel));
  }
  const out = t.keyColumns(0, t.size);
  expect(Array.from({ length: t.size }, (_, g) => JSON.stringify(out.map((c) => valueAt(c, g))))).toEqual(ref.order);
}

let seed = 3;
const rnd = (k: number): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 8) % k; };
const flags = (alphabet: string, n: number): string[] => Array.from({ length: n }, () => alphabet[rnd(alphabet.length)]!);
const every = (n: number, keep: (i: number) => boolean): number[] => Array.from({ length: n }, (_, i) => i).filter(keep);

describe('one-byte VARCHAR group keys', () => {
  it('two keys, with and without a selection, over several batches', () => {
    check(2, [
      { cols: [flags('ANR', N), flags('FO', N)], sel: every(N, (i) => i % 7 !== 0) },
      { cols: [flags('ANRX', N), flags('FOP', N)], sel: null },
      { cols: [flags('AN', N), flags('O', N)], sel: every(N, (i) => i % 3 === 0) },
    ]);
  });

  it('one key, and bytes above 127 (one byte of a Latin-1 string is not one UTF-8 byte: the general path)', () => {
    check(1, [
      { cols: [flags('xyz', N)], sel: null },
      { cols: [flags('zé', N)], sel: null },
      { cols: [flags('zyq', N)], sel: every(N, (i) => i % 2 === 0) },
    ]);
  });

  it('batches that cannot take the path share the groups of those that can', () => {
    const long = flags('AB', N); long[17] = 'AB';
    const empty = flags('AB', N); empty[5] = '';
    const nulls: LiteralValue[] = flags('AB', N); nulls[9] = null;
    check(2, [
      { cols: [flags('AB', 10), flags('C', 10)], sel: null }, // too few rows
      { cols: [flags('AB', N), flags('CD', N)], sel: every(N, (i) => i > 3) },
      { cols: [long, flags('CD', N)], sel: null }, // a two-byte string
      { cols: [empty, flags('C', N)], sel: null }, // an empty string
      { cols: [nulls, flags('CE', N)], sel: null }, // a NULL
      { cols: [flags('BA', N), flags('EDC', N)], sel: every(N, (i) => i % 5 === 1) },
    ]);
  });

  it('an unselected long string keeps the batch on the general path, with the same answer', () => {
    const a = flags('AB', N); a[0] = 'long';
    check(2, [{ cols: [a, flags('C', N)], sel: every(N, (i) => i > 0) }]);
  });
});
