/** CUSTOMER generator (spec 4.2.3): 150,000 × SF rows. */
import type { RecordBatch } from 'apache-arrow';
import { Utf8Column, ascii, dictData, float64Data, int32Data, makeBatch } from './column-data.js';
import { HEAP_MEMORY, type ColumnMemory } from '../column-memory.js';
import { Rng, Stream, streamSeed } from './random.js';
import type { RowRangeGenerator } from './row-range.js';
import type { TpchScale } from './scale.js';
import { DICTS, TPCH_SCHEMAS } from './schemas.js';
import { writeAddress, writeComment, writeKeyName, writePhone } from './string-values.js';
import { textPool } from './text-pool.js';

const NAME_PREFIX = ascii('Customer#');

/**
 * CUSTOMER: keys 1..C; nation uniform; c_acctbal in [-999.99, 9999.99];
 * segment uniform over the five; c_comment length [29, 116].
 */
export class CustomerGenerator implements RowRangeGenerator {
  readonly numRows: number;
  private readonly base: number;
  private readonly rng = new Rng();
  private readonly names: Utf8Column;
  private readonly addresses: Utf8Column;
  private readonly phones: Utf8Column;
  private readonly comments: Utf8Column;

  constructor(scale: TpchScale, seed: number, private readonly memory: ColumnMemory = HEAP_MEMORY) {
    this.names = new Utf8Column(18, memory);
    this.addresses = new Utf8Column(40, memory);
    this.phones = new Utf8Column(15, memory);
    this.comments = new Utf8Column(116, memory);
    this.numRows = scale.customers;
    this.base = streamSeed(seed, Stream.Customer);
  }

  batch(start: number, count: number): RecordBatch {
    const memory = this.memory;
    const { rng, names, addresses, phones, comments } = this;
    const pool = textPool();
    const keys = memory.int32(count);
    const nations = memory.int32(count);
    const balances = memory.float64(count);
    const segments = memory.int32(count);
    names.begin(count);
    addresses.begin(count);
    phones.begin(count);
    comments.begin(count);
    for (let i = 0; i < count; i++) {
      const row = start + i;
      const key = row + 1;
      rng.reset(this.base, row);
      keys[i] = key;
      writeKeyName(names, NAME_PREFIX, key);
      names.endRow();
      writeAddress(addresses, rng);
      addresses.endRow();
      const nation = rng.int(0, 24);
      nations[i] = nation;
      writePhone(phones, rng, nation);
      phones.endRow();
      balances[i] = rng.int(-99_999, 999_999) / 100;
      segments[i] = rng.int(0, 4);
      writeComment(comments, rng, pool, 29, 116);
      comments.endRow();
    }
    return makeBatch(TPCH_SCHEMAS.customer, count, [
      int32Data(keys), names.finish(), addresses.finish(), int32Data(nations), phones.finish(),
      float64Data(balances), dictData(DICTS.c_mktsegment, segments, memory), comments.finish(),
    ]);
  }
}
