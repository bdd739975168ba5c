/**
 * Statistics of a worker stage's few result rows (io/stats.ts EXACT_STATISTICS_ROWS): the
 * sketch's pass (`columnStatistics`: 2 KiB of registers per chunk, their merge, the estimate's
 * pass) against the exact figures from the values (`exactStatistics`), per table of a TPC-H Q1
 * stage result's shape (4 groups: 2 strings, 8 numbers, 2 chunks as two workers return them),
 * on fresh batches each time (the sketch's chunk parts are remembered per Arrow Data). CPU µs per
 * table (the process's CPU: one thread), medians of `--runs` samples of `--reps` tables.
 *
 *   node --import tsx bench/small-stats.ts [--runs 9] [--reps 2000]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { Data, RecordBatch } from 'apache-arrow';
import { batchFromRows } from '../src/exec/operators/values.js';
import { columnStatistics, exactStatistics } from '../src/io/stats.js';
import { field, schemaOf } from '../src/relnode/types.js';
import { median } from './lib/timing.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '9' }, reps: { type: 'string', default: '2000' } } });
const runs = Number(values.runs);
const reps = Number(values.reps);
const schema = schemaOf([field('f', 'VARCHAR'), field('s', 'VARCHAR'), ...['a', 'b', 'c', 'd', 'e', 'g', 'h'].map((n) => field(n, 'DOUBLE')), field('n', 'BIGINT')]);
const table = (): RecordBatch[] => [0, 1].map((w) => batchFromRows([['A', 'F'], ['N', 'O']].map(([f, s], k) => [f!, s!, ...[1, 2, 3, 4, 5, 6, 7].map((x) => x * (k + 1) + w), BigInt(1000 + k)]), schema));

function perTable(f: (chunks: readonly Data[]) => unknown): number {
  const xs: number[] = [];
  for (let r = 0; r <= runs; r++) {
    const tables = Array.from({ length: reps }, table);
    const c0 = process.cpuUsage();
    for (const t of tables) for (let c = 0; c < schema.fields.length; c++) f(t.map((b) => b.data.children[c]!));
    const c1 = process.cpuUsage(c0);
    if (r > 0) xs.push((c1.user + c1.system) / reps);
  }
  return median(xs);
}

const load0 = loadavg()[0]!;
const sketch = perTable(columnStatistics);
const exact = perTable(exactStatistics);
console.log(`per table of ${schema.fields.length} columns × 2 chunks × 2 rows: sketch ${sketch.toFixed(1)} µs, exact ${exact.toFixed(1)} µs (${(sketch / exact).toFixed(1)}×)`);
console.log(`load average 1 min: ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end; ${runs} samples of ${reps} tables`);
