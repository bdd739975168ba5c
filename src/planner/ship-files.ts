/**
 * File scans on worker threads (docs/files.md "Parallel scans", docs/multi-core.md): a stage
 * whose distributed scan reads Parquet files deals the files' row groups to its shares, and
 * each share — a worker, or the calling thread — opens the files itself and decodes only its
 * own row groups, with the same decoder, column pruning and row-group pruning as one thread.
 *
 * Decision: a morsel is a whole row group (for several files, a (file, row group) pair), dealt
 * round-robin in file order after the row groups that the scan's pushed filters prune are taken
 * out (so pruning does not unbalance the deal). Decoding is the work to divide (~30 ns per row
 * and column at SF 1), a row group is the unit the decoder reads, and a fixed deal keeps a
 * share's rows — and so DOUBLE sums — the same from run to run, as ship-tables.ts's morsels do.
 * Nothing of the file goes through shared memory or the coordinator: a task names the files
 * (path, size, modification time, row groups) and the pairs its share reads.
 *
 * Decision: each thread keeps the sources it opened (the parsed footers: ~20–90 ms for TPC-H
 * lineitem's 49 row groups) by path, size and modification time, a few files at most; the
 * calling thread's share reads the coordinator's own source. A thread that opens a file again
 * checks that its row groups are the ones the coordinator dealt, and fails with a message
 * naming the file when they are not (the file was replaced); a file that vanished fails as it
 * does on one thread ("cannot open parquet file ...").
 */
import type { Scan } from '../relnode/rel.js';
import type { RexNode } from '../relnode/rex.js';
import type { Schema } from '../relnode/types.js';
import { CancelledError, ExecutionError } from '../relnode/errors.js';
import type { FilePartitions, ScanOptions, TableSource } from '../io/source.js';
import { isMemorySource } from '../io/memory.js';
import { parquetSource } from '../io/parquet.js';
import type { RecordBatch } from 'apache-arrow';
import { LRUCache } from 'lru-cache';

/** A file as a task names it: what the coordinator saw when it opened it. */
export interface ShippedFile {
  readonly format: 'parquet';
  readonly path: string;
  readonly bytes: number;
  readonly mtimeMs: number;
  readonly partitionRows: readonly number[];
}

/** A stage's distributed scan over files, as one share's task carries it. */
export interface FileMorsels {
  readonly key: string;
  /** The source's schema (all of its columns). */
  readonly schema: Schema;
  readonly files: readonly ShippedFile[];
  /** The whole source's rows (the worker's estimates are the calling thread's). */
  readonly rows: number;
  /** (file index, partition) pairs this share reads, in order. */
  readonly parts: Int32Array;
  /** [unused, cancelled] in a SharedArrayBuffer, shared by the stage's shares (ship-tables.ts Morsels.state). */
  readonly state: Int32Array;
}

/** The files of a source that a stage may deal to its shares, or undefined (in memory, CSV, JSON, ...). */
export function dealtFiles(src: TableSource): readonly FilePartitions[] | undefined {
  return isMemorySource(src) || src.files === undefined || src.files.length === 0 ? undefined : src.files;
}

/** Whether a scan reads files whose partitions a stage can deal (dealtFiles). */
export function isFileScan(s: Scan): boolean {
  return dealtFiles(s.table.handle as TableSource) !== undefined;
}

/** Row groups (partitions) of the files of a source (0 when it has none to deal). */
export function dealtPartitions(src: TableSource): number {
  return dealtFiles(src)?.reduce((n, f) => n + f.partitions, 0) ?? 0;
}

/**
 * The (file, partition) pairs each of `shares` shares reads: the partitions that `filters` do
 * not prune, in file order, dealt round-robin (share i reads pairs i, i + shares, ...).
 */
export function dealFileParts(files: readonly FilePartitions[], filters: readonly RexNode[] | undefined, shares: number): Int32Array[] {
  const kept: number[] = [];
  files.forEach((f, i) => {
    for (let p = 0; p < f.partitions; p++) if (!f.canSkip(p, filters ?? [])) kept.push(i, p);
  });
  return Array.from({ length: shares }, (_, s) => {
    const out: number[] = [];
    for (let j = 2 * s; j < kept.length; j += 2 * shares) out.push(kept[j]!, kept[j + 1]!);
    return Int32Array.from(out);
  });
}

/** The task's form of a file (ShippedFile); the coordinator's thread remembers its source (its share then reads it). */
export function shipFile(f: FilePartitions): ShippedFile {
  opened.set(keyOf(f), f.source);
  return { format: f.format, path: f.path, bytes: f.bytes, mtimeMs: f.mtimeMs, partitionRows: f.partitionRows };
}

/** This thread's opened file sources (their footers parsed) by path, size and modification time: the 8 used last. */
const opened = new LRUCache<string, TableSource>({ max: 8 });

function keyOf(f: { readonly path: string; readonly bytes: number; readonly mtimeMs: number }): string {
  return `${f.bytes}:${f.mtimeMs}:${f.path}`;
}

/** The source of one file on this thread: kept, or opened and checked against what the coordinator dealt. */
async function openFile(f: ShippedFile): Promise<TableSource> {
  const key = keyOf(f);
  const kept = opened.get(key);
  if (kept !== undefined) return kept;
  const src = await parquetSource(f.path);
  const mine = src.files?.[0];
  if (mine === undefined || mine.partitionRows.length !== f.partitionRows.length || mine.partitionRows.some((r, i) => r !== f.partitionRows[i])) {
    throw new ExecutionError(`parquet ${f.path}: the file changed while the query read it (its row groups are not the ones it had when the query opened it)`);
  }
  // Kept by what the coordinator saw (the task's key), so the next task finds it.
  opened.set(key, src);
  return src;
}

/** Opens the files this share reads (the others stay undefined). */
export async function openShareFiles(m: FileMorsels): Promise<(TableSource | undefined)[]> {
  const out: (TableSource | undefined)[] = m.files.map(() => undefined);
  for (let j = 0; j < m.parts.length; j += 2) {
    const i = m.parts[j]!;
    out[i] ??= await openFile(m.files[i]!);
  }
  return out;
}

/**
 * A share's source over its (file, partition) pairs: partition k of it is pair k, read by that
 * file's own source (projection and row-group pruning included). The whole source's schema,
 * rows and (one file) statistics, so the share is lowered as one thread lowers the whole scan.
 * `state` gives the cancel flag of the task running it (a kept graph: ship-graph-cache.ts).
 */
export function fileShareSource(m: FileMorsels, sources: readonly (TableSource | undefined)[], state: () => Int32Array, description: string): TableSource {
  const one = m.files.length === 1 ? sources[0] : undefined;
  return {
    schema: m.schema,
    description,
    partitions: Math.max(1, m.parts.length / 2),
    numRows: m.rows,
    ...(one?.statistics !== undefined ? { statistics: () => one.statistics!() } : {}),
    async *scan(options: ScanOptions): AsyncIterable<RecordBatch> {
      if (2 * options.partition >= m.parts.length) return;
      if (Atomics.load(state(), 1) !== 0 || options.signal?.aborted) throw new CancelledError(`scan of ${description} cancelled`);
      const src = sources[m.parts[2 * options.partition]!]!;
      yield* src.scan({ ...options, partition: m.parts[2 * options.partition + 1]! });
    },
  };
}
