/**
 * The spill area of one environment's cache: a private directory (created on
 * first use, removed on close) holding one Arrow IPC file per spilled batch.
 *
 * Files are uncompressed. Arrow JS 21 can frame compressed IPC bodies
 * (`compressionType` of the writer) but ships no codec: the format allows only
 * LZ4_FRAME and ZSTD, Node 20's zlib has neither, and eddy has no codec
 * dependency. One batch per file keeps dictionary-encoded columns legal (the
 * IPC file format forbids replacing a dictionary between batches) and lets a
 * pruned batch stay unread on disk.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DateDay, DateUnit, Dictionary, Float64, Int32, Int64, Precision, RecordBatch, Table, TimeUnit, TimestampMillisecond, Type, tableFromIPC, tableToIPC,
  type DataType, type Date_, type Float, type Int, type Timestamp,
} from 'apache-arrow';
import { batchFromColumns } from '../exec/batch.js';

/** Spill areas with a directory on disk; removed at process exit if nobody closed them. */
const live = new Set<SpillArea>();
let exitHook = false;

function track(a: SpillArea): void {
  live.add(a);
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => { for (const x of live) x.closeSync(); });
}

/** A lazily created directory of spill files. */
export class SpillArea {
  private dir: string | undefined;
  private readonly made = new Set<number>();

  /** `parent`: where to create the private directory (default: the OS temp directory). */
  constructor(private readonly parent: string | undefined) {}

  /** The directory, or undefined if nothing was spilled yet. */
  get directory(): string | undefined {
    return this.dir;
  }

  /** The path for a block of an instance (creating the directories on first use). */
  pathFor(instance: number, key: string): string {
    if (this.dir === undefined) {
      const parent = this.parent ?? tmpdir();
      mkdirSync(parent, { recursive: true });
      this.dir = mkdtempSync(join(parent, 'eddy-cache-'));
      track(this);
    }
    const sub = join(this.dir, `instance-${instance}`);
    if (!this.made.has(instance)) { mkdirSync(sub, { recursive: true }); this.made.add(instance); }
    return join(sub, `${key.replace(/[^A-Za-z0-9.]+/g, '-')}.arrow`);
  }

  /** Writes one batch as an Arrow IPC file; returns the file's size in bytes. */
  write(path: string, batch: RecordBatch): number {
    const bytes = tableToIPC(new Table([batch]), 'file');
    writeFileSync(path, bytes);
    return bytes.byteLength;
  }

  /** Reads back the batch of a spill file; throws when it is missing or not a one-batch IPC file. */
  read(path: string): RecordBatch {
    const t = tableFromIPC(readFileSync(path));
    const b = t.batches[0];
    if (t.batches.length !== 1 || b === undefined) throw new Error(`spill file ${path} holds ${t.batches.length} batches, expected 1`);
    return withEngineTypes(b);
  }

  /** True when the file exists. */
  exists(path: string): boolean {
    try { return statSync(path).isFile(); } catch { return false; }
  }

  /** Deletes one file now (missing files are fine). */
  removeSync(path: string): void {
    try { unlinkSync(path); } catch { /* already gone */ }
  }

  /** Deletes one file (missing files are fine). */
  async remove(path: string): Promise<void> {
    await unlink(path).catch(() => undefined);
  }

  /** Deletes the whole directory. */
  async close(): Promise<void> {
    const d = this.dir;
    this.dir = undefined;
    this.made.clear();
    live.delete(this);
    if (d !== undefined) await rm(d, { recursive: true, force: true });
  }

  /** Deletes the whole directory synchronously (process exit). */
  closeSync(): void {
    const d = this.dir;
    this.dir = undefined;
    this.made.clear();
    live.delete(this);
    if (d !== undefined) rmSync(d, { recursive: true, force: true });
  }
}

/**
 * The IPC reader types columns with the generic classes (`Float`, `Int_`, `Date_`) where the engine
 * uses their subclasses (`Float64`, `Int32`, `DateDay`). Arrow's schema comparison checks
 * `other instanceof type.constructor`, so a result mixing a batch from memory with one read back from
 * disk could not form one Arrow Table. Re-typing the columns (no copy) keeps spilled batches
 * indistinguishable from resident ones.
 */
function withEngineTypes(b: RecordBatch): RecordBatch {
  let changed = false;
  const cols = b.data.children.map((d) => {
    const t = engineType(d.type);
    if (t === d.type) return d;
    changed = true;
    return d.clone(t);
  });
  return changed ? batchFromColumns(b.schema.fields.map((f) => f.name), cols, b.numRows) : b;
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
