/**
 * Decodes one flat column chunk (a top-level, non-repeated primitive column of one row group)
 * page by page straight into its final Arrow buffers (parquet-sinks.ts).
 *
 * Why not hyparquet's `readColumn`: for an OPTIONAL column (what DuckDB, Spark, pandas and
 * eddy's own writer produce) it assembles every value into a plain JS array with nulls, one
 * push per value (`assembleLists`), which parquet.ts then copied into typed arrays: ~40% of a
 * scan's CPU, plus the GC of the arrays. Here hyparquet only parses page headers
 * (`parquetHeader`), decompresses (`decompressPage`) and reads dictionary pages (`readPlain`);
 * definition levels go to a byte per row and then the validity bitmap, dictionary indices to an
 * Int32Array, PLAIN fixed-width values to one byte copy (no NULL in the page) or a scatter, and
 * PLAIN / dictionary strings to Utf8 offsets and bytes. A V2 page with num_nulls = 0 skips its
 * levels; a V1 page's levels are decoded (without NULLs they are one RLE run: one fill).
 *
 * Pages in any other encoding (DELTA_*, BYTE_STREAM_SPLIT, RLE booleans, dictionary indices
 * wider than 24 bits, BIT_PACKED levels) are decoded by hyparquet's `readDataPage` /
 * `readDataPageV2` (dense values, no assembly) and written through the same sinks, so a chunk
 * may mix encodings (a dictionary that falls back to PLAIN mid-chunk, as writers do when the
 * dictionary grows too big).
 */
import * as arrow from 'apache-arrow';
import type { DataReader, PageHeader } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { decompressPage, readDataPage, readDataPageV2 } from 'hyparquet/src/datapage.js';
import { readPlain } from 'hyparquet/src/plain.js';
import { ExecutionError } from '../relnode/errors.js';
import { decodeIndices, decodeLevels1, MAX_INDEX_WIDTH } from './parquet-rle.js';
import { FixedSink, Utf8Sink, type ColumnSink } from './parquet-sinks.js';

/** hyparquet's column decoder parameters (not exported by its package root). */
export type ColumnDecoder = Parameters<typeof readDataPage>[2];

/** One column chunk to decode. */
export interface FlatChunk {
  /** The chunk's bytes, from its first page (dictionary or data) to its end. */
  readonly bytes: Uint8Array;
  /** Rows in the row group (= values in the chunk: the column is flat). */
  readonly rows: number;
  /** Whether the column is OPTIONAL (definition levels of bit width 1), else REQUIRED. */
  readonly optional: boolean;
  /** hyparquet's decoder parameters (codec, compressors, schema path) for its fallback functions. */
  readonly decoder: ColumnDecoder;
}

/** Scratch arrays, reused from page to page and chunk to chunk (grown on demand). */
export class PageScratch {
  defs = new Uint8Array(0);
  indices = new Int32Array(0);
  levels(n: number): Uint8Array { if (this.defs.length < n) this.defs = new Uint8Array(n); return this.defs; }
  ints(n: number): Int32Array { if (this.indices.length < n) this.indices = new Int32Array(n); return this.indices; }
}

function corrupt(what: string): never {
  throw new ExecutionError(`parquet: ${what}; the file may be corrupt`);
}

const isDictionary = (encoding: string): boolean => encoding === 'PLAIN_DICTIONARY' || encoding === 'RLE_DICTIONARY';

/**
 * A page's dense values decoded by hyparquet (fallback), written through the sink. Returns the
 * present count; when it is below `count`, the rows' levels are in `scratch.defs`.
 */
function writeDecoded(sink: ColumnSink, encoding: string, values: ArrayLike<unknown>, levels: ArrayLike<number> | undefined, row: number, count: number, scratch: PageScratch): number {
  let defs: Uint8Array | null = null, present = count;
  if (levels !== undefined && levels.length > 0) {
    defs = scratch.levels(count);
    present = 0;
    for (let i = 0; i < count; i++) { const d = levels[i] === 1 ? 1 : 0; defs[i] = d; present += d; }
    if (present === count) defs = null;
  }
  if (values.length !== present) corrupt(`a page has ${values.length} values for ${present} non-NULL rows`);
  if (isDictionary(encoding)) {
    if (sink instanceof FixedSink || sink instanceof Utf8Sink) {
      const idx = scratch.ints(present);
      let max = 0;
      for (let i = 0; i < present; i++) { const v = values[i] as number; idx[i] = v; if (!(v <= max)) max = v; }
      sink.writeIndices(idx, max, present, row, count, defs);
    } else corrupt('a dictionary-encoded BOOLEAN page');
  } else sink.writeValues(values, row, count, defs);
  return present;
}

/** Writes a page's values in `encoding` at page[pos, end): `present` of them, for `count` rows from `row`. */
function writeValues(sink: ColumnSink, encoding: string, page: Uint8Array, pos: number, end: number, present: number, row: number, count: number, defs: Uint8Array | null, scratch: PageScratch): boolean {
  if (encoding === 'PLAIN') {
    if (sink instanceof Utf8Sink) sink.writePlain(page, pos, end, row, count, defs);
    else sink.writePlain(page, pos, present, row, count, defs);
    return true;
  }
  if (isDictionary(encoding) && !(sink instanceof FixedSink || sink instanceof Utf8Sink)) return false;
  if (isDictionary(encoding) && pos < end && page[pos]! <= MAX_INDEX_WIDTH) {
    const idx = scratch.ints(present);
    const max = decodeIndices(page, pos + 1, end, page[pos]!, present, idx);
    (sink as FixedSink | Utf8Sink).writeIndices(idx, max, present, row, count, defs);
    return true;
  }
  return false;
}

/** Decodes the chunk into one Arrow column of `chunk.rows` rows. */
export function decodeFlatChunk(chunk: FlatChunk, sink: ColumnSink, scratch: PageScratch): arrow.Data {
  const { bytes, rows, optional, decoder } = chunk;
  const { codec, compressors } = decoder;
  const reader: DataReader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
  let row = 0, nullCount = 0;
  let validity: Uint8Array | undefined;
  while (row < rows) {
    if (reader.offset >= bytes.length) corrupt(`column ${JSON.stringify(decoder.pathInSchema.join('.'))} ends after ${row} of ${rows} rows`);
    const header: PageHeader = parquetHeader(reader);
    const start = reader.offset, end = start + header.compressed_page_size;
    if (end > bytes.length) corrupt('a page runs past its column chunk');
    reader.offset = end;
    const raw = bytes.subarray(start, end);
    let count: number, present: number, defs: Uint8Array | null = null;
    if (header.type === 'DICTIONARY_PAGE') {
      const page = decompressPage(raw, header.uncompressed_page_size, codec, compressors);
      const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
      sink.setDictionary(readPlain({ view, offset: 0 }, decoder.type, header.dictionary_page_header!.num_values, decoder.element.type_length));
      continue;
    } else if (header.type === 'DATA_PAGE') {
      const h = header.data_page_header!;
      count = h.num_values;
      if (count > rows - row) corrupt(`a page holds ${count} values past the row group's ${rows} rows`);
      const page = decompressPage(raw, header.uncompressed_page_size, codec, compressors);
      let pos = 0;
      present = count;
      if (optional && h.definition_level_encoding !== 'RLE') {
        const p = readDataPage(page, h, decoder);
        present = writeDecoded(sink, h.encoding, p.dataPage, p.definitionLevels, row, count, scratch);
        defs = scratch.defs;
      } else {
        if (optional) {
          if (page.length < 4) corrupt('a page ends in its definition levels');
          const len = (page[0]! | (page[1]! << 8) | (page[2]! << 16) | (page[3]! << 24)) >>> 0;
          pos = 4 + len;
          if (pos > page.length) corrupt('definition levels run past the page');
          // (Page statistics could prove null_count = 0, but a NULL-free page's levels are one RLE run: one fill.)
          defs = scratch.levels(count);
          present = decodeLevels1(page, 4, pos, count, defs);
          if (present === count) defs = null;
        }
        if (!writeValues(sink, h.encoding, page, pos, page.length, present, row, count, defs, scratch)) {
          const p = readDataPage(page, h, decoder);
          present = writeDecoded(sink, h.encoding, p.dataPage, p.definitionLevels, row, count, scratch);
          defs = scratch.defs;
        }
      }
    } else if (header.type === 'DATA_PAGE_V2') {
      const h = header.data_page_header_v2!;
      count = h.num_values;
      if (count > rows - row) corrupt(`a page holds ${count} values past the row group's ${rows} rows`);
      const levelsEnd = h.repetition_levels_byte_length + h.definition_levels_byte_length;
      present = count - h.num_nulls;
      if (optional && h.num_nulls > 0) {
        defs = scratch.levels(count);
        present = decodeLevels1(raw, h.repetition_levels_byte_length, levelsEnd, count, defs);
        if (present !== count - h.num_nulls) corrupt(`a page says ${h.num_nulls} NULLs but its levels say ${count - present}`);
      }
      const values = raw.subarray(levelsEnd);
      const page = h.is_compressed === false ? values : decompressPage(values, header.uncompressed_page_size - levelsEnd, codec, compressors);
      if (!writeValues(sink, h.encoding, page, 0, page.length, present, row, count, defs, scratch)) {
        const p = readDataPageV2(raw, header, decoder);
        present = writeDecoded(sink, h.encoding, p.dataPage, p.definitionLevels, row, count, scratch);
        defs = scratch.defs;
      }
    } else {
      throw new ExecutionError(`parquet: unsupported page type ${header.type}`);
    }
    if (present < count) {
      if (defs === null) corrupt('a page has NULLs but no definition levels');
      validity ??= new Uint8Array((rows + 7) >> 3).fill(0xff);
      for (let i = 0; i < count; i++) if (defs[i] !== 1) { const r = row + i; validity[r >> 3]! &= ~(1 << (r & 7)); }
      nullCount += count - present;
    }
    row += count;
  }
  return sink.finish(rows, nullCount, nullCount > 0 ? validity : undefined);
}
