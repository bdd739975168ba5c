/**
 * A worker's shipped table, read batch by batch (ship-tables.ts shippedSource): its columns rebuilt from their
 * wire form on first use, and its batches.
 *
 * Why a class and a function of the module, not closures made per source: a worker makes a source per
 * query, and a closure's optimized code lives only as long as its feedback; bench/deopt-runs.ts counted the
 * per-source `batchOf` and its `.map` callback among the first TurboFan compiles of TPC-H Q3's timed runs, in
 * both isolates. One instance is anchored (exec/map-anchors.ts) so `shippedBatch`'s optimized code keeps the
 * class's map across major GCs.
 */
import type { RecordBatch } from 'apache-arrow';
import type * as arrow from 'apache-arrow';
import { makeBatch } from '../io/columns.js';
import { anchorMaps } from '../exec/map-anchors.js';
import { fromWireData, type WireData } from '../exec/workers/wire.js';
import type { ColumnCache } from './ship-column-cache.js';
import type { ShippedTable } from './ship-tables.js';

/** The columns of a shipped table, each rebuilt from its wire form on first use (per batch: its Data). */
export class ShippedColumns {
  private readonly dicts = new Map<WireData, arrow.Vector>();
  private readonly cache = new Map<number, arrow.Data[]>();

  constructor(readonly table: ShippedTable, private readonly description: string, private readonly kept: ColumnCache | undefined) {}

  /** Column `c`, one Data per batch. */
  of(c: number): arrow.Data[] {
    let d = this.cache.get(c);
    if (d === undefined) {
      const t = this.table;
      const w = t.columns[c];
      const id = t.ids?.[c];
      if (this.kept !== undefined && id !== undefined) d = this.kept.columns(id, w);
      else if (w === undefined) throw new Error(`internal error: column ${c} of ${this.description} was not shipped`);
      else d = w.map((x) => fromWireData(x, this.dicts));
      this.cache.set(c, d);
    }
    return d;
  }
}

/** Batch `b` of the shipped table, columns `cols` (in that order), with `schema`. */
export function shippedBatch(columns: ShippedColumns, cols: readonly number[], schema: arrow.Schema, b: number): RecordBatch {
  const data: arrow.Data[] = [];
  for (let i = 0; i < cols.length; i++) data.push(columns.of(cols[i]!)[b]!);
  return makeBatch(schema, data, columns.table.lengths[b]!);
}

// Keep ShippedColumns' map across major GCs (see the header): an instance over an empty table.
anchorMaps(new ShippedColumns({ schema: { fields: [] } as unknown as ShippedTable['schema'], lengths: [], columns: {} }, '', undefined));
