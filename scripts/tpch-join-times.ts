/**
 * Times TPC-H queries through `env.sql(text).collect()` (the join-order queries by default) at a
 * scale factor: one warm-up, then the median of N runs. Usage:
 *   npx tsx scripts/tpch-join-times.ts [--sf 0.1] [--runs 3] [--only 2,5,7,8,9] [--timeout-ms 120000]
 */
import { TableEnvironment } from '../src/api/index.js';
import '../src/sql/index.js';
import { TPCH_SQL } from '../test/sql/tpch-sql.js';

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : dflt;
}

const sf = Number(arg('sf', '0.1'));
const runs = Number(arg('runs', '3'));
const only = arg('only', '2,5,7,8,9').split(',').map(Number);
const timeoutMs = Number(arg('timeout-ms', '120000'));

const env = TableEnvironment.create({ parallelism: 1 }); // one-thread join times, whatever the cores
env.registerTpch(sf);
for (const n of only) {
  const q = TPCH_SQL.find((x) => x.n === n)!;
  const times: number[] = [];
  let rows = 0;
  let failed = '';
  for (let r = 0; r <= runs && !failed; r++) {
    const t0 = performance.now();
    try {
      const res = await env.sql(q.sql).collect({ signal: AbortSignal.timeout(timeoutMs) });
      rows = res.numRows;
    } catch (e) {
      failed = (e as Error).message.slice(0, 80);
    }
    if (r > 0) times.push(performance.now() - t0);
    if (r === 0 && performance.now() - t0 > timeoutMs / 2) break;
  }
  times.sort((a, b) => a - b);
  const med = times.length ? times[Math.floor(times.length / 2)]!.toFixed(0) : 'n/a';
  console.log(`Q${n}: ${failed ? `FAILED ${failed}` : `median ${med} ms (${times.map((t) => t.toFixed(0)).join(', ')}) rows=${rows}`}`);
}
await env.close();
