/**
 * ORDERS generator (spec 4.2.3): 1,500,000 × SF rows. o_totalprice and
 * o_orderstatus are computed from the order's lines, re-drawn through
 * LineCore exactly as LINEITEM draws them.
 */
import type { RecordBatch } from 'apache-arrow';
import { Utf8Column, ascii, dateData, dictData, float64Data, int32Data, makeBatch } from './column-data.js';
import { HEAP_MEMORY, type ColumnMemory } from '../column-memory.js';
import { LineCore, drawLineCount, drawOrderDate } from './order-lines.js';
import { Rng, Stream, streamSeed } from './random.js';
import type { RowRangeGenerator } from './row-range.js';
import { orderingCustomer, sparseOrderKey, type TpchScale } from './scale.js';
import { DICTS, OrderStatus, TPCH_SCHEMAS } from './schemas.js';
import { writeComment, writeKeyName } from './string-values.js';
import { textPool } from './text-pool.js';

const CLERK_PREFIX = ascii('Clerk#');

/**
 * ORDERS: o_orderkey sparse (8 of every 32 keys); o_custkey never divisible
 * by 3 (see orderingCustomer); o_orderpriority uniform;
 * o_clerk 'Clerk#' + [1, 1000 × SF]; o_shippriority 0; o_comment length [19, 78].
 */
export class OrdersGenerator implements RowRangeGenerator {
  readonly numRows: number;
  private readonly parts: number;
  private readonly clerks: number;
  private readonly customers: number;
  private readonly orderBase: number;
  private readonly lineBase: number;
  private readonly rng = new Rng();
  private readonly lineRng = new Rng();
  private readonly line = new LineCore();
  private readonly clerkNames: Utf8Column;
  private readonly comments: Utf8Column;

  constructor(scale: TpchScale, seed: number, private readonly memory: ColumnMemory = HEAP_MEMORY) {
    this.clerkNames = new Utf8Column(15, memory);
    this.comments = new Utf8Column(78, memory);
    this.numRows = scale.orders;
    this.parts = scale.parts;
    this.clerks = scale.clerks;
    this.customers = scale.customers;
    this.orderBase = streamSeed(seed, Stream.Order);
    this.lineBase = streamSeed(seed, Stream.OrderLine);
  }

  batch(start: number, count: number): RecordBatch {
    const memory = this.memory;
    const { rng, lineRng, line, clerkNames, comments, parts, lineBase } = this;
    const pool = textPool();
    const keys = memory.int32(count);
    const custkeys = memory.int32(count);
    const statuses = memory.int32(count);
    const totals = memory.float64(count);
    const dates = memory.int32(count);
    const priorities = memory.int32(count);
    const shipPriorities = memory.int32(count);
    clerkNames.begin(count);
    comments.begin(count);
    for (let i = 0; i < count; i++) {
      const order = start + i;
      rng.reset(this.orderBase, order);
      const orderdate = drawOrderDate(rng);
      const lines = drawLineCount(rng);
      keys[i] = sparseOrderKey(order + 1);
      dates[i] = orderdate;
      custkeys[i] = orderingCustomer(rng.int(1, this.customers), this.customers);
      priorities[i] = rng.int(0, 4);
      writeKeyName(clerkNames, CLERK_PREFIX, rng.int(1, this.clerks));
      clerkNames.endRow();
      writeComment(comments, rng, pool, 19, 78);
      comments.endRow();
      let totalCents = 0;
      let shipped = 0;
      for (let j = 0; j < lines; j++) {
        line.draw(lineRng, lineBase, order, j, parts, orderdate);
        totalCents += line.chargeCents();
        if (line.shipped()) shipped++;
      }
      totals[i] = totalCents / 100;
      statuses[i] = shipped === lines ? OrderStatus.F : shipped === 0 ? OrderStatus.O : OrderStatus.P;
    }
    return makeBatch(TPCH_SCHEMAS.orders, count, [
      int32Data(keys), int32Data(custkeys), dictData(DICTS.o_orderstatus, statuses, memory), float64Data(totals),
      dateData(dates), dictData(DICTS.o_orderpriority, priorities, memory), clerkNames.finish(),
      int32Data(shipPriorities), comments.finish(),
    ]);
  }
}
