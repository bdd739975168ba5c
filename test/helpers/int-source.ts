/** Sources of one INTEGER column `v` for runtime and operator tests. */
import { Int32, makeData, type RecordBatch } from 'apache-arrow';
import { batchFromColumns } from '../../src/exec/batch.js';
import type { SourceFactory } from '../../src/exec/operator.js';

/** A batch of one INTEGER column `v`. */
export function intBatch(values: Int32Array): RecordBatch {
  return batchFromColumns(['v'], [makeData({ type: new Int32(), length: values.length, nullCount: 0, data: values })]);
}

/** `n` rows, value `f(i)` (default i), in batches of `size`. */
export function generatedInts(n: number, size: number, f: (i: number) => number = (i) => i): SourceFactory {
  return () => {
    let pos = 0;
    return {
      next: () => {
        if (pos >= n) return null;
        const len = Math.min(size, n - pos);
        const v = new Int32Array(len);
        for (let i = 0; i < len; i++) v[i] = f(pos + i);
        pos += len;
        return intBatch(v);
      },
      close: () => { pos = n; },
    };
  };
}
