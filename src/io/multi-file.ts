/**
 * Globs in file paths (`read_parquet('data/*.parquet')`, `env.fromCsv('logs/2024-*.csv')`):
 * the matching files, in name order, read as one table whose partitions are
 * the files' partitions one after another (so a scan reads files in parallel
 * and pushes projections and filters into each). `*` and `?` match within one
 * path segment, `[abc]` a set of characters, `**` any number of folders, as
 * in DuckDB. Every file must have the first file's columns (names and types);
 * a file that differs is an error naming it. No match is an error too.
 */
import { readdir } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { RecordBatch } from 'apache-arrow';
import { ValidationError } from '../relnode/errors.js';
import type { Schema } from '../relnode/types.js';
import type { FilePartitions, ScanOptions, TableSource } from './source.js';

/** True if the path has glob characters (`*`, `?`, `[`). */
export function isGlob(path: string): boolean {
  return /[*?[]/.test(path);
}

/** Files matching a glob pattern, sorted. */
export async function expandGlob(pattern: string): Promise<string[]> {
  const abs = resolve(pattern);
  const parts = abs.split(sep); // parts[0] is '' (the root)
  const out: string[] = [];
  const walk = async (dir: string, i: number): Promise<void> => {
    if (i === parts.length) return;
    const part = parts[i]!;
    const last = i === parts.length - 1;
    if (!isGlob(part)) {
      if (last) {
        const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
        if (entries.some((e) => e.name === part && !e.isDirectory())) out.push(join(dir, part));
      } else await walk(join(dir, part), i + 1);
      return;
    }
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    if (part === '**') {
      await walk(dir, i + 1);
      for (const e of entries) if (e.isDirectory()) await walk(join(dir, e.name), i);
      return;
    }
    const re = segmentRegex(part);
    for (const e of entries) {
      if (!re.test(e.name)) continue;
      if (last && !e.isDirectory()) out.push(join(dir, e.name));
      else if (!last && e.isDirectory()) await walk(join(dir, e.name), i + 1);
    }
  };
  await walk(sep, 1);
  return [...new Set(out)].sort();
}

function segmentRegex(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else { re += `[${glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`; i = end; }
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** The files matching `pattern`, each opened with `open`, as one source. */
export async function globSource(pattern: string, open: (path: string) => Promise<TableSource>): Promise<TableSource> {
  const files = await expandGlob(pattern);
  if (files.length === 0) throw new ValidationError(`no file matches ${pattern}`);
  const sources: TableSource[] = [];
  for (const f of files) sources.push(await open(f));
  const first = sources[0]!;
  sources.forEach((s, k) => {
    const a = first.schema.fields, b = s.schema.fields;
    if (a.length !== b.length || a.some((f, i) => f.name.toLowerCase() !== b[i]!.name.toLowerCase() || f.type !== b[i]!.type)) {
      throw new ValidationError(`${files[k]} has columns (${columnsText(s.schema)}) but ${files[0]} has (${columnsText(first.schema)}); files read together by ${pattern} need the same columns`);
    }
  });
  return sources.length === 1 ? first : new MultiFileSource(pattern, sources);
}

function columnsText(s: Schema): string {
  return s.fields.map((f) => `${f.name} ${f.type}`).join(', ');
}

class MultiFileSource implements TableSource {
  readonly schema: Schema;
  readonly description: string;
  readonly partitions: number;
  readonly numRows?: number;
  /** Every file's partitions in order, when each file has them (Parquet): worker stages read them (source.ts). */
  readonly files?: readonly FilePartitions[];
  /** Partition p is partition p - starts[i] of sources[i]. */
  private readonly starts: number[] = [];

  constructor(pattern: string, private readonly sources: readonly TableSource[]) {
    this.schema = sources[0]!.schema;
    this.description = `${sources.length} files ${pattern}`;
    let p = 0;
    for (const s of sources) { this.starts.push(p); p += s.partitions; }
    this.partitions = p;
    if (sources.every((s) => s.numRows !== undefined)) this.numRows = sources.reduce((n, s) => n + s.numRows!, 0);
    if (sources.every((s) => s.files !== undefined)) this.files = sources.flatMap((s) => s.files!);
  }

  async *scan(options: ScanOptions): AsyncIterable<RecordBatch> {
    let i = this.starts.length - 1;
    while (i > 0 && this.starts[i]! > options.partition) i--;
    yield* this.sources[i]!.scan({ ...options, partition: options.partition - this.starts[i]! });
  }
}
