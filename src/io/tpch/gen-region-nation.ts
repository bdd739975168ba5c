/** Generators of the two fixed tables, REGION (5 rows) and NATION (25 rows). */
import type { RecordBatch } from 'apache-arrow';
import { Utf8Column, copyInt32, dictData, int32Data, makeBatch } from './column-data.js';
import { HEAP_MEMORY, type ColumnMemory } from '../column-memory.js';
import { Rng, Stream, streamSeed } from './random.js';
import type { RowRangeGenerator } from './row-range.js';
import { DICTS, TPCH_SCHEMAS } from './schemas.js';
import { NATIONS, NATION_REGIONS, REGIONS } from './spec-lists.js';
import { writeComment } from './string-values.js';
import { textPool } from './text-pool.js';

/** REGION: r_regionkey 0..4 with the spec's names; r_comment text of length [31, 115]. */
export class RegionGenerator implements RowRangeGenerator {
  readonly numRows = REGIONS.length;
  private readonly base: number;
  private readonly rng = new Rng();

  constructor(seed: number, private readonly memory: ColumnMemory = HEAP_MEMORY) {
    this.base = streamSeed(seed, Stream.Region);
  }

  batch(start: number, count: number): RecordBatch {
    const memory = this.memory;
    const keys = memory.int32(count);
    const comments = new Utf8Column(115, memory);
    comments.begin(count);
    const pool = textPool();
    for (let i = 0; i < count; i++) {
      const row = start + i;
      this.rng.reset(this.base, row);
      keys[i] = row;
      writeComment(comments, this.rng, pool, 31, 115);
      comments.endRow();
    }
    return makeBatch(TPCH_SCHEMAS.region, count, [
      int32Data(keys), dictData(DICTS.r_name, copyInt32(keys, memory), memory), comments.finish(),
    ]);
  }
}

/** NATION: n_nationkey 0..24 with the spec's names and regions; n_comment text of length [31, 114]. */
export class NationGenerator implements RowRangeGenerator {
  readonly numRows = NATIONS.length;
  private readonly base: number;
  private readonly rng = new Rng();

  constructor(seed: number, private readonly memory: ColumnMemory = HEAP_MEMORY) {
    this.base = streamSeed(seed, Stream.Nation);
  }

  batch(start: number, count: number): RecordBatch {
    const memory = this.memory;
    const keys = memory.int32(count);
    const regions = memory.int32(count);
    const comments = new Utf8Column(114, memory);
    comments.begin(count);
    const pool = textPool();
    for (let i = 0; i < count; i++) {
      const row = start + i;
      this.rng.reset(this.base, row);
      keys[i] = row;
      regions[i] = NATION_REGIONS[row]!;
      writeComment(comments, this.rng, pool, 31, 114);
      comments.endRow();
    }
    return makeBatch(TPCH_SCHEMAS.nation, count, [
      int32Data(keys), dictData(DICTS.n_name, copyInt32(keys, memory), memory), int32Data(regions), comments.finish(),
    ]);
  }
}
