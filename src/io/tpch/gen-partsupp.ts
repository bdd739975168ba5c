/** PARTSUPP generator (spec 4.2.3): four suppliers for every part, 800,000 × SF rows. */
import type { RecordBatch } from 'apache-arrow';
import { Utf8Column, float64Data, int32Data, makeBatch } from './column-data.js';
import { HEAP_MEMORY, type ColumnMemory } from '../column-memory.js';
import { Rng, Stream, streamSeed } from './random.js';
import type { RowRangeGenerator } from './row-range.js';
import { partSupplier, type TpchScale } from './scale.js';
import { TPCH_SCHEMAS } from './schemas.js';
import { writeComment } from './string-values.js';
import { textPool } from './text-pool.js';

/**
 * PARTSUPP: row r is supplier r mod 4 of part r/4 + 1 (the spec's PS_SUPPKEY
 * formula); ps_availqty in [1, 9999]; ps_supplycost in [1.00, 1000.00];
 * ps_comment length [49, 198].
 */
export class PartSuppGenerator implements RowRangeGenerator {
  readonly numRows: number;
  private readonly suppliers: number;
  private readonly base: number;
  private readonly rng = new Rng();
  private readonly comments: Utf8Column;

  constructor(scale: TpchScale, seed: number, private readonly memory: ColumnMemory = HEAP_MEMORY) {
    this.comments = new Utf8Column(198, memory);
    this.numRows = scale.parts * 4;
    this.suppliers = scale.suppliers;
    this.base = streamSeed(seed, Stream.PartSupp);
  }

  batch(start: number, count: number): RecordBatch {
    const memory = this.memory;
    const { rng, comments, suppliers } = this;
    const pool = textPool();
    const parts = memory.int32(count);
    const supps = memory.int32(count);
    const qtys = memory.int32(count);
    const costs = memory.float64(count);
    comments.begin(count);
    for (let i = 0; i < count; i++) {
      const row = start + i;
      const partkey = Math.floor(row / 4) + 1;
      rng.reset(this.base, row);
      parts[i] = partkey;
      supps[i] = partSupplier(partkey, row % 4, suppliers);
      qtys[i] = rng.int(1, 9999);
      costs[i] = rng.int(100, 100_000) / 100;
      writeComment(comments, rng, pool, 49, 198);
      comments.endRow();
    }
    return makeBatch(TPCH_SCHEMAS.partsupp, count, [
      int32Data(parts), int32Data(supps), int32Data(qtys), float64Data(costs), comments.finish(),
    ]);
  }
}
