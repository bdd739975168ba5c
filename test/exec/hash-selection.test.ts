/**
 * KeyTable.groupIds through a selection vector (hash-encode.ts `sel`): the
 * keys of rows sel[i], read in place, group exactly as the gathered rows do —
 * every key kind, NULLs, dictionary and Utf8 strings, sliced columns.
 */
import { describe, expect, it } from 'vitest';
import { takeData } from '../../src/exec/batch.js';
import { KeyTable } from '../../src/exec/kernels/hash.js';
import type { LiteralValue } from '../../src/relnode/rex.js';
import type { SqlType } from '../../src/relnode/types.js';
import { column } from './helpers/fake-context.js';

const N = 600;
const value = (t: SqlType, i: number): LiteralValue => {
  if (i % 7 === 3) return null;
  switch (t) {
    case 'INTEGER': return (i * 37) % 11 - 5;
    case 'BIGINT': return BigInt((i * 13) % 9) * 10_000_000_000n;
    case 'DOUBLE': return i % 5 === 0 ? -0 : ((i * 7) % 6) / 4;
    case 'BOOLEAN': return i % 3 === 0;
    case 'VARCHAR': return ['R', 'A', 'N', 'longer string value', 'é', ''][(i * 5) % 6]!;
    default: return i % 4;
  }
};

function check(types: SqlType[], dict: boolean, slice: boolean): void {
  let cols = types.map((t) => column(t, Array.from({ length: N }, (_, i) => value(t, i)), dict && t === 'VARCHAR' ? true : undefined));
  if (slice) cols = cols.map((c) => c.slice(17, N - 40));
  const len = cols[0]!.length;
  const sel = Int32Array.from({ length: len }, (_, i) => i).filter((i) => i % 3 !== 1 && i % 10 !== 9);
  const viaSel = new KeyTable(types);
  const gathered = new KeyTable(types);
  for (let off = 0; off < sel.length; off += 97) {
    const part = sel.subarray(off, Math.min(sel.length, off + 97));
    const a = viaSel.groupIds(cols, part.length, undefined, part);
    const b = gathered.groupIds(cols.map((c) => takeData(c, part, part.length, false)), part.length);
    expect(Array.from(a)).toEqual(Array.from(b));
  }
  expect(viaSel.size).toBe(gathered.size);
  expect(viaSel.size).toBeGreaterThanOrEqual(2);
}

describe('KeyTable.groupIds through a selection', () => {
  const lists: SqlType[][] = [['INTEGER'], ['BIGINT'], ['DOUBLE'], ['BOOLEAN'], ['VARCHAR'], ['VARCHAR', 'VARCHAR'], ['VARCHAR', 'INTEGER', 'DOUBLE'], ['BIGINT', 'VARCHAR', 'BOOLEAN']];
  for (const types of lists) {
    for (const dict of [false, true]) {
      for (const slice of [false, true]) {
        it(`${types.join(', ')}${dict ? ' (dictionary)' : ''}${slice ? ' (sliced)' : ''}`, () => check(types, dict, slice));
      }
    }
  }
});
