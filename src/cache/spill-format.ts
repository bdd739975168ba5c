/**
 * The layout of one spill file: the block's columns one after the other,
 * each an Arrow IPC file of one one-column record batch (readable by any
 * Arrow reader from its offset), with the offset, length and CRC-32 of every
 * column kept in memory by the writer (SpillFile).
 *
 * Decision: per-column segments rather than one IPC file per block. A query
 * over a spilled entry usually needs a few of its columns (the suite's cache
 * workload reads 1–3 of 10), and Arrow JS can only parse a whole IPC file:
 * with one file per block, every read of a spilled block read, checksummed
 * and parsed all columns — a cached count over an entry spilled to three
 * quarters read ~120 MB from disk per query and was slower than recomputing
 * the join. With segments a read touches only the columns it needs (one
 * positioned read each), and each is still verified (length of the file,
 * CRC-32 of the segment) before it is parsed, so a changed byte in a column
 * that is read is a lost block, never a wrong answer; a change in a column
 * no query reads is harmless until one does.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { RecordBatch, RecordBatchFileWriter, Table, tableFromIPC, type Data } from 'apache-arrow';
import { batchFromColumns } from '../exec/batch.js';
import { crc32 } from './checksum.js';

/** Where one column's IPC bytes are in the file. */
export interface SpillSegment {
  readonly offset: number;
  readonly length: number;
  readonly crc: number;
}

/** The encoded segments of a batch and their places in the file. */
export interface EncodedBlock {
  /** The file's bytes in order, in pieces (headers, padding, and views of the columns' own buffers). */
  readonly parts: readonly Uint8Array[];
  readonly segments: readonly SpillSegment[];
  readonly names: readonly string[];
  readonly rows: number;
  readonly bytes: number;
}

/**
 * The pieces of one column's IPC file. Decision: the writer's queued pieces as they are (its
 * headers and padding, and views of the column's buffers) rather than `tableToIPC`, which joins
 * them into one new array: that copy, and its fresh ArrayBuffer of the block's size, was a third
 * of the encoding's CPU and 119 MB of external memory (mark-compacts) when the suite's `j` spilled
 * three quarters of itself (bench/cache-build.ts `over`). The file's bytes are the same. The queue
 * is Arrow JS's own field (`_sink._values`, apache-arrow 21); if it is not where it is expected
 * the joined copy is used instead.
 */
function ipcPieces(one: RecordBatch): Uint8Array[] {
  const w = RecordBatchFileWriter.writeAll(new Table([one]));
  const queued = (w as unknown as { _sink?: { _values?: unknown } })._sink?._values;
  if (Array.isArray(queued) && queued.length > 0 && queued.every((c) => c instanceof Uint8Array)) return queued as Uint8Array[];
  return [w.toUint8Array(true)];
}

/** Encodes each column of `batch` as an IPC file of its own. */
export function encodeBlock(batch: RecordBatch): EncodedBlock {
  const names = batch.schema.fields.map((f) => f.name);
  const parts: Uint8Array[] = [];
  const segments: SpillSegment[] = [];
  let offset = 0;
  const cols = batch.data.children;
  for (let i = 0; i < cols.length; i++) {
    const pieces = ipcPieces(batchFromColumns([names[i]!], [cols[i]!], batch.numRows));
    let length = 0;
    let crc = 0;
    for (const p of pieces) { parts.push(p); length += p.byteLength; crc = crc32(p, crc); }
    segments.push({ offset, length, crc });
    offset += length;
  }
  return { parts, segments, names, rows: batch.numRows, bytes: offset };
}

/** What reading needs to know about a spill file (kept by its writer). */
export interface SegmentedFile {
  readonly path: string;
  readonly fileBytes: number;
  readonly segments: readonly SpillSegment[];
  readonly rows: number;
}

const hex = (n: number): string => n.toString(16).padStart(8, '0');

/**
 * Reads columns `ordinals` of a spill file (each verified, then parsed); the Data come back in
 * the order asked, typed as the IPC reader types them. Throws when the file is missing, has
 * another length than was written, a segment's checksum differs, or a segment is not a
 * one-column, one-batch IPC file of the block's length.
 */
export function readSegments(file: SegmentedFile, ordinals: readonly number[]): Data[] {
  const fd = openSync(file.path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size !== file.fileBytes) throw new Error(`spill file ${file.path} has ${size} bytes, ${file.fileBytes} were written`);
    return ordinals.map((c) => {
      const s = file.segments[c];
      if (s === undefined) throw new Error(`spill file ${file.path} has no column ${c}`);
      const bytes = new Uint8Array(s.length); // its own buffer: IPC bodies are 8-byte aligned from its start
      let got = 0;
      while (got < s.length) {
        const n = readSync(fd, bytes, got, s.length - got, s.offset + got);
        if (n === 0) throw new Error(`spill file ${file.path} ended inside column ${c}`);
        got += n;
      }
      const crc = crc32(bytes);
      if (crc !== s.crc) throw new Error(`spill file ${file.path} is corrupt: checksum ${hex(crc)} of column ${c}, ${hex(s.crc)} was written`);
      const t = tableFromIPC(bytes);
      const b = t.batches[0];
      if (t.batches.length !== 1 || b === undefined || b.numCols !== 1 || b.numRows !== file.rows) {
        throw new Error(`spill file ${file.path}: column ${c} holds ${t.batches.length} batches of ${b?.numCols ?? 0} columns and ${b?.numRows ?? 0} rows, expected 1 of 1 and ${file.rows}`);
      }
      return b.data.children[0]!;
    });
  } finally {
    closeSync(fd);
  }
}
