/**
 * The flat-column page decoder (src/io/parquet-pages.ts) against DuckDB: files DuckDB writes
 * (DATA_PAGE v1 and v2, every codec, NULLs in the middle of pages, decimals on INT32 / INT64 /
 * FIXED_LEN_BYTE_ARRAY, dates, timestamps in ms / us / ns before and after 1970, floats,
 * booleans, dictionary and plain strings, unsigned integers that keep hyparquet's path) and files
 * hyparquet-writer writes (DATA_PAGE_V2, many pages per chunk, DELTA_* and BYTE_STREAM_SPLIT
 * pages that go through hyparquet's page functions), scanned with batch sizes that cut across
 * pages and row groups; DuckDB reads the same file and must give the same values. Plus the
 * RLE / bit-packed decoder on hand-encoded runs and a chunk whose dictionary falls back to PLAIN.
 */
import { readFileSync } from 'node:fs';
import * as arrow from 'apache-arrow';
import { parquetMetadata, type DataReader } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { parquetWriteFile } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parquetSource } from '../../src/io/parquet.js';
import { flatPlan } from '../../src/io/parquet-convert.js';
import { decodeFlatChunk, PageScratch, type ColumnDecoder } from '../../src/io/parquet-pages.js';
import { decodeIndices, decodeLevels1 } from '../../src/io/parquet-rle.js';
import { openDuck, type Duck } from '../helpers/duckdb.js';
import { collect, rowsOf, tempDir } from './file-source-helpers.js';

const tmp = tempDir('parquet-pages');
let duck: Duck;

beforeAll(async () => {
  duck = await openDuck();
  await duck.run('SET threads = 1');
});
afterAll(() => {
  duck.close();
  tmp.cleanup();
});

/** A column's values as plain JS: numbers (bigints that fit), strings, booleans, null. */
function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  return v === undefined ? null : v;
}

/** Every row of a parquet file through eddy's source, every partition, in file order. */
async function eddyRows(file: string, batchSize: number): Promise<unknown[][]> {
  const src = await parquetSource(file);
  const out: unknown[][] = [];
  for (let p = 0; p < src.partitions; p++) {
    for (const r of rowsOf(await collect(src, { partition: p, batchSize }))) out.push(Object.values(r).map(plain));
  }
  return out;
}

async function duckRows(sql: string): Promise<unknown[][]> {
  const reader = await duck.conn.runAndReadAll(sql);
  return reader.getRowsJS().map((r) => r.map(plain));
}

/** Floor of an epoch count divided by m, exact in DuckDB integer arithmetic. */
const floorDiv = (x: string, m: number): string => `((${x}) - (((${x}) % ${m}) + ${m}) % ${m}) // ${m}`;

/** Columns of the DuckDB-written test files, with DuckDB's expression for eddy's value of each. */
const COLUMNS: readonly [string, string, string][] = [
  ['id', 'i::INTEGER', 'id'],
  ['i32', 'CASE WHEN i % 7 = 3 THEN NULL ELSE (i * 31 % 1000 - 500)::INTEGER END', 'i32'],
  ['i64', 'CASE WHEN i % 11 = 5 THEN NULL ELSE i::BIGINT * 100003 - 5000000 END', 'i64'],
  ['big', 'CASE WHEN i % 11 = 6 THEN NULL ELSE (i::BIGINT - 500) * 40000000000000 END', 'big'],
  ['tiny', 'CASE WHEN i % 13 = 1 THEN NULL ELSE (i % 100)::TINYINT END', 'tiny::INTEGER'],
  ['dbl', "CASE WHEN i % 5 = 2 THEN NULL WHEN i = 17 THEN 'NaN'::DOUBLE ELSE i * 0.37 - 100 END", 'dbl'],
  ['flt', 'CASE WHEN i % 9 = 4 THEN NULL ELSE (i / 8 - 3.3)::FLOAT END', 'flt::DOUBLE'],
  ['dec9', 'CASE WHEN i % 6 = 0 THEN NULL ELSE (i * 1.25 - 777)::DECIMAL(9, 2) END', 'dec9::DOUBLE'],
  ['dec18', 'CASE WHEN i % 6 = 1 THEN NULL ELSE (i * 12345.678 - 99999)::DECIMAL(18, 3) END', 'dec18::DOUBLE'],
  ['dec30', 'CASE WHEN i % 6 = 2 THEN NULL ELSE (i * 1.5)::DECIMAL(30, 2) END', 'dec30::DOUBLE'],
  ['day', "CASE WHEN i % 8 = 7 THEN NULL ELSE DATE '1965-01-01' + (i % 30000)::INTEGER END", "day - DATE '1970-01-01'"],
  ['ts', "CASE WHEN i % 10 = 3 THEN NULL ELSE TIMESTAMP '1969-12-31 23:50:00' + to_microseconds(i::BIGINT * 1234567) END", floorDiv('epoch_us(ts)', 1000)],
  ['ts_ms', "CASE WHEN i % 10 = 4 THEN NULL ELSE (TIMESTAMP '2001-01-01' + to_microseconds(i::BIGINT * 999))::TIMESTAMP_MS END", 'epoch_ms(ts_ms)'],
  ['ts_ns', "CASE WHEN i % 10 = 5 THEN NULL ELSE (TIMESTAMP '1969-12-31 23:59:59' + to_microseconds(i::BIGINT * 1001))::TIMESTAMP_NS END", floorDiv('epoch_ns(ts_ns)', 1000000)],
  ['flag', 'CASE WHEN i % 4 = 1 THEN NULL ELSE i % 3 = 0 END', 'flag'],
  ['word', "CASE WHEN i % 3 = 1 THEN NULL ELSE 'k' || (i % 50) END", 'word'],
  ['text', "CASE WHEN i % 17 = 2 THEN NULL ELSE md5(i::VARCHAR) || repeat('é', (i % 5)::INTEGER) END", 'text'],
  ['half', 'CASE WHEN i % 2 = 0 THEN NULL ELSE i END', 'half'],
  ['nulls', 'NULL::INTEGER', 'nulls'],
  ['u32', '(i * 7)::UINTEGER', 'u32::BIGINT'],
];

async function writeDuck(name: string, rows: number, options: string): Promise<string> {
  const file = tmp.path(name);
  await duck.run(`COPY (SELECT ${COLUMNS.map(([n, e]) => `${e} AS ${n}`).join(', ')} FROM range(${rows}) t(i) ORDER BY i) TO '${file}' (FORMAT parquet${options})`);
  return file;
}

async function expectSameAsDuck(file: string, batchSize: number): Promise<void> {
  const expected = await duckRows(`SELECT ${COLUMNS.map(([n, , e]) => `${e} AS ${n}`).join(', ')} FROM read_parquet('${file}') ORDER BY id`);
  const actual = await eddyRows(file, batchSize);
  expect(actual.length).toBe(expected.length);
  for (let r = 0; r < expected.length; r++) {
    for (let c = 0; c < COLUMNS.length; c++) {
      const a = actual[r]![c], e = expected[r]![c];
      if (!Object.is(a, e) && !(typeof a === 'number' && typeof e === 'number' && a === e)) {
        throw new Error(`row ${r} column ${COLUMNS[c]![0]}: eddy ${String(a)}, DuckDB ${String(e)}`);
      }
    }
  }
}

describe('flat column pages DuckDB wrote', () => {
  it('DATA_PAGE v1, snappy, three row groups, batches across row groups', async () => {
    const file = await writeDuck('v1.parquet', 5000, ', ROW_GROUP_SIZE 2048');
    const src = await parquetSource(file);
    expect(src.partitions).toBe(3);
    await expectSameAsDuck(file, 700);
  });

  it('DATA_PAGE_V2 (DuckDB PARQUET_VERSION v2: delta and byte-stream-split pages too)', async () => {
    await expectSameAsDuck(await writeDuck('v2.parquet', 5000, ', ROW_GROUP_SIZE 2048, PARQUET_VERSION v2'), 1000);
  });

  for (const codec of ['zstd', 'gzip', 'lz4', 'lz4_raw', 'uncompressed']) {
    it(`${codec} pages`, async () => {
      await expectSameAsDuck(await writeDuck(`c-${codec}.parquet`, 1500, `, COMPRESSION ${codec}`), 4096);
    });
  }
});

describe('flat column pages hyparquet-writer wrote', () => {
  it('many DATA_PAGE_V2 pages per chunk in every encoding it writes, NULLs mid-page', async () => {
    const n = 6000;
    const file = tmp.path('hw.parquet');
    const ints = Array.from({ length: n }, (_, i) => (i % 9 === 4 ? null : i * 7 - 20000));
    const longs = Array.from({ length: n }, (_, i) => (i % 7 === 2 ? null : BigInt(i) * 123456789n - 9n ** 15n));
    const dbls = Array.from({ length: n }, (_, i) => (i % 5 === 1 ? null : i / 3 - 77));
    const strs = Array.from({ length: n }, (_, i) => (i % 4 === 3 ? null : `s${i % 37}-${'x'.repeat(i % 11)}`));
    const bools = Array.from({ length: n }, (_, i) => (i % 6 === 5 ? null : i % 3 === 1));
    parquetWriteFile({
      filename: file,
      pageSize: 2000,
      rowGroupSize: 2500,
      columnData: [
        { name: 'id', data: Int32Array.from({ length: n }, (_, i) => i), type: 'INT32', nullable: false },
        { name: 'a_plain', data: ints, type: 'INT32', encoding: 'PLAIN' },
        { name: 'a_delta', data: ints, type: 'INT32', encoding: 'DELTA_BINARY_PACKED' },
        { name: 'a_dict', data: ints.map((v) => (v === null ? null : v % 100)), type: 'INT32' },
        { name: 'b_plain', data: longs, type: 'INT64', encoding: 'PLAIN' },
        { name: 'b_delta', data: longs, type: 'INT64', encoding: 'DELTA_BINARY_PACKED' },
        { name: 'd_plain', data: dbls, type: 'DOUBLE', encoding: 'PLAIN' },
        { name: 'd_split', data: dbls, type: 'DOUBLE', encoding: 'BYTE_STREAM_SPLIT' },
        { name: 's_plain', data: strs, type: 'STRING', encoding: 'PLAIN' },
        { name: 's_dict', data: strs, type: 'STRING' },
        { name: 's_delta', data: strs, type: 'STRING', encoding: 'DELTA_BYTE_ARRAY' },
        { name: 's_dlen', data: strs, type: 'STRING', encoding: 'DELTA_LENGTH_BYTE_ARRAY' },
        { name: 'flag', data: bools, type: 'BOOLEAN' },
      ],
    });
    const bytes = new Uint8Array(readFileSync(file));
    const meta = parquetMetadata(bytes);
    const pages = pageTypes(bytes, meta.row_groups[0]!.columns[9]!.meta_data!);
    expect(pages.filter((t) => t === 'DATA_PAGE_V2').length).toBeGreaterThan(1); // s_dict: several pages after its dictionary
    expect(pages[0]).toBe('DICTIONARY_PAGE');
    const names = ['id', 'a_plain', 'a_delta', 'a_dict', 'b_plain', 'b_delta', 'd_plain', 'd_split', 's_plain', 's_dict', 's_delta', 's_dlen', 'flag'];
    const expected = await duckRows(`SELECT ${names.join(', ')} FROM read_parquet('${file}') ORDER BY id`);
    expect(await eddyRows(file, 999)).toEqual(expected);
    expect(expected[3]!.slice(0, 6)).toEqual([3, -19979, -19979, -79, 3n * 123456789n - (9n ** 15n), 3n * 123456789n - (9n ** 15n)].map(plain));
  });
});

/** The page types of a column chunk, in order. */
function pageTypes(file: Uint8Array, meta: { dictionary_page_offset?: bigint; data_page_offset: bigint; total_compressed_size: bigint }): string[] {
  return pagesOf(file, meta).map((p) => p.type);
}

/** A column chunk split into its pages (header and body bytes each). */
function pagesOf(file: Uint8Array, meta: { dictionary_page_offset?: bigint; data_page_offset: bigint; total_compressed_size: bigint }): { type: string; bytes: Uint8Array }[] {
  const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
  const chunk = file.subarray(start, start + Number(meta.total_compressed_size));
  const reader: DataReader = { view: new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength), offset: 0 };
  const out: { type: string; bytes: Uint8Array }[] = [];
  while (reader.offset < chunk.length) {
    const at = reader.offset;
    const h = parquetHeader(reader);
    reader.offset += h.compressed_page_size;
    out.push({ type: h.type, bytes: chunk.subarray(at, reader.offset) });
  }
  return out;
}

describe('a dictionary that falls back to PLAIN mid-chunk', () => {
  for (const [type, make] of [
    ['STRING', (i: number) => (i % 5 === 0 ? null : `v${i % 7}`)],
    ['INT64', (i: number) => (i % 5 === 0 ? null : BigInt(i % 7) * 10000000000n)],
  ] as const) {
    it(`${type}: dictionary page, dictionary-encoded pages, then PLAIN pages`, async () => {
      const n = 3000;
      const values = Array.from({ length: 2 * n }, (_, i) => make(i));
      const write = (name: string, data: unknown[], encoding?: 'PLAIN'): Uint8Array => {
        const file = tmp.path(name);
        parquetWriteFile({ filename: file, codec: 'UNCOMPRESSED', pageSize: 1500, rowGroupSize: 100_000, columnData: [{ name: 'v', data: data as never, type, ...(encoding ? { encoding } : {}) }] });
        return new Uint8Array(readFileSync(file));
      };
      const dictFile = write(`fb-${type}-a.parquet`, values.slice(0, n));
      const plainFile = write(`fb-${type}-b.parquet`, values.slice(n), 'PLAIN');
      const metaA = parquetMetadata(dictFile), metaB = parquetMetadata(plainFile);
      const a = pagesOf(dictFile, metaA.row_groups[0]!.columns[0]!.meta_data!), b = pagesOf(plainFile, metaB.row_groups[0]!.columns[0]!.meta_data!);
      expect(a[0]!.type).toBe('DICTIONARY_PAGE');
      expect(b.some((p) => p.type === 'DICTIONARY_PAGE')).toBe(false);
      const parts = [...a, ...b].map((p) => p.bytes);
      const bytes = new Uint8Array(parts.reduce((k, p) => k + p.length, 0));
      parts.reduce((at, p) => { bytes.set(p, at); return at + p.length; }, 0);
      const element = metaA.schema[1]!;
      const plan = flatPlan({ type: type === 'STRING' ? 'VARCHAR' : 'BIGINT', decimalScale: -1, timeUnitMs: 0 }, element)!;
      const decoder: ColumnDecoder = { pathInSchema: ['v'], type: element.type!, element, schemaPath: [], codec: 'UNCOMPRESSED', parsers: {} as ColumnDecoder['parsers'] };
      const data = decodeFlatChunk({ bytes, rows: 2 * n, optional: true, decoder }, plan(2 * n, 0), new PageScratch());
      expect(data.nullCount).toBe((2 * n) / 5);
      const got = Array.from({ length: 2 * n }, (_, i) => {
        if ((data.nullBitmap![i >> 3]! & (1 << (i & 7))) === 0) return null;
        if (type === 'INT64') return (data.values as BigInt64Array)[i];
        const o = data.valueOffsets as Int32Array;
        return Buffer.from((data.values as Uint8Array).subarray(o[i]!, o[i + 1]!)).toString();
      });
      expect(got).toEqual(values);
    });
  }
});

describe('a VARCHAR chunk of dictionary-encoded pages only', () => {
  const n = 3000;
  const values = Array.from({ length: n }, (_, i) => (i % 5 === 0 ? null : `v${i % 7}`));
  /** The pages of a one-column file of `values` (dictionary page first), and a decoder for them. */
  const chunk = (name: string): { bytes: Uint8Array; decoder: ColumnDecoder; element: ReturnType<typeof parquetMetadata>['schema'][number] } => {
    const file = tmp.path(name);
    parquetWriteFile({ filename: file, codec: 'UNCOMPRESSED', pageSize: 1500, rowGroupSize: 100_000, columnData: [{ name: 'v', data: values as never, type: 'STRING' }] });
    const raw = new Uint8Array(readFileSync(file));
    const meta = parquetMetadata(raw);
    const pages = pagesOf(raw, meta.row_groups[0]!.columns[0]!.meta_data!);
    expect(pages[0]!.type).toBe('DICTIONARY_PAGE');
    expect(pages.length).toBeGreaterThan(2);
    const bytes = new Uint8Array(pages.reduce((k, p) => k + p.bytes.length, 0));
    pages.reduce((at, p) => { bytes.set(p.bytes, at); return at + p.bytes.length; }, 0);
    const element = meta.schema[1]!;
    return { bytes, element, decoder: { pathInSchema: ['v'], type: element.type!, element, schemaPath: [], codec: 'UNCOMPRESSED', parsers: {} as ColumnDecoder['parsers'] } };
  };
  const decode = (c: ReturnType<typeof chunk>): ReturnType<typeof decodeFlatChunk> => {
    const plan = flatPlan({ type: 'VARCHAR', decimalScale: -1, timeUnitMs: 0 }, c.element)!;
    return decodeFlatChunk({ bytes: c.bytes, rows: n, optional: true, decoder: c.decoder }, plan(n, 0), new PageScratch());
  };
  const strings = (data: ReturnType<typeof decodeFlatChunk>): (string | null)[] => Array.from({ length: n }, (_, i) => {
    if ((data.nullBitmap![i >> 3]! & (1 << (i & 7))) === 0) return null;
    return String(arrow.makeVector(data).get(i));
  });

  // Kept as codes over the file's dictionary: no string copied per row, and grouping works on codes.
  it('stays dictionary-encoded over the file\'s dictionary', () => {
    const data = decode(chunk('dict-only.parquet'));
    expect(arrow.DataType.isDictionary(data.type)).toBe(true);
    expect(data.nullCount).toBe(n / 5);
    expect([...data.dictionary!].sort()).toEqual(['v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6']);
    expect(strings(data)).toEqual(values);
  });

  // Grouping by code needs distinct entries; a dictionary that repeats a string is written out as strings.
  it('is decoded to strings when the dictionary repeats an entry', () => {
    const c = chunk('dict-dup.parquet');
    const text = Buffer.from(c.bytes);
    const at = text.indexOf('v1');
    expect(at).toBeGreaterThan(0);
    c.bytes[at + 1] = '0'.charCodeAt(0); // the dictionary's "v1" becomes a second "v0"
    const data = decode(c);
    expect(data.typeId).toBe(arrow.Type.Utf8);
    expect(strings(data)).toEqual(values.map((v) => (v === 'v1' ? 'v0' : v)));
  });
});

/** Encodes values as alternating bit-packed and RLE runs of the hybrid encoding (little-endian bits). */
function encodeHybrid(values: readonly number[], width: number): Uint8Array {
  const out: number[] = [];
  const varint = (v: number): void => { while (v >= 0x80) { out.push((v & 0x7f) | 0x80); v >>>= 7; } out.push(v); };
  let i = 0, packed = true;
  while (i < values.length) {
    if (packed) {
      const groups = Math.min(3, Math.ceil((values.length - i) / 8));
      varint((groups << 1) | 1);
      let acc = 0, bits = 0;
      for (let k = 0; k < groups * 8; k++) {
        acc += (values[i + k] ?? 0) * 2 ** bits;
        bits += width;
        while (bits >= 8) { out.push(acc % 256); acc = Math.floor(acc / 256); bits -= 8; }
      }
      i += groups * 8;
    } else {
      let run = 1;
      while (i + run < values.length && values[i + run] === values[i]) run++;
      varint(run << 1);
      for (let k = 0; k < (width + 7) >> 3; k++) out.push((values[i]! >>> (8 * k)) & 0xff);
      i += run;
    }
    packed = !packed;
  }
  return Uint8Array.from(out);
}

describe('RLE / bit-packed hybrid decoder', () => {
  it('decodes dictionary indices of every width 1..24 from mixed runs', () => {
    for (let width = 1; width <= 24; width++) {
      const max = 2 ** width - 1;
      const values = Array.from({ length: 203 }, (_, i) => (i % 40 < 20 ? (i * 2654435761) % (max + 1) : Math.min(max, 5)));
      const bytes = encodeHybrid(values, width);
      const out = new Int32Array(values.length);
      expect(decodeIndices(bytes, 0, bytes.length, width, values.length, out)).toBe(Math.max(...values));
      expect(Array.from(out), `width ${width}`).toEqual(values);
    }
  });

  it('decodes one-bit levels, counting the present values, and rejects truncated runs', () => {
    const levels = Array.from({ length: 333 }, (_, i) => (i % 50 < 25 ? i % 2 : i % 7 === 0 ? 0 : 1));
    const bytes = encodeHybrid(levels, 1);
    const out = new Uint8Array(levels.length);
    expect(decodeLevels1(bytes, 0, bytes.length, levels.length, out)).toBe(levels.filter((v) => v === 1).length);
    expect(Array.from(out)).toEqual(levels);
    expect(() => decodeLevels1(bytes, 0, bytes.length - 3, levels.length, out)).toThrow(/corrupt/);
  });
});
