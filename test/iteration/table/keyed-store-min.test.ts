/**
 * KeyedStore.upsertMin (src/iteration/table/keyed-store.ts), the keep-min
 * write of the min-label rewrite, against a reference map: each batch
 * passes on exactly the rows that lower their key's label (a key repeated
 * in a batch ends at its smallest), and the live rows — read through
 * snapshot(), also after the compactions that many batches trigger (the
 * store holds only the taken rows of each batch) — are each key's least
 * label. Both the one-INTEGER-key path and a row with a VARCHAR column (the
 * generic path) are checked.
 */
import { describe, expect, it } from 'vitest';
import { tableFromArrays, type RecordBatch } from 'apache-arrow';
import { KeyedStore } from '../../../src/iteration/table/keyed-store.js';
import { rng } from '../../helpers/rng.js';

function batchOf(keys: Int32Array, labels: Int32Array, text: boolean): RecordBatch {
  const cols: Record<string, Int32Array | string[]> = { k: keys, l: labels };
  if (text) cols['t'] = Array.from(labels, (l) => `v${l}`);
  return tableFromArrays(cols).batches[0]!;
}

function rowsOf(batches: readonly RecordBatch[]): [number, number][] {
  const out: [number, number][] = [];
  for (const b of batches) {
    const k = b.getChildAt(0)!.toArray() as Int32Array;
    const l = b.getChildAt(1)!.toArray() as Int32Array;
    for (let i = 0; i < b.numRows; i++) out.push([k[i]!, l[i]!]);
  }
  return out.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
}

/** Rows as one string (a deep toEqual of thousands of pairs is slow). */
const text = (rows: readonly [number, number][]): string => rows.map(([k, l]) => `${k}:${l}`).join(' ');

describe('KeyedStore.upsertMin', () => {
  for (const varchar of [false, true]) {
    it(`passes on the lowering rows and keeps each key's least label${varchar ? ' (generic path)' : ''}`, () => {
      const r = rng(varchar ? 7 : 3);
      const store = new KeyedStore([0], varchar ? ['INTEGER', 'INTEGER', 'VARCHAR'] : ['INTEGER', 'INTEGER']);
      const best = new Map<number, number>();
      for (let b = 0; b < 40; b++) {
        const n = 4_000;
        const keys = new Int32Array(n);
        const labels = new Int32Array(n);
        // Labels fall batch by batch: many rows are taken, so the store compacts along the way.
        for (let i = 0; i < n; i++) { keys[i] = Math.floor(r() * 1_000) - 100; labels[i] = Math.floor(r() * 1_000_000) - b * 2_000_000; }
        // The reference: a row is passed on when it lowers its key (rows in order).
        const expected: [number, number][] = [];
        for (let i = 0; i < n; i++) {
          const old = best.get(keys[i]!);
          if (old === undefined || labels[i]! < old) { best.set(keys[i]!, labels[i]!); expected.push([keys[i]!, labels[i]!]); }
        }
        const out = store.upsertMin(batchOf(keys, labels, varchar), 1);
        expect(text(out === null ? [] : rowsOf([out]))).toBe(text(expected.sort((x, y) => x[0] - y[0] || x[1] - y[1])));
      }
      expect(store.size).toBe(best.size);
      const live = rowsOf(store.snapshot());
      expect(text(live)).toBe(text([...best.entries()].sort((x, y) => x[0] - y[0])));
    }, 30_000);
  }
});
