/**
 * SUPPLIER generator (spec 4.2.3): 10,000 × SF rows. About 5 × SF comments
 * carry 'Customer … Complaints' and as many 'Customer … Recommends' (Q16
 * filters on them); at least one of each at any scale.
 */
import type { RecordBatch } from 'apache-arrow';
import { Utf8Column, ascii, float64Data, int32Data, makeBatch } from './column-data.js';
import { HEAP_MEMORY, type ColumnMemory } from '../column-memory.js';
import { Rng, Stream, streamSeed } from './random.js';
import type { RowRangeGenerator } from './row-range.js';
import type { TpchScale } from './scale.js';
import { TPCH_SCHEMAS } from './schemas.js';
import { writeAddress, writeComment, writeKeyName, writePhone, writePoolText } from './string-values.js';
import { textPool } from './text-pool.js';

const NAME_PREFIX = ascii('Supplier#');
const CUSTOMER = ascii('Customer ');
const COMPLAINTS = ascii('Complaints');
const RECOMMENDS = ascii('Recommends');

/** Marks of the suppliers whose comment mentions customers. */
const Bbb = { None: 0, Complaints: 1, Recommends: 2 } as const;

/**
 * Picks max(1, round(5·SF)) suppliers for each kind of customer remark,
 * one per equal stratum of the key range, so they spread over the table.
 */
function pickBbbRows(scale: TpchScale, seed: number): Uint8Array {
  const n = scale.suppliers;
  const marks = new Uint8Array(n);
  const rng = new Rng();
  const k = Math.min(n, Math.max(1, Math.round(5 * scale.scaleFactor)));
  for (const kind of [Bbb.Recommends, Bbb.Complaints]) {
    rng.reset(streamSeed(seed, Stream.SupplierBbb), kind);
    for (let j = 0; j < k; j++) {
      const lo = Math.floor((j * n) / k);
      const hi = Math.floor(((j + 1) * n) / k) - 1;
      marks[rng.int(lo, hi)] = kind;
    }
  }
  return marks;
}

/** SUPPLIER: keys 1..S; nation uniform; s_acctbal in [-999.99, 9999.99]; s_comment length [25, 100]. */
export class SupplierGenerator implements RowRangeGenerator {
  readonly numRows: number;
  private readonly base: number;
  private readonly rng = new Rng();
  private readonly bbb: Uint8Array;
  private readonly names: Utf8Column;
  private readonly addresses: Utf8Column;
  private readonly phones: Utf8Column;
  private readonly comments: Utf8Column;

  constructor(scale: TpchScale, seed: number, private readonly memory: ColumnMemory = HEAP_MEMORY) {
    this.names = new Utf8Column(18, memory);
    this.addresses = new Utf8Column(40, memory);
    this.phones = new Utf8Column(15, memory);
    this.comments = new Utf8Column(100, memory);
    this.numRows = scale.suppliers;
    this.base = streamSeed(seed, Stream.Supplier);
    this.bbb = pickBbbRows(scale, seed);
  }

  batch(start: number, count: number): RecordBatch {
    const memory = this.memory;
    const { rng, names, addresses, phones, comments, bbb } = this;
    const pool = textPool();
    const keys = memory.int32(count);
    const nations = memory.int32(count);
    const balances = memory.float64(count);
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
      const mark = bbb[row]!;
      if (mark === Bbb.None) {
        writeComment(comments, rng, pool, 25, 100);
      } else {
        // 'Customer ' <gap text> 'Complaints'|'Recommends', inside text of the same total length.
        const length = rng.int(25, 100);
        const gap = rng.int(0, length - 19);
        const before = rng.int(0, length - 19 - gap);
        writePoolText(comments, rng, pool, before);
        comments.copy(CUSTOMER, 0, CUSTOMER.length);
        writePoolText(comments, rng, pool, gap);
        const word = mark === Bbb.Complaints ? COMPLAINTS : RECOMMENDS;
        comments.copy(word, 0, word.length);
        writePoolText(comments, rng, pool, length - 19 - gap - before);
      }
      comments.endRow();
    }
    return makeBatch(TPCH_SCHEMAS.supplier, count, [
      int32Data(keys), names.finish(), addresses.finish(), int32Data(nations), phones.finish(),
      float64Data(balances), comments.finish(),
    ]);
  }
}
