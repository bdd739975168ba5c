import { describe, expect, it } from 'vitest';
import { assembleTable } from '../../src/api/result.js';
import { schema, batchOf } from '../exec/helpers/fake-context.js';

describe('assembleTable', () => {
  it('decodes a sliced dictionary column at the right rows when batches disagree on encoding', () => {
    const S = schema('s:VARCHAR', 'k:INTEGER');
    const dict = batchOf(S, [['a', 0], ['b', 1], ['c', 2], ['d', 3]], [0]).slice(1, 4); // dictionary, offset 1
    const plain = batchOf(S, [['x', 9]]);
    const t = assembleTable([plain, dict], S);
    expect(t.toArray().map((r) => r.toJSON())).toEqual([
      { s: 'x', k: 9 }, { s: 'b', k: 1 }, { s: 'c', k: 2 }, { s: 'd', k: 3 },
    ]);
  });
});
