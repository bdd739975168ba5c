/**
 * The spill area of one environment's cache: a private directory (created on
 * first use, removed on close) holding one file per spilled batch, within a
 * disk budget. A file is the batch's columns one after the other, each an
 * Arrow IPC file of its own (spill-format.ts), so a read loads only the
 * columns it needs.
 *
 * Files are uncompressed. Arrow JS 21 can frame compressed IPC bodies
 * (`compressionType` of the writer) but ships no codec: the format allows only
 * LZ4_FRAME and ZSTD, Node 20's zlib has neither, and eddy has no codec
 * dependency. One batch per file keeps dictionary-encoded columns legal (the
 * IPC file format forbids replacing a dictionary between batches) and lets a
 * pruned batch stay unread on disk.
 *
 * Integrity: the writer returns the file's length and the CRC-32 of every
 * column, which the caller keeps in memory; a read refuses a file whose
 * length differs, and a column whose checksum differs, before parsing it. A
 * changed file is thus a lost block (C14), never a wrong answer.
 *
 * Disk budget: the file's bytes are known before it is written (the IPC
 * encoding is built in memory), so a spill that would take the area past its
 * budget, or leave the volume with too little free space (minFreeBytes), is not
 * written at all (`write` returns the reason); the caller drops the block as
 * MEMORY_ONLY would. The default budget is a fraction of the volume's free
 * space when the area is first used, capped (storage.ts).
 */
import { closeSync, mkdirSync, openSync, rmSync, statSync, statfsSync, unlinkSync, writeSync, writevSync } from 'node:fs';
import { rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DateDay, DateUnit, Dictionary, Float64, Int32, Int64, Precision, TimeUnit, TimestampMillisecond, Type,
  type Data, type DataType, type Date_, type Float, type Int, type RecordBatch, type Timestamp,
} from 'apache-arrow';
import { batchFromColumns } from '../exec/batch.js';
import { encodeBlock, readSegments, type SpillSegment } from './spill-format.js';
import { createSpillDir, sweepStaleSpillDirsOnce, trackSpillArea, untrackSpillArea } from './spill-dirs.js';
import { defaultDiskBudget } from './storage.js';

/** A spill never leaves the volume with less free space than 5% of its size, at least 256 MiB and at most 2 GiB. */
export function minFreeBytes(volumeBytes: number | undefined): number {
  const MIB = 1024 ** 2;
  if (volumeBytes === undefined) return 256 * MIB;
  return Math.min(2048 * MIB, Math.max(256 * MIB, Math.floor(volumeBytes * 0.05)));
}

/** Pieces one writev call takes at most (below every platform's IOV_MAX). */
const WRITEV_PIECES = 512;

/**
 * Writes `parts` in order at the file's current position: a writev per WRITEV_PIECES pieces (a
 * block's IPC segments come in ~15 pieces per column: headers, padding, the columns' buffers),
 * finishing a short write piece by piece.
 */
function writeParts(fd: number, parts: readonly Uint8Array[]): void {
  for (let i = 0; i < parts.length; i += WRITEV_PIECES) {
    const group = parts.slice(i, i + WRITEV_PIECES);
    let done = writevSync(fd, group);
    for (const part of group) {
      if (done >= part.byteLength) { done -= part.byteLength; continue; }
      for (let at = done; at < part.byteLength;) at += writeSync(fd, part, at, part.byteLength - at);
      done = 0;
    }
  }
}

/** What a written spill file is: its length, rows, column names and per-column segments with checksums (kept by the caller, checked on read). */
export interface SpillFile {
  readonly path: string;
  readonly fileBytes: number;
  readonly rows: number;
  readonly names: readonly string[];
  readonly segments: readonly SpillSegment[];
}

/** Free bytes for unprivileged users and the size of the volume holding `path` (undefined when unknown). */
export function volumeAt(path: string): { free: number; size: number } | undefined {
  try {
    const s = statfsSync(path);
    return { free: Number(s.bavail) * Number(s.bsize), size: Number(s.blocks) * Number(s.bsize) };
  } catch {
    return undefined;
  }
}

/** A lazily created directory of spill files. */
export class SpillArea {
  private dir: string | undefined;
  private readonly made = new Set<number>();
  private budget: number | undefined;
  private used = 0;

  /**
   * `parent`: where to create the private directory (default: the OS temp directory).
   * `budgetBytes`: the most bytes of spill files at once (undefined: the default, fixed at first use).
   */
  constructor(private readonly parent: string | undefined, budgetBytes?: number) {
    this.budget = budgetBytes;
    sweepStaleSpillDirsOnce(this.parentDir()); // directories of dead processes go at the next start
  }

  /** The directory, or undefined if nothing was spilled yet. */
  get directory(): string | undefined {
    return this.dir;
  }

  /** Bytes of spill files now. */
  get usedBytes(): number {
    return this.used;
  }

  /** The disk budget in bytes (computing the default on first call). */
  get budgetBytes(): number {
    if (this.budget === undefined) this.budget = defaultDiskBudget(volumeAt(this.parentDir())?.free);
    return this.budget;
  }

  private parentDir(): string {
    return this.parent ?? tmpdir();
  }

  /** The path for a block of an instance (creating the directories on first use). */
  pathFor(instance: number, key: string): string {
    if (this.dir === undefined) {
      this.dir = createSpillDir(this.parentDir());
      trackSpillArea(this);
    }
    const sub = join(this.dir, `instance-${instance}`);
    if (!this.made.has(instance)) { mkdirSync(sub, { recursive: true }); this.made.add(instance); }
    return join(sub, `${key.replace(/[^A-Za-z0-9.]+/g, '-')}.arrow`);
  }

  /**
   * Writes one batch (its columns as Arrow IPC segments, spill-format.ts). Returns the file, or a
   * string saying why it was not written (the disk budget or the volume's free space); throws when
   * the write fails (the partial file is removed).
   */
  write(instance: number, key: string, batch: RecordBatch): SpillFile | string {
    const enc = encodeBlock(batch);
    const size = enc.bytes;
    const budget = this.budgetBytes;
    if (this.used + size > budget) return `the disk budget of ${budget} bytes would be exceeded (${this.used} bytes spilled, this block needs ${size})`;
    const path = this.pathFor(instance, key);
    const vol = volumeAt(path);
    const floor = minFreeBytes(vol?.size);
    if (vol !== undefined && vol.free - size < floor) return `the spill volume has only ${vol.free} bytes free (a spill keeps at least ${floor} free)`;
    try {
      const fd = openSync(path, 'w');
      try {
        writeParts(fd, enc.parts);
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      try { unlinkSync(path); } catch { /* never created */ }
      throw e;
    }
    this.used += size;
    return { path, fileBytes: size, rows: enc.rows, names: enc.names, segments: enc.segments };
  }

  /** Reads back the whole batch of a spill file; throws when it is missing or changed (length or a column's checksum) or not what was written. */
  read(file: SpillFile): RecordBatch {
    return batchFromColumns(file.names, this.readColumns(file, file.names.map((_, i) => i)), file.rows);
  }

  /** Reads back columns `ordinals` of a spill file (in that order), checking each; throws as `read`. */
  readColumns(file: SpillFile, ordinals: readonly number[]): Data[] {
    return readSegments(file, ordinals).map(withEngineType);
  }

  /** True when the file exists. */
  exists(path: string): boolean {
    try { return statSync(path).isFile(); } catch { return false; }
  }

  /** Deletes one file now (missing files are fine). */
  removeSync(file: SpillFile): void {
    this.used -= file.fileBytes;
    try { unlinkSync(file.path); } catch { /* already gone */ }
  }

  /**
   * Deletes one file (missing files are fine). Its bytes leave the budget only once the file is gone:
   * counted free at once, a write racing the unlink could put the disk one block over the budget.
   */
  async remove(file: SpillFile): Promise<void> {
    await unlink(file.path).catch(() => undefined);
    this.used -= file.fileBytes;
  }

  /** Deletes the whole directory. */
  async close(): Promise<void> {
    const d = this.dir;
    this.reset();
    if (d !== undefined) await rm(d, { recursive: true, force: true });
  }

  /** Deletes the whole directory synchronously (process exit, signals). */
  closeSync(): void {
    const d = this.dir;
    this.reset();
    if (d !== undefined) rmSync(d, { recursive: true, force: true });
  }

  private reset(): void {
    this.dir = undefined;
    this.made.clear();
    this.used = 0;
    untrackSpillArea(this);
  }
}

/**
 * The IPC reader types columns with the generic classes (`Float`, `Int_`, `Date_`) where the engine
 * uses their subclasses (`Float64`, `Int32`, `DateDay`). Arrow's schema comparison checks
 * `other instanceof type.constructor`, so a result mixing a batch from memory with one read back from
 * disk could not form one Arrow Table. Re-typing the column (no copy) keeps spilled data
 * indistinguishable from resident data.
 */
export function withEngineType(d: Data): Data {
  const t = engineType(d.type);
  return t === d.type ? d : d.clone(t);
}

/** A batch read by the IPC reader with its columns re-typed as the engine's classes (withEngineType). */
export function withEngineTypes(b: RecordBatch): RecordBatch {
  const cols = b.data.children.map(withEngineType);
  return cols.some((c, i) => c !== b.data.children[i]) ? batchFromColumns(b.schema.fields.map((f) => f.name), cols, b.numRows) : b;
}

/** The engine's class for a canonical physical type (the same object for Bool, Utf8, Null and non-canonical types). */
function engineType(t: DataType): DataType {
  switch (t.typeId) {
    case Type.Int: {
      const i = t as Int;
      if (!i.isSigned || i instanceof Int32 || i instanceof Int64) return t;
      return i.bitWidth === 32 ? new Int32() : i.bitWidth === 64 ? new Int64() : t;
    }
    case Type.Float: return (t as Float).precision === Precision.DOUBLE && !(t instanceof Float64) ? new Float64() : t;
    case Type.Date: return (t as Date_).unit === DateUnit.DAY && !(t instanceof DateDay) ? new DateDay() : t;
    case Type.Timestamp: {
      const ts = t as Timestamp;
      return ts.unit === TimeUnit.MILLISECOND && !ts.timezone && !(t instanceof TimestampMillisecond) ? new TimestampMillisecond() : t;
    }
    case Type.Dictionary: {
      const d = t as Dictionary;
      const indices = engineType(d.indices) as Int32;
      const values = engineType(d.dictionary);
      return indices === d.indices && values === d.dictionary ? t : new Dictionary(values, indices, d.id, d.isOrdered);
    }
    default: return t;
  }
}
