/** PART generator (spec 4.2.3): 200,000 × SF rows. */
import type { RecordBatch } from 'apache-arrow';
import { Utf8Column, ascii, dictData, float64Data, int32Data, makeBatch } from './column-data.js';
import { HEAP_MEMORY, type ColumnMemory } from '../column-memory.js';
import { Rng, Stream, streamSeed } from './random.js';
import type { RowRangeGenerator } from './row-range.js';
import { retailPriceCents, type TpchScale } from './scale.js';
import { DICTS, TPCH_SCHEMAS } from './schemas.js';
import { COLORS } from './spec-lists.js';
import { writeComment } from './string-values.js';
import { textPool } from './text-pool.js';

const COLOR_BYTES = COLORS.map(ascii);
const TYPES = DICTS.p_type.vector.length;
const CONTAINERS = DICTS.p_container.vector.length;

/** Appends p_name: five distinct colors, space separated. */
function writePartName(out: Utf8Column, rng: Rng, picked: Int32Array): void {
  for (let k = 0; k < 5; k++) {
    let c: number;
    let fresh: boolean;
    do {
      c = rng.int(0, COLORS.length - 1);
      fresh = true;
      for (let j = 0; j < k; j++) if (picked[j] === c) fresh = false;
    } while (!fresh);
    picked[k] = c;
    if (k > 0) out.byte(32);
    const word = COLOR_BYTES[c]!;
    out.copy(word, 0, word.length);
  }
}

/**
 * PART: keys 1..P; p_mfgr 'Manufacturer#M' (M in 1..5); p_brand 'Brand#MN' (N in 1..5);
 * type, container uniform over the spec lists; p_size in [1, 50]; p_retailprice
 * by the spec formula; p_comment length [5, 22].
 */
export class PartGenerator implements RowRangeGenerator {
  readonly numRows: number;
  private readonly base: number;
  private readonly rng = new Rng();
  private readonly picked = new Int32Array(5);
  private readonly names: Utf8Column;
  private readonly comments: Utf8Column;

  constructor(scale: TpchScale, seed: number, private readonly memory: ColumnMemory = HEAP_MEMORY) {
    this.names = new Utf8Column(60, memory);
    this.comments = new Utf8Column(22, memory);
    this.numRows = scale.parts;
    this.base = streamSeed(seed, Stream.Part);
  }

  batch(start: number, count: number): RecordBatch {
    const memory = this.memory;
    const { rng, names, comments, picked } = this;
    const pool = textPool();
    const keys = memory.int32(count);
    const mfgrs = memory.int32(count);
    const brands = memory.int32(count);
    const types = memory.int32(count);
    const sizes = memory.int32(count);
    const containers = memory.int32(count);
    const prices = memory.float64(count);
    names.begin(count);
    comments.begin(count);
    for (let i = 0; i < count; i++) {
      const row = start + i;
      const key = row + 1;
      rng.reset(this.base, row);
      keys[i] = key;
      writePartName(names, rng, picked);
      names.endRow();
      const m = rng.int(0, 4);
      mfgrs[i] = m;
      brands[i] = m * 5 + rng.int(0, 4);
      types[i] = rng.int(0, TYPES - 1);
      sizes[i] = rng.int(1, 50);
      containers[i] = rng.int(0, CONTAINERS - 1);
      prices[i] = retailPriceCents(key) / 100;
      writeComment(comments, rng, pool, 5, 22);
      comments.endRow();
    }
    return makeBatch(TPCH_SCHEMAS.part, count, [
      int32Data(keys), names.finish(), dictData(DICTS.p_mfgr, mfgrs, memory), dictData(DICTS.p_brand, brands, memory),
      dictData(DICTS.p_type, types, memory), int32Data(sizes), dictData(DICTS.p_container, containers, memory),
      float64Data(prices), comments.finish(),
    ]);
  }
}
