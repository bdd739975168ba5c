/**
 * LINEITEM generator (spec 4.2.3): 1..7 lines per order, about 6,000,000 × SF
 * rows. Lines are not addressable by row index, so batches are cut from a
 * cursor (order, line) that walks the orders; every line is derived from its
 * order's and its own random stream only, so any cut gives the same rows.
 */
import type { RecordBatch } from 'apache-arrow';
import { Utf8Column, dateData, dictData, float64Data, int32Data, makeBatch } from './column-data.js';
import { HEAP_MEMORY, type ColumnMemory } from '../column-memory.js';
import { LineCore, drawLineCount, drawOrderDate } from './order-lines.js';
import { Rng, Stream, streamSeed } from './random.js';
import { CURRENT_DATE, partSupplier, retailPriceCents, sparseOrderKey, type TpchScale } from './scale.js';
import { DICTS, LineStatus, ReturnFlag, TPCH_SCHEMAS } from './schemas.js';
import { writeComment } from './string-values.js';
import { textPool } from './text-pool.js';

/** Where the next batch of lines starts. */
interface LineCursor {
  order: number;
  line: number;
}

/**
 * LINEITEM: l_suppkey is one of the part's four PARTSUPP suppliers;
 * l_extendedprice = quantity × p_retailprice; commit = order date + [30, 90];
 * receipt = ship date + [1, 30]; l_returnflag 'R'/'A' when received by
 * CURRENTDATE, else 'N'; l_linestatus 'O' when shipped after CURRENTDATE, else 'F';
 * l_comment length [10, 43].
 */
export class LineitemGenerator {
  private readonly orders: number;
  private readonly parts: number;
  private readonly suppliers: number;
  private readonly orderBase: number;
  private readonly lineBase: number;
  private readonly rng = new Rng();
  private readonly lineRng = new Rng();
  private readonly line = new LineCore();
  private readonly comments: Utf8Column;
  private rows = -1;

  constructor(scale: TpchScale, seed: number, private readonly memory: ColumnMemory = HEAP_MEMORY) {
    this.comments = new Utf8Column(43, memory);
    this.orders = scale.orders;
    this.parts = scale.parts;
    this.suppliers = scale.suppliers;
    this.orderBase = streamSeed(seed, Stream.Order);
    this.lineBase = streamSeed(seed, Stream.OrderLine);
  }

  /** Total lines (sums every order's line count on first call, ~20 ms per SF). */
  get numRows(): number {
    if (this.rows < 0) {
      let rows = 0;
      for (let order = 0; order < this.orders; order++) {
        this.rng.reset(this.orderBase, order);
        drawOrderDate(this.rng);
        rows += drawLineCount(this.rng);
      }
      this.rows = rows;
    }
    return this.rows;
  }

  /** All lines, in batches of `batchSize` rows (the last one smaller). */
  *batches(batchSize: number): Generator<RecordBatch> {
    const cursor: LineCursor = { order: 0, line: 0 };
    let remaining = this.numRows;
    while (remaining > 0) {
      const count = Math.min(batchSize, remaining);
      yield this.batch(cursor, count);
      remaining -= count;
    }
  }

  /** The next `count` lines from `cursor`, which moves past them. */
  private batch(cursor: LineCursor, count: number): RecordBatch {
    const memory = this.memory;
    const { rng, lineRng, line, comments, parts, suppliers, lineBase } = this;
    const pool = textPool();
    const orderkeys = memory.int32(count);
    const partkeys = memory.int32(count);
    const suppkeys = memory.int32(count);
    const linenumbers = memory.int32(count);
    const quantities = memory.float64(count);
    const prices = memory.float64(count);
    const discounts = memory.float64(count);
    const taxes = memory.float64(count);
    const returnflags = memory.int32(count);
    const linestatuses = memory.int32(count);
    const shipdates = memory.int32(count);
    const commitdates = memory.int32(count);
    const receiptdates = memory.int32(count);
    const instructions = memory.int32(count);
    const modes = memory.int32(count);
    comments.begin(count);
    let n = 0;
    let order = cursor.order;
    let first = cursor.line;
    while (n < count) {
      rng.reset(this.orderBase, order);
      const orderdate = drawOrderDate(rng);
      const lines = drawLineCount(rng);
      const orderkey = sparseOrderKey(order + 1);
      let j = first;
      for (; j < lines && n < count; j++, n++) {
        line.draw(lineRng, lineBase, order, j, parts, orderdate);
        const shipdate = line.shipdate;
        const receiptdate = shipdate + lineRng.int(1, 30);
        orderkeys[n] = orderkey;
        partkeys[n] = line.partkey;
        linenumbers[n] = j + 1;
        quantities[n] = line.quantity;
        prices[n] = (line.quantity * retailPriceCents(line.partkey)) / 100;
        discounts[n] = line.discount / 100;
        taxes[n] = line.tax / 100;
        shipdates[n] = shipdate;
        commitdates[n] = orderdate + lineRng.int(30, 90);
        receiptdates[n] = receiptdate;
        suppkeys[n] = partSupplier(line.partkey, lineRng.int(0, 3), suppliers);
        const ra = lineRng.int(0, 1) === 0 ? ReturnFlag.R : ReturnFlag.A;
        returnflags[n] = receiptdate <= CURRENT_DATE ? ra : ReturnFlag.N;
        linestatuses[n] = shipdate > CURRENT_DATE ? LineStatus.O : LineStatus.F;
        instructions[n] = lineRng.int(0, 3);
        modes[n] = lineRng.int(0, 6);
        writeComment(comments, lineRng, pool, 10, 43);
        comments.endRow();
      }
      if (j < lines) {
        first = j;
      } else {
        first = 0;
        order++;
      }
    }
    cursor.order = order;
    cursor.line = first;
    return makeBatch(TPCH_SCHEMAS.lineitem, count, [
      int32Data(orderkeys), int32Data(partkeys), int32Data(suppkeys), int32Data(linenumbers),
      float64Data(quantities), float64Data(prices), float64Data(discounts), float64Data(taxes),
      dictData(DICTS.l_returnflag, returnflags, memory), dictData(DICTS.l_linestatus, linestatuses, memory),
      dateData(shipdates), dateData(commitdates), dateData(receiptdates),
      dictData(DICTS.l_shipinstruct, instructions, memory), dictData(DICTS.l_shipmode, modes, memory), comments.finish(),
    ]);
  }
}
