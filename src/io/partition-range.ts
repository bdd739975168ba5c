/**
 * Which batches a partition of a batch-listed source (in-memory tables, Arrow IPC files) reads.
 *
 * Decision: contiguous ranges — partition p of P reads batches [⌊pN/P⌋, ⌊(p+1)N/P⌋) — not a
 * stride (p, p+P, ...). A scan at parallelism 1 reads its partitions in order, so a stride
 * returned a 92-batch lineitem as batches 0, 64, 1, 65, ...: `SELECT * FROM t`, a `LIMIT`
 * without ORDER BY and `collect()` of a file gave the rows out of the table's order, which DuckDB
 * (insertion order) and a user reading a file do not expect. Subtasks of a parallel scan still
 * take every parallelism-th partition, so each gets its share spread over the table.
 */

/** The batches [start, end) partition `p` of `partitions` reads out of `batches` batches. */
export function partitionRange(p: number, partitions: number, batches: number): { readonly start: number; readonly end: number } {
  return { start: Math.floor((p * batches) / partitions), end: Math.floor(((p + 1) * batches) / partitions) };
}
