import * as arrow from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { encodeAppended, encodeAppendedAsync, encodeForStorage, encodeForStorageAsync } from '../../src/io/dictionary-store.js';
import { CancelledError } from '../../src/relnode/errors.js';

/** A batch of an INTEGER column `k` (row numbers) and a VARCHAR column `s`. */
function batch(values: readonly (string | null)[], dictionary = false): arrow.RecordBatch {
  const s = arrow.vectorFromArray([...values], dictionary ? new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32()) : new arrow.Utf8());
  const k = arrow.vectorFromArray(values.map((_, i) => i), new arrow.Int32());
  return new arrow.RecordBatch({ k: k.data[0]!, s: s.data[0]! });
}

/** The values of column `s` of the batches, read through Arrow (NULL as null). */
function valuesOf(batches: readonly arrow.RecordBatch[]): (string | null)[] {
  return batches.flatMap((b) => [...b.getChild('s')!] as (string | null)[]);
}

function column(batches: readonly arrow.RecordBatch[]): arrow.Data[] {
  return batches.map((b) => b.data.children[1]!);
}

/** Every part Dictionary<Utf8, Int32> over one dictionary object; returns its strings. */
function oneDictionary(parts: readonly arrow.Data[]): string[] {
  for (const p of parts) {
    expect(p.typeId).toBe(arrow.Type.Dictionary);
    expect(p.dictionary).toBe(parts[0]!.dictionary);
    expect(p.type).toBe(parts[0]!.type);
  }
  return [...parts[0]!.dictionary!] as string[];
}

const cycle = (n: number, words: readonly (string | null)[], from = 0): (string | null)[] => Array.from({ length: n }, (_, i) => words[(from + i) % words.length]!);
const unique = (n: number, prefix: string): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('encodeForStorage', () => {
  it('encodes a low-cardinality column over one dictionary shared by every batch', () => {
    const input = [batch(cycle(1000, ['AIR', 'MAIL', 'SHIP'])), batch(cycle(500, ['TRUCK', 'AIR'])), batch(cycle(700, ['SHIP']))];
    const out = encodeForStorage(input);
    expect(oneDictionary(column(out))).toEqual(['AIR', 'MAIL', 'SHIP', 'TRUCK']);
    expect(valuesOf(out)).toEqual(valuesOf(input));
    expect(out[0]!.schema.fields[1]!.type.typeId).toBe(arrow.Type.Dictionary);
    expect(out.every((b) => b.schema === out[0]!.schema)).toBe(true);
    out.forEach((b, i) => expect(b.data.children[0]).toBe(input[i]!.data.children[0])); // other columns shared
  });

  it('keeps a high-cardinality column plain (the input itself)', () => {
    const input = [batch(unique(3000, 'comment ')), batch(unique(3000, 'other '))];
    expect(encodeForStorage(input)).toBe(input);
  });

  it('decides at the limit: distinct ≤ an eighth of the values encodes, one more stays plain', () => {
    const at = [batch(cycle(800, unique(100, 'v')))];
    expect(oneDictionary(column(encodeForStorage(at)))).toHaveLength(100);
    const over = [batch(cycle(800, unique(101, 'v')))];
    expect(encodeForStorage(over)).toBe(over);
  });

  it('falls back to plain when the column turns high-cardinality after the first batch', () => {
    const input = [batch(cycle(2000, ['a', 'b', 'c'])), batch(unique(2000, 'u'))];
    expect(encodeForStorage(input, { sampleRows: 500 })).toBe(input);
    // The same first batch alone encodes: the later batch decided.
    expect(oneDictionary(column(encodeForStorage([input[0]!], { sampleRows: 500 })))).toEqual(['a', 'b', 'c']);
  });

  it('keeps NULLs NULL and the empty string a value of its own', () => {
    const values = cycle(1000, ['x', null, '', 'y', null, '']);
    const out = encodeForStorage([batch(values)]);
    expect(oneDictionary(column(out))).toEqual(['x', '', 'y']);
    const d = out[0]!.data.children[1]!;
    expect(d.nullCount).toBe(values.filter((v) => v === null).length);
    expect(valuesOf(out)).toEqual(values);
  });

  it('keeps a column of only NULLs plain', () => {
    const input = [batch(cycle(100, [null]))];
    expect(encodeForStorage(input)).toBe(input);
  });

  it('compares multi-byte UTF-8 by bytes', () => {
    const words = ['héllo', 'hello', 'ÉCOLE', '😀 smile', '日本語', 'a😀b', 'naïve café', 'naive cafe'];
    const values = cycle(960, words);
    const out = encodeForStorage([batch(values)]);
    expect(oneDictionary(column(out))).toEqual(words);
    expect(valuesOf(out)).toEqual(values);
  });

  it('keeps every value of many distinct short and long strings (the short-string cache collides)', () => {
    const words = [...unique(3000, 'k'), ...unique(500, 'a longer value number ')];
    const values = cycle(40000, words, 7);
    const out = encodeForStorage([batch(values.slice(0, 25000)), batch(values.slice(25000))]);
    expect(oneDictionary(column(out))).toHaveLength(words.length);
    expect(valuesOf(out)).toEqual(values);
  });

  it('reads sliced input batches (offsets and validity at a non-zero offset)', () => {
    const values = cycle(3001, ['p', null, 'q', 'r', 'p', 'q', null]);
    const whole = batch(values);
    const parts = [whole.slice(3, 1003), whole.slice(1003, 2501), whole.slice(2501)];
    expect(parts[0]!.data.children[1]!.offset).toBeGreaterThan(0);
    const out = encodeForStorage(parts);
    expect(oneDictionary(column(out))).toEqual(['r', 'p', 'q']);
    expect(valuesOf(out)).toEqual(values.slice(3));
    for (const d of column(out)) expect(d.offset).toBe(0);
  });

  it('leaves dictionary columns as they are', () => {
    const input = [batch(cycle(100, ['a', 'b']), true), batch(cycle(100, ['b', 'c']), true)];
    expect(encodeForStorage(input)).toBe(input);
  });

  it('encodes a column mixing plain and dictionary batches over one dictionary', () => {
    const input = [batch(cycle(400, ['a', 'b']), true), batch(cycle(400, ['c', 'a']))];
    const out = encodeForStorage(input);
    expect(oneDictionary(column(out))).toEqual(['a', 'b', 'c']);
    expect(valuesOf(out)).toEqual(valuesOf(input));
  });
});

describe('encodeAppended', () => {
  const stored = (): arrow.RecordBatch[] => [...encodeForStorage([batch(cycle(800, ['A', 'B'])), batch(cycle(800, ['B', null]))])];

  it('extends the stored dictionary: old codes kept and re-pointed, new rows coded against it', () => {
    const old = stored();
    const oldDict = old[0]!.data.children[1]!.dictionary;
    const added = [batch(cycle(100, ['C', 'B', null]))];
    const r = encodeAppended(old, added);
    const all = [...r.old, ...r.added];
    expect(oneDictionary(column(all))).toEqual(['A', 'B', 'C']);
    expect(valuesOf(all)).toEqual([...valuesOf(old), ...valuesOf(added)]);
    r.old.forEach((b, i) => expect(b.data.children[1]!.values).toBe(old[i]!.data.children[1]!.values)); // codes not rewritten
    expect(old[0]!.data.children[1]!.dictionary).toBe(oldDict); // the stored batches are unchanged
    expect(r.old[0]!.schema.fields[1]!.type).toBe(old[0]!.schema.fields[1]!.type);
  });

  it('remaps appended dictionary rows to the stored dictionary', () => {
    const old = stored();
    const added = [batch(cycle(90, ['B', 'Z', 'A']), true)];
    const r = encodeAppended(old, added);
    const all = [...r.old, ...r.added];
    expect(oneDictionary(column(all))).toEqual(['A', 'B', 'Z']);
    expect(valuesOf(all)).toEqual([...valuesOf(old), ...valuesOf(added)]);
  });

  it('stores high-cardinality appended rows plain and leaves the old batches', () => {
    const old = stored();
    const added = [batch(unique(1000, 'n'))];
    const r = encodeAppended(old, added);
    expect(r.old).toBe(old);
    expect(r.added).toBe(added);
  });

  it('encodes appended rows with a dictionary of their own when the stored column is plain', () => {
    const old = [batch(unique(200, 'n'))];
    const added = [batch(cycle(400, ['x', 'y']))];
    const r = encodeAppended(old, added);
    expect(r.old).toBe(old);
    expect(oneDictionary(column(r.added))).toEqual(['x', 'y']);
  });

  it('encodes the first rows of an empty table by the rule', () => {
    const r = encodeAppended([], [batch(cycle(400, ['x', 'y']))]);
    expect(oneDictionary(column(r.added))).toEqual(['x', 'y']);
  });
});

describe('the stepped forms', () => {
  const input = (): arrow.RecordBatch[] => [batch(cycle(1000, ['a', 'b', null])), batch(cycle(1000, ['c', 'a']))];

  it('give what the one-call forms give', async () => {
    const [a, b] = [input(), input()];
    expect(valuesOf(await encodeForStorageAsync(a, undefined, undefined))).toEqual(valuesOf(encodeForStorage(b)));
    expect(oneDictionary(column(await encodeForStorageAsync(a, undefined, undefined)))).toEqual(['a', 'b', 'c']);
    const old = encodeForStorage([batch(cycle(800, ['A', 'B']))]);
    const r = await encodeAppendedAsync(old, [batch(cycle(100, ['C']))], undefined, undefined);
    expect(oneDictionary(column([...r.old, ...r.added]))).toEqual(['A', 'B', 'C']);
  });

  it('stop with a CancelledError once the signal is aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(encodeForStorageAsync(input(), undefined, ac.signal)).rejects.toBeInstanceOf(CancelledError);
    await expect(encodeAppendedAsync([], input(), undefined, ac.signal)).rejects.toBeInstanceOf(CancelledError);
  });
});
