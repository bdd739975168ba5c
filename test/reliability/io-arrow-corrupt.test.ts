/**
 * Seeded corruption of Arrow IPC files: truncations and byte flips at many
 * positions. A damaged file must either read exactly as the original (the
 * damage hit padding or an unused byte) or fail with an EddyError naming the
 * file — never read as different rows. Flips inside data buffers (an int's
 * digits, a string's bytes, an offset nudged but still in order, a NULL and a
 * value swapped within one bitmap byte) cannot be
 * told apart from real data, as Arrow IPC has no checksum: those positions
 * only have to fail cleanly or read, and are counted, not judged.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as arrow from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { arrowFileSource } from '../../src/io/arrow-file.js';
import { EddyError } from '../../src/relnode/errors.js';
import { tempDir } from '../io/file-source-helpers.js';
import { rng } from '../helpers/rng.js';

const tmp = tempDir('io-arrow-corrupt');
afterAll(() => tmp.cleanup());


/** A table of 3 batches: ints with NULLs, bigints, doubles, strings (plain and dictionary), booleans, dates. */
function sample(): arrow.Table {
  const n = 120;
  const words = ['alpha', 'beta', 'gämma', '✓ check', ''];
  const t = new arrow.Table({
    i: arrow.vectorFromArray(Array.from({ length: n }, (_, k) => (k % 7 === 3 ? null : k * 3 - 50)), new arrow.Int32()),
    g: arrow.vectorFromArray(Array.from({ length: n }, (_, k) => BigInt(k) * 1000000007n), new arrow.Int64()),
    d: arrow.vectorFromArray(Array.from({ length: n }, (_, k) => (k % 5 === 0 ? null : k / 8)), new arrow.Float64()),
    s: arrow.vectorFromArray(Array.from({ length: n }, (_, k) => (k % 11 === 0 ? null : `row ${k} ${words[k % 5]}`)), new arrow.Utf8()),
    c: arrow.vectorFromArray(Array.from({ length: n }, (_, k) => (k % 13 === 1 ? null : words[k % 5]!)), new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32(), 0)),
    b: arrow.vectorFromArray(Array.from({ length: n }, (_, k) => (k % 6 === 0 ? null : k % 4 === 0)), new arrow.Bool()),
    dt: arrow.vectorFromArray(Array.from({ length: n }, (_, k) => (k % 9 === 4 ? null : new Date(Date.UTC(2020, 0, 1 + k)))), new arrow.DateDay()),
  });
  const b = t.batches[0]!;
  return new arrow.Table([b.slice(0, 50), b.slice(50, 90), b.slice(90, n)]);
}

/**
 * Everything a reader returns but the column names, as a comparable string
 * (types, nullability, values). A name is data in the schema, which has no
 * checksum: a flip inside one gives another name (a readable one is kept).
 */
async function dump(path: string): Promise<string> {
  const src = await arrowFileSource(path);
  const out: string[] = [JSON.stringify(src.schema.fields.map((f) => [f.type, f.nullable]))];
  for (let p = 0; p < src.partitions; p++) {
    for await (const b of src.scan({ partition: p, batchSize: 1024 })) {
      for (let i = 0; i < b.numRows; i++) {
        out.push(JSON.stringify(b.schema.fields.map((_, k) => b.getChildAt(k)!.get(i)), (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)));
      }
    }
  }
  return out.join('\n');
}

/** Byte ranges of data buffers (validity bitmaps, fixed-width values, offsets, string data, dictionary codes) in an IPC file or stream. */
function valueRanges(bytes: Uint8Array, schema: arrow.Schema, start: number, limit: number, validity: number[] = []): [number, number][] {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ranges: [number, number][] = [];
  let pos = start;
  while (pos + 8 <= limit) {
    const len = dv.getInt32(pos + 4, true);
    if (len === 0) break;
    const m = arrow.Message.decode(bytes.subarray(pos + 8, pos + 8 + len));
    const body = pos + 8 + len;
    if (m.isRecordBatch() || m.isDictionaryBatch()) {
      const h = m.isRecordBatch() ? m.header() : m.header().data;
      const types = m.isRecordBatch() ? schema.fields.map((f) => f.type) : [new arrow.Utf8()];
      let bi = 0;
      for (const t of types) {
        // The validity bitmap is checked against the null count, which catches a flip that changes the
        // count, not one that swaps a NULL and a value within one byte: it is data, like the values.
        validity.push(body + h.buffers[bi]!.offset);
        ranges.push([body + h.buffers[bi]!.offset, body + h.buffers[bi]!.offset + h.buffers[bi]!.length]);
        bi++;
        const values = t.typeId === arrow.Type.Utf8 ? 2 : 1;
        for (let v = 0; v < values; v++, bi++) ranges.push([body + h.buffers[bi]!.offset, body + h.buffers[bi]!.offset + h.buffers[bi]!.length]);
      }
    }
    pos = body + Number(m.bodyLength);
  }
  return ranges;
}

type Outcome = 'identical' | 'error' | 'different';

async function outcome(path: string, bytes: Uint8Array, original: string): Promise<Outcome> {
  writeFileSync(path, bytes);
  try {
    return (await dump(path)) === original ? 'identical' : 'different';
  } catch (err) {
    expect(err, String(err)).toBeInstanceOf(EddyError);
    expect((err as Error).message).toContain(path);
    return 'error';
  } finally {
    rmSync(path, { force: true });
  }
}

describe('corrupted Arrow IPC files', () => {
  for (const format of ['file', 'stream'] as const) {
    it(`never read as different data outside value buffers (${format} format, seeded)`, async () => {
      const table = sample();
      const bytes = arrow.tableToIPC(table, format);
      const good = tmp.path(`good.${format}`);
      writeFileSync(good, bytes);
      const original = await dump(good);
      const footerStart = format === 'file' ? bytes.length - 10 - new DataView(bytes.buffer, bytes.byteOffset).getInt32(bytes.length - 10, true) : bytes.length;
      const ranges = valueRanges(bytes, table.schema, format === 'file' ? 8 : 0, footerStart);
      const inValues = (p: number): boolean => ranges.some(([a, b]) => p >= a && p < b);
      const random = rng(format === 'file' ? 11 : 12);
      const counts = { identical: 0, error: 0, different: 0, valueFlips: 0, valueSilent: 0 };
      const bad = tmp.path(`bad.${format}`);
      const different: string[] = [];
      for (let trial = 0; trial < 250; trial++) {
        const pos = Math.floor(random() * bytes.length);
        const copy = bytes.slice();
        copy[pos] = copy[pos]! ^ (1 + Math.floor(random() * 255));
        const o = await outcome(bad, copy, original);
        if (inValues(pos)) {
          counts.valueFlips++;
          if (o === 'different') counts.valueSilent++;
          continue;
        }
        counts[o]++;
        if (o === 'different') {
          writeFileSync(bad, copy);
          const now = (await dump(bad)).split('\n'), was = original.split('\n');
          const k = now.findIndex((l, j) => l !== was[j]);
          different.push(`byte ${pos} of ${bytes.length} ${bytes[pos]} → ${copy[pos]} line ${k}: ${was[k]} => ${now[k]} (${now.length} vs ${was.length})`);
          rmSync(bad);
        }
      }
      for (let trial = 0; trial < 40; trial++) {
        const cut = Math.floor(random() * bytes.length);
        expect(await outcome(bad, bytes.slice(0, cut), original), `truncated to ${cut} bytes`).toBe('error');
      }
      expect(different).toEqual([]);
      expect(counts.error).toBeGreaterThan(0);
    });
  }

  it('a stream cut at a message boundary fails (the end-of-stream marker is missing)', async () => {
    const bytes = arrow.tableToIPC(sample(), 'stream');
    const p = tmp.path('cut.arrows');
    writeFileSync(p, bytes.subarray(0, bytes.length - 8));
    await expect(arrowFileSource(p)).rejects.toThrow(/end-of-stream marker/);
  });

  it('a null count that disagrees with the validity bitmap fails', async () => {
    const t = new arrow.Table({ i: arrow.vectorFromArray([1, null, 3], new arrow.Int32()) });
    const bytes = arrow.tableToIPC(t, 'file');
    const p = tmp.path('nulls.arrow');
    // Clear the bit of row 0 (a 1 becomes NULL): the stored null count stays 1.
    const validity: number[] = [];
    valueRanges(bytes, t.schema, 8, bytes.length, validity);
    const bitmapAt = validity[0]!;
    expect(bytes[bitmapAt]).toBe(0b101);
    const copy = bytes.slice();
    copy[bitmapAt] = 0b100;
    writeFileSync(p, copy);
    const src = await arrowFileSource(p);
    const read = async (): Promise<void> => { for await (const _ of src.scan({ partition: 0, batchSize: 10 })) { /* drain */ } };
    await expect(read()).rejects.toThrow(/null count 1 but its validity bitmap marks 2 nulls/);
    expect(readFileSync(p).length).toBe(bytes.length);
  });
});
