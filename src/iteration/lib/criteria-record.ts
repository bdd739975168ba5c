/**
 * The one record a termination-criteria helper emits to keep an iteration
 * going: only its existence counts (the head counts criteria records).
 *
 * Decision: the helpers do not know their output schema (it defaults to
 * their input's), so the record is a one-row copy of the first input batch's
 * first row (no encoding per round), or before any input a row that is NULL in whatever
 * column it is asked for (the stream's schema is not known here; every
 * column of a stream is nullable).
 */
import type { RecordBatch } from 'apache-arrow';
import { takeBatch } from '../../exec/batch.js';
import type { Collector, Row } from '../stream/process.js';

export class CriteriaRecord {
  private template: RecordBatch | undefined;

  /** Remembers the shape of the input. */
  see(batch: RecordBatch): void {
    if (this.template === undefined && batch.numRows > 0) this.template = takeBatch(batch, Int32Array.of(0), 1); // a copy: a slice would keep the whole batch alive
  }

  emit(out: Collector): void {
    if (this.template !== undefined) out.collectBatch(this.template);
    else out.collect(ALL_NULL);
  }
}

/** A row whose every column is NULL: it reports any column as its own, with value null. */
const ALL_NULL: Row = new Proxy(Object.create(null) as Row, {
  get: () => null,
  has: () => true,
  getOwnPropertyDescriptor: () => ({ value: null, writable: true, enumerable: true, configurable: true }),
  ownKeys: () => [],
});
