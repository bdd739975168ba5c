/**
 * The per-query memory limit (DuckDB's `memory_limit`): operators that hold
 * state — a hash join's build side, a nested-loop join's buffered side, a
 * sort's buffered rows, an aggregate's or DISTINCT's groups — reserve its bytes
 * from the query's QueryMemory as it grows, and a reservation past the limit
 * fails the query with an error naming the operator and the limit, instead
 * of the process running out of memory and dying with every table and cache
 * of the session. State is released when the run ends (one account per run;
 * operators that drop state mid-run release it).
 *
 * Accounting is of what the operator holds: Arrow buffers by their byte
 * length (a slice counts its own rows, not its parent's buffers), groups by
 * an estimate per group. It is a bound on the order of magnitude, not a
 * malloc counter; spilling operator state to disk is not built yet.
 */
import { Type, type Data, type RecordBatch } from 'apache-arrow';
import { ExecutionError } from '../relnode/errors.js';

/** The bytes of query state one run may hold, and what it holds now. */
export class QueryMemory {
  private held = 0;
  private peakBytes = 0;
  constructor(readonly limit: number) {}

  /** Bytes reserved now. */
  get used(): number { return this.held; }
  /** The most ever reserved at once. */
  get peak(): number { return this.peakBytes; }

  /** Adds `bytes` to the account of `owner`; throws past the limit. */
  reserve(owner: string, bytes: number): void {
    if (!(bytes > 0)) return;
    this.held += bytes;
    if (this.held > this.peakBytes) this.peakBytes = this.held;
    if (this.held > this.limit) {
      // The message names what holds the state in the query's terms; the runtime keeps the operator instance on the error (`operator`).
      throw new ExecutionError(`out of memory: the query's state would be ${formatBytes(this.held)} (${formatBytes(bytes)} more for ${stateOf(owner)}), over memory_limit ${formatBytes(this.limit)}; SET memory_limit = '8GB' (or TableEnvironment.create({ memoryLimit })) raises it`);
    }
  }

  /** Gives back `bytes` (state the operator dropped). */
  release(bytes: number): void {
    if (bytes > 0) this.held = Math.max(0, this.held - bytes);
  }
}

/** What an operator's state is for, in SQL terms, by operator name (job vertex names, planner/lower.ts). */
const STATE_OF: Readonly<Record<string, string>> = {
  HashAggregate: 'GROUP BY / aggregates', HashJoin: "a join's hash table", NestedLoopJoin: 'a nested-loop join',
  Sort: 'ORDER BY', TopK: 'ORDER BY ... LIMIT', Window: 'window functions', Distinct: 'DISTINCT',
  Intersect: 'INTERSECT', Except: 'EXCEPT', SeenSet: "a recursive query's rows seen so far", GroupLimit: 'a per-group LIMIT',
};

/** `HashJoin#3[0]` → "a join's hash table"; `Tail#2[0] (feedback queue)` → "an iteration's feedback queue"; else the operator kind. */
function stateOf(owner: string): string {
  if (owner.endsWith('(feedback queue)')) return "an iteration's feedback queue";
  const kind = owner.replace(/#\d+\[\d+\].*$/, '');
  return STATE_OF[kind] ?? kind;
}

/**
 * The bytes of the rows of one column, children included. Arrow's slices
 * share their parent's buffers but their offsets and fixed-width values
 * start at the slice, so a slice counts its own rows. A dictionary is not
 * counted: it is shared by every batch of a column and held by its source.
 */
export function dataBytes(d: Data): number {
  const n = d.length;
  let bytes = d.nullBitmap && d.nullBitmap.byteLength > 0 ? (n + 7) >> 3 : 0;
  const offsets = d.valueOffsets as unknown as (ArrayLike<number | bigint> & { byteLength: number; BYTES_PER_ELEMENT: number }) | undefined;
  const values = d.values as unknown as { byteLength: number; BYTES_PER_ELEMENT: number } | undefined;
  if (offsets && offsets.byteLength > 0) {
    // Variable width: the offsets of these rows and the value bytes they span.
    const first = Number(offsets[0] ?? 0);
    const last = Number(offsets[n] ?? first);
    bytes += (n + 1) * offsets.BYTES_PER_ELEMENT + Math.max(0, last - first);
  } else if (values && values.byteLength > 0) {
    // Fixed width: n rows of `stride` elements (booleans are bits).
    const own = d.typeId === Type.Bool ? (n + 7) >> 3 : n * (d.stride || 1) * values.BYTES_PER_ELEMENT;
    bytes += Math.min(values.byteLength, own);
  }
  for (const c of d.children) bytes += dataBytes(c);
  return bytes;
}

/**
 * Estimated bytes of one group of a hash aggregate / DISTINCT / set operation:
 * its hash slots and key words (about 16 bytes plus 8 per key column) and
 * 16 per aggregate state. String keys' bytes are not counted.
 */
export function groupBytes(keys: number, aggregates: number): number {
  return 16 + 8 * keys + 16 * aggregates;
}

/** The bytes of a record batch's rows. */
export function batchBytes(batch: RecordBatch): number {
  let n = 0;
  for (const c of batch.data.children) n += dataBytes(c);
  return n;
}

const UNITS: ReadonlyMap<string, number> = new Map([
  ['b', 1], ['', 1], ['kb', 1e3], ['mb', 1e6], ['gb', 1e9], ['tb', 1e12],
  ['kib', 1024], ['mib', 1024 ** 2], ['gib', 1024 ** 3], ['tib', 1024 ** 4],
]);

/** `'8GB'`, `'512 MiB'`, `'1.5gb'`, `'1000000'` as bytes (DuckDB's spellings: KB/MB/GB are powers of 1000); undefined if not a size. */
export function parseByteSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  if (!m) return undefined;
  const unit = UNITS.get(m[2]!.toLowerCase());
  if (unit === undefined) return undefined;
  return Math.round(Number(m[1]) * unit);
}

/** A byte count for messages: `1.5 GB`, `640.0 KB`, `12 bytes`. */
export function formatBytes(n: number): string {
  if (n === Infinity) return 'unlimited';
  if (n < 1000) return `${n} bytes`;
  for (const [u, f] of [['TB', 1e12], ['GB', 1e9], ['MB', 1e6], ['KB', 1e3]] as const) if (n >= f) return `${(n / f).toFixed(1)} ${u}`;
  return `${n} bytes`;
}
