/**
 * StringInterner.reserve grows each array once for strings about to be interned, and a key encoder
 * reserves for every new dictionary of a batch's VARCHAR keys at once (hash-encode.ts): a GROUP BY
 * over dictionary columns (a join's dictionary output) grows the arena once, not by doubling, and
 * every id and string survives the reservations.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { StringInterner } from '../../../src/exec/kernels/hash-interner.js';
import { KeyTable } from '../../../src/exec/kernels/hash.js';
import { column, valueAt } from '../helpers/fake-context.js';

const RealUint8Array = globalThis.Uint8Array;
afterEach(() => { globalThis.Uint8Array = RealUint8Array; });

/** Runs f counting the Uint8Arrays of at least `minLength` bytes constructed meanwhile. */
function countByteArrays(minLength: number, f: () => void): number {
  let count = 0;
  class U8 extends RealUint8Array {
    constructor(...args: unknown[]) {
      super(...(args as [number]));
      if (typeof args[0] === 'number' && args[0] >= minLength) count++;
    }
    static override [Symbol.hasInstance](x: unknown): boolean { return x instanceof RealUint8Array; }
  }
  globalThis.Uint8Array = U8 as unknown as Uint8ArrayConstructor;
  try { f(); } finally { globalThis.Uint8Array = RealUint8Array; }
  return count;
}

const enc = new TextEncoder();
const intern = (t: StringInterner, s: string, insert = true): number => { const b = enc.encode(s); return t.intern(b, 0, b.length, insert); };

describe('StringInterner.reserve', () => {
  it('keeps ids and bytes of strings interned before it; interning the reserved strings grows nothing', () => {
    const t = new StringInterner();
    const before = Array.from({ length: 300 }, (_, i) => `before-${i}`);
    before.forEach((s, i) => expect(intern(t, s)).toBe(i));
    const after = Array.from({ length: 5000 }, (_, i) => `after-string-${i * 31}`);
    const bytes = after.reduce((a, s) => a + enc.encode(s).length, 0);
    t.reserve(after.length, bytes);
    const grown = countByteArrays(64, () => after.forEach((s, i) => expect(intern(t, s)).toBe(before.length + i)));
    expect(grown).toBe(0);
    before.forEach((s, i) => { expect(intern(t, s, false)).toBe(i); expect(new TextDecoder().decode(t.bytesOf(i))).toBe(s); });
    expect(intern(t, 'absent', false)).toBe(-1);
  });
});

describe('KeyTable over dictionary VARCHAR keys', () => {
  it('grows the interner arena once for the dictionaries of a batch and groups as before', () => {
    const n = 6000;
    const names = Array.from({ length: n }, (_, i) => `Customer#${String(i % 4500).padStart(9, '0')}`);
    const comments = Array.from({ length: n }, (_, i) => `comment ${i % 4500} of some length, to fill the arena`);
    const a = column('VARCHAR', names, true);
    const b = column('VARCHAR', comments, true);
    const table = new KeyTable(['VARCHAR', 'VARCHAR']);
    let gids!: Int32Array;
    // Arena (once), the interner's and the key table's NULL-flag arrays: no doubling of the arena.
    const arenas = countByteArrays(128 * 1024, () => { gids = table.groupIds([a, b], n); });
    expect(arenas).toBe(1);
    expect(table.size).toBe(4500);
    for (const i of [0, 1, 4499, 4500, 5999]) expect(gids[i]).toBe(i % 4500);
    const keys = table.keyColumns(0, table.size);
    for (const g of [0, 7, 4499]) {
      expect(valueAt(keys[0]!, g)).toBe(names[g]);
      expect(valueAt(keys[1]!, g)).toBe(comments[g]);
    }
  });
});
