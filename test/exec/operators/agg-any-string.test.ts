import { describe, expect, it } from 'vitest';
import { Dictionary, Int32, Utf8, makeData, makeVector, vectorFromArray, type Data } from 'apache-arrow';
import { AnyStringState } from '../../../src/exec/operators/agg-any-string.js';

const utf8 = (xs: (string | null)[]): Data => vectorFromArray(xs, new Utf8()).data[0]!;
const dictType = new Dictionary(new Utf8(), new Int32());
function dict(entries: string[], codes: (number | null)[]): Data {
  const dictionary = vectorFromArray(entries, new Utf8());
  const valid = new Uint8Array((codes.length + 7) >> 3);
  codes.forEach((c, i) => { if (c !== null) valid[i >> 3]! |= 1 << (i & 7); });
  const nulls = codes.filter((c) => c === null).length;
  return makeData({ type: dictType, length: codes.length, nullCount: nulls, nullBitmap: nulls > 0 ? valid : null, data: Int32Array.from(codes, (c) => c ?? 0), dictionary });
}
const read = (d: Data): (string | null)[] => [...makeVector(d)].map((x) => (x === null ? null : String(x)));

describe('any_value over VARCHAR (AnyStringState)', () => {
  it('keeps each group\'s first non-NULL string, plain input', () => {
    const s = new AnyStringState();
    s.resize(3);
    s.add([utf8([null, 'b1', 'a1', 'a2', ''])], Int32Array.from([0, 0, 1, 1, 2]), 5);
    expect(read(s.value(0, 3))).toEqual(['b1', 'a1', '']);
  });

  it('keeps codes over one dictionary and returns a dictionary column', () => {
    const d = dict(['x', 'yy', 'zzz'], [2, null, 1, 0]);
    const s = new AnyStringState();
    s.resize(3);
    s.add([d], Int32Array.from([0, 1, 1, 2]), 4);
    s.add([d.slice(0, 2)], Int32Array.from([1, 2]), 2);
    const out = s.value(0, 3);
    expect(out.type.toString()).toContain('Dictionary');
    expect(read(out)).toEqual(['zzz', 'yy', 'x']);
  });

  it('turns kept codes into bytes when another dictionary or plain strings arrive', () => {
    const s = new AnyStringState();
    s.resize(4);
    s.add([dict(['p', 'q'], [1, 0])], Int32Array.from([0, 1]), 2);
    s.add([dict(['r', 's'], [0, 1, null])], Int32Array.from([1, 2, 3]), 3);
    s.add([utf8(['t', 'u'])], Int32Array.from([3, 0]), 2);
    const out = s.value(0, 4);
    expect(out.type.toString()).toBe('Utf8');
    expect(read(out)).toEqual(['q', 'p', 's', 't']);
  });

  it('merges states (a group keeps its own string; empty groups take the other\'s) and leaves unseen groups NULL', () => {
    const a = new AnyStringState();
    a.resize(3);
    a.add([utf8(['a0', null])], Int32Array.from([0, 1]), 2);
    const b = new AnyStringState();
    b.resize(2);
    b.add([dict(['b0', 'b1'], [0, 1])], Int32Array.from([0, 1]), 2);
    a.merge(b, Int32Array.from([0, 1]));
    expect(read(a.value(0, 3))).toEqual(['a0', 'b1', null]);
  });
});
