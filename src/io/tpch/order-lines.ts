/**
 * The random draws ORDERS and LINEITEM share, so both tables agree on every
 * order without either reading the other: an order's date and line count are
 * the first draws of its row stream, and each line has its own stream
 * (index order × 8 + line) whose first draws are the values o_totalprice and
 * o_orderstatus are computed from.
 */
import type { Rng } from './random.js';
import { CURRENT_DATE, LAST_ORDER_DATE, START_DATE, retailPriceCents } from './scale.js';

/** Most lines an order has. */
export const MAX_LINES_PER_ORDER = 7;

/** First draw of an order's stream: o_orderdate, uniform in [STARTDATE, ENDDATE − 151]. */
export function drawOrderDate(rng: Rng): number {
  return rng.int(START_DATE, LAST_ORDER_DATE);
}

/** Second draw of an order's stream: its number of lines, uniform in [1, 7]. */
export function drawLineCount(rng: Rng): number {
  return rng.int(1, MAX_LINES_PER_ORDER);
}

/** The leading fields of one order line, drawn from the line's own stream. */
export class LineCore {
  /** l_partkey, uniform in [1, parts]. */
  partkey = 0;
  /** l_quantity, uniform in [1, 50]. */
  quantity = 0;
  /** l_discount in percent, uniform in [0, 10]. */
  discount = 0;
  /** l_tax in percent, uniform in [0, 8]. */
  tax = 0;
  /** l_shipdate: order date + [1, 121]. */
  shipdate = 0;

  /**
   * Positions `rng` at line `line` (0-based) of order `order` (0-based) and
   * draws the leading fields; further draws on `rng` continue the line.
   */
  draw(rng: Rng, lineBase: number, order: number, line: number, parts: number, orderdate: number): void {
    rng.reset(lineBase, order * 8 + line);
    this.partkey = rng.int(1, parts);
    this.quantity = rng.int(1, 50);
    this.discount = rng.int(0, 10);
    this.tax = rng.int(0, 8);
    this.shipdate = orderdate + rng.int(1, 121);
  }

  /** l_extendedprice in cents: quantity × p_retailprice. */
  extendedCents(): number {
    return this.quantity * retailPriceCents(this.partkey);
  }

  /** The line's share of o_totalprice in cents: extendedprice × (1 + tax) × (1 − discount), rounded. */
  chargeCents(): number {
    return Math.round((this.extendedCents() * (100 - this.discount) * (100 + this.tax)) / 10_000);
  }

  /** Whether the line has shipped by CURRENTDATE (l_linestatus 'F'). */
  shipped(): boolean {
    return this.shipdate <= CURRENT_DATE;
  }
}
