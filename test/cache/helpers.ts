/**
 * Helpers of the cache tests: a probing table source (counts scans and
 * batches, calls back between batches, can slow down), small sorted tables,
 * and result comparison.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordBatch, Table as ArrowTable } from 'apache-arrow';
import { expect } from 'vitest';
import { OWNER_FILE } from '../../src/cache/spill-dirs.js';
import type { TableEnvironment } from '../../src/api/environment.js';
import type { Table } from '../../src/api/table.js';
import type { ScanOptions, TableSource } from '../../src/io/source.js';
import { memorySource } from '../../src/io/memory.js';
import { diffResults, fromArrow, type CompareOptions } from '../helpers/compare.js';

/** Counters and callbacks of a probed source. */
export interface Probe {
  /** scan() calls (one per partition read). */
  scans: number;
  batches: number;
  /** Called before each batch is handed out (fault injection between batches). */
  onBatch?: (n: number) => void;
  /** Delay (ms) before each batch: makes a query slow enough for concurrency tests. */
  delayMs?: number;
}

/** Wraps a source so tests can count its scans and act between its batches. */
export function probeSource(inner: TableSource, probe: Probe): TableSource {
  return {
    schema: inner.schema,
    description: `probe ${inner.description}`,
    partitions: inner.partitions,
    ...(inner.numRows !== undefined ? { numRows: inner.numRows } : {}),
    scan(options: ScanOptions): AsyncIterable<RecordBatch> {
      probe.scans++;
      const it = inner.scan(options);
      return (async function* () {
        for await (const b of it as AsyncIterable<RecordBatch>) {
          if (probe.delayMs) await new Promise((r) => setTimeout(r, probe.delayMs));
          probe.onBatch?.(++probe.batches);
          yield b;
        }
      })();
    },
  };
}

/** Registers `name` as a probed copy of an Arrow table (one partition per batch). */
export function registerProbed(env: TableEnvironment, name: string, data: ArrowTable, probe: Probe): void {
  env.registerTable(name, probeSource(memorySource(data, name), probe));
}

/**
 * `nums`: `batches` record batches of `rows` rows: k ascending (0..), g = k % 7,
 * v = k * 0.5, s = 'name' + k zero-padded, n NULL in every third batch.
 */
export async function numsTable(env: TableEnvironment, batches = 10, rows = 100): Promise<ArrowTable> {
  const parts: RecordBatch[] = [];
  for (let b = 0; b < batches; b++) {
    const recs = Array.from({ length: rows }, (_, i) => {
      const k = b * rows + i;
      return { k, g: k % 7, v: k * 0.5, s: `name${String(k).padStart(5, '0')}`, n: b % 3 === 0 ? null : k };
    });
    const t = await env.fromRecords(recs, { k: 'INTEGER', g: 'INTEGER', v: 'DOUBLE', s: 'VARCHAR', n: 'INTEGER' }).collect();
    parts.push(...t.batches);
  }
  const { Table: ArrowTableClass } = await import('apache-arrow');
  return new ArrowTableClass(parts[0]!.schema, parts);
}

/** Asserts two tables hold the same rows (as multisets unless `ordered`). */
export async function expectSameRows(actual: Table | ArrowTable, expected: Table | ArrowTable, opts: CompareOptions = {}): Promise<void> {
  const a = fromArrow('collect' in actual ? await actual.collect() : actual);
  const e = fromArrow('collect' in expected ? await expected.collect() : expected);
  const diff = diffResults(a, e, opts);
  expect(diff, diff).toBeUndefined();
}

/** Files under a directory (recursively), without spill directories' ownership files; [] when it does not exist. */
export function filesUnder(dir: string | undefined): string[] {
  if (dir === undefined) return [];
  let names: string[];
  try { names = readdirSync(dir); } catch { return []; }
  return names.filter((n) => n !== OWNER_FILE).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}
