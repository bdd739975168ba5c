/**
 * The measured constants of the worker-stage cost model (ship-cost.ts, whose header says how they were
 * calibrated): in a file of their own so the model's code stays under the size a file is split at.
 */
/** The measured constants of the model (ns per row unless the name says otherwise). */
export const SHIP_COST = {
  /** Per stage: posting the task, each worker decoding and lowering the plan, the reply (wall, ms). */
  stageMs: 6,
  /** Per further round (an exchange, or the calling thread's final aggregate of partial rows), ms. */
  roundMs: 3,
  /**
   * Per join in a stage's round-1 plan (ms, on every worker side by side): lowering it, its hash
   * table and runtime filter, code the worker's isolate has not optimized yet. Traces at load
   * 10–12 (`bench/multi-core.ts --trace`, p2 worker CPU against p1's): TPC-H Q4 and Q12 (one join)
   * 100 → 50 + 50 and 110 → 60 + 60 ms, Q8 (seven joins) 60 → 50 + 40 ms.
   */
  joinSetupMs: 1.5,
  /**
   * Worker CPU over one thread's for the same rows: two busy cores run each slower, workers reach
   * optimized code later, and the process's GC helper threads then compete with them (measured
   * 1.0–1.6×: docs/multi-core.md "Where p2's time goes").
   */
  workerOverhead: 1.3,
  /** A row crossing the coordinator (encode on one side, decode on the other), plus per byte of it. */
  crossRow: 50,
  crossByte: 6,
  /**
   * Bytes of a VARCHAR value (no length statistics): a column with few distinct values is
   * dictionary-encoded (a code), others carry their bytes (TPC-H customer strings: ~33 B).
   */
  stringBytes: 32,
  dictionaryMaxDistinct: 10_000,
  /** Per row a partitioned stage reads whole on every worker to pick its own (hash of the key). */
  hashRow: 6,
  /** Operators, per input row. */
  scanRow: 0.5,
  /**
   * Decoding a Parquet file, per row and column read (the shares divide it: ship-files.ts). A full
   * scan of SF 1 lineitem.parquet (6M rows) costs ~3.2 s of CPU for 16 columns, 0.38 s for 2.
   */
  fileColumnRow: 30,
  /**
   * A scan's runtime filter, per row and key tested (bench:key-filter: 3.6–5.8 ns per row at load
   * 14), and per row it keeps (the kept rows are copied once: exec/runtime-filter.ts).
   */
  runtimeFilterTest: 3,
  runtimeFilterKept: 5,
  filterRow: 2,
  filterConjunct: 1,
  /**
   * A string pattern (LIKE, ILIKE) in a filter, per row: a pattern that must search the string
   * (`%special%requests%`, `%green%`) scans its bytes — per byte of the value, ~2.5 ns (TPC-H at
   * load ~5: o_comment, 49 B, 140 ns a row; p_name, 33 B, 94 ns) —, an anchored one (`PROMO%`,
   * `%BRASS`) compares a few, and over a column of few distinct values it is decided per
   * dictionary entry, not per row (p_type: no cost above the scan's).
   */
  patternByte: 2.5,
  patternAnchored: 10,
  patternCoded: 1,
  projectExpr: 2,
  probeRow: 15,
  /** Per probe row of a join with a non-equi condition besides its keys (TPC-H Q21's `l_suppkey <> l_suppkey`). */
  residualRow: 60,
  buildRow: 60,
  joinOutColumn: 2,
  aggRow: 5,
  aggCall: 1,
  /** Per group, more once the groups outgrow the caches. */
  groupRow: 60,
  bigGroupRow: 250,
  bigGroups: 65_536,
  /**
   * Per group of a one-column key that arrives clustered (exec/kernels/hash-sorted.ts: a key equal
   * to the newest group's or above it costs a comparison, no slot): TPC-H Q18's GROUP BY l_orderkey,
   * 1.5M groups of lineitem in key order, estimated at 421 ms as hashed groups against ~110 ms of
   * the whole stage's p1 CPU.
   */
  sortedGroupRow: 45,
  stringKey: 40,
  sortRow: 60,
  topKRow: 8,
  otherRow: 5,
  /**
   * Rows a HAVING keeps, as a fraction of the groups: it compares aggregate values, of which there
   * are no statistics, and the estimator's default (a third) is far above typical thresholds
   * (TPC-H Q18 keeps 57 of 1.5M groups: at 0.1 its 150k estimated rows crossing the coordinator
   * were a fifth of the stage's estimate). Used only for a stage's result rows.
   */
  havingKeeps: 0.01,
  /** A stage ships only when its estimated time is at most this fraction of one thread's. */
  margin: 0.8,
} as const;
