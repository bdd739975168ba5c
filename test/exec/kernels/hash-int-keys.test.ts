/**
 * A GROUP BY table's INTEGER key through its value → gid table (kernels/hash-int-keys.ts `run`, taken by
 * KeyTable.groupIds): every mix of batches — through the table, with a selection, with NULLs (the general
 * path), widening it, too wide for it — gives the gids of a first-seen Map, so both paths share one set
 * of groups in first-seen order.
 */
import { describe, expect, it } from 'vitest';
import { DateDay, Int32, makeData, type Data } from 'apache-arrow';
import { KeyTable } from '../../../src/exec/kernels/hash.js';

function int32(vals: readonly (number | null)[], date = false): Data {
  const nulls = vals.filter((v) => v === null).length;
  const data = Int32Array.from(vals, (v) => v ?? 0);
  const type = date ? new DateDay() : new Int32();
  if (nulls === 0) return makeData({ type, length: vals.length, nullCount: 0, data } as never);
  const bm = new Uint8Array((vals.length + 7) >> 3);
  vals.forEach((v, i) => { if (v !== null) bm[i >> 3]! |= 1 << (i & 7); });
  return makeData({ type, length: vals.length, nullCount: nulls, nullBitmap: bm, data } as never);
}

let seed = 99;
const rnd = (): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };
const keys = (n: number, lo: number, span: number, nulls = 0): (number | null)[] =>
  Array.from({ length: n }, () => (rnd() < nulls ? null : lo + Math.floor(rnd() * span)));

/** The gids a first-seen Map gives the keys of the batches (selected rows only, where a selection is given). */
class Reference {
  private readonly m = new Map<string, number>();
  gids(vals: readonly (number | null)[], sel: number[] | null): number[] {
    return (sel ?? vals.map((_, i) => i)).map((i) => { const s = String(vals[i]); let g = this.m.get(s); if (g === undefined) { g = this.m.size; this.m.set(s, g); } return g; });
  }
}

describe('GROUP BY an INTEGER key through its value → gid table', () => {
  it('gives first-seen gids over batches through the table, with selections, NULL batches, a widening and a refusal', () => {
    for (const date of [false, true]) {
      const t = new KeyTable([date ? 'DATE' : 'INTEGER']);
      const ref = new Reference();
      const batches: { vals: (number | null)[]; sel: number[] | null }[] = [
        { vals: keys(5000, 100, 3000), sel: null },
        { vals: keys(8000, 100, 3000), sel: Array.from({ length: 8000 }, (_, i) => i).filter(() => rnd() < 0.4) }, // 3,200 rows: the table takes 2,048 or more
        { vals: keys(3000, 50, 6000, 0.05), sel: null }, // NULLs: the general path (its new groups are not in the table)
        { vals: keys(6000, 50, 6000), sel: null }, // the table widens; finds the groups the NULL batch made
        { vals: keys(6000, -40, 200), sel: Array.from({ length: 6000 }, (_, i) => i).filter((i) => i % 3 !== 0) },
        { vals: keys(3000, 0, 10_000_000), sel: null }, // too wide: refused, the general path from now on
        { vals: keys(4000, 100, 3000), sel: null },
      ];
      for (const b of batches) {
        const col = int32(b.vals, date);
        const got = b.sel === null ? t.groupIds([col], b.vals.length) : t.groupIds([col], b.sel.length, new Int32Array(b.sel.length), Int32Array.from(b.sel));
        expect(Array.from(got)).toEqual(ref.gids(b.vals, b.sel));
      }
      t.release();
    }
  });
});
