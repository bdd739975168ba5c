/**
 * A gather stage's workers reply in SharedArrayBuffers (StageTask.shareOut): the next stage's
 * workers read those rows in place, so the calling thread no longer copies them (TPC-H Q3's
 * customer ⋈ orders side, ~15–20 ms of the calling thread per query at SF 1). Other replies move
 * ordinary buffers.
 */
import * as arrow from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import * as rel from '../../src/relnode/rel.js';
import { call, inputRef, literal } from '../../src/relnode/rex.js';
import { memorySource } from '../../src/io/memory.js';
import { encodePlan } from '../../src/planner/ship-serialize.js';
import { SharedTables } from '../../src/planner/ship-tables.js';
import { runStageTask } from '../../src/planner/ship-task.js';
import { ColumnCache } from '../../src/planner/ship-column-cache.js';
import type { WireData } from '../../src/exec/workers/wire.js';

const batch = new arrow.RecordBatch({
  k: arrow.makeData({ type: new arrow.Int32(), data: Int32Array.from({ length: 5000 }, (_, i) => i) }),
  s: arrow.vectorFromArray(Array.from({ length: 5000 }, (_, i) => `s${i % 10}`), new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32())).data[0]!,
});
const source = memorySource([batch], 't');
const scan = rel.scan({ id: 't', name: 't', version: 1, schema: source.schema, handle: source });
const table = new SharedTables().ship(source, [0, 1], false);

function buffers(w: WireData): (ArrayBufferLike | undefined)[] {
  return [w.values?.buffer, w.offsets?.buffer, w.nulls?.buffer, ...(w.dict ? buffers(w.dict) : [])];
}

describe('shareOut', () => {
  it('a result with shareOut lives in SharedArrayBuffers; without, in ordinary ones (moved)', async () => {
    // A filter that drops rows makes new buffers (a scan alone would pass the shared table's own through).
    const plan = encodePlan(rel.filter(scan, call('ge', [inputRef(0, 'INTEGER'), literal(1000, 'INTEGER')], 'BOOLEAN')), () => 't0');
    for (const shareOut of [true, false]) {
      const r = await runStageTask({ plan, tables: { t0: table }, batchSize: 1024, ...(shareOut ? { shareOut } : {}) }, new AbortController().signal, new ColumnCache());
      const all = r.parts.flat().flatMap((b) => b.columns.flatMap(buffers)).filter((b) => b !== undefined);
      expect(all.length).toBeGreaterThan(0);
      expect(r.parts.flat().reduce((n, b) => n + b.length, 0)).toBe(4000);
      expect(all.every((b) => b instanceof SharedArrayBuffer)).toBe(shareOut);
    }
  });
});
