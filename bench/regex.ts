/**
 * regexp_* over TPC-H lineitem.l_comment (SF 0.1 by default: 600k rows):
 * wall time per query, median of a few runs, one thread.
 *
 *   npx tsx bench/regex.ts [sf] [runs]
 */
import { TableEnvironment } from '../src/api/environment.js';

const SF = Number(process.argv[2] ?? 0.1);
const RUNS = Number(process.argv[3] ?? 3);

const QUERIES: Record<string, string> = {
  matches_class: "SELECT count(*) FROM lineitem WHERE regexp_matches(l_comment, 'fu[a-z]+y')",
  matches_literal: "SELECT count(*) FROM lineitem WHERE regexp_matches(l_comment, 'furiously')",
  matches_anchored: "SELECT count(*) FROM lineitem WHERE regexp_matches(l_comment, '^(the|a) ')",
  matches_ci: "SELECT count(*) FROM lineitem WHERE regexp_matches(l_comment, 'SLYLY', 'i')",
  full_match: "SELECT count(*) FROM lineitem WHERE regexp_full_match(l_comment, '[a-z ,.;:!?-]+')",
  extract: "SELECT count(DISTINCT regexp_extract(l_comment, '(\\w+) (\\w+)$', 1)) FROM lineitem",
  replace_g: "SELECT sum(length(regexp_replace(l_comment, '[aeiou]', '', 'g'))) FROM lineitem",
  replace_one: "SELECT sum(length(regexp_replace(l_comment, 'the', 'THE'))) FROM lineitem",
};

const env = TableEnvironment.create({ parallelism: 1 });
env.registerTpch(SF);
const only = process.env.REGEX_BENCH_ONLY;
for (const [name, sql] of Object.entries(QUERIES)) {
  if (only !== undefined && only !== name) continue;
  const times: number[] = [];
  let answer = '';
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    const res = await env.executeSql(sql);
    times.push(performance.now() - t0);
    if (res.kind === 'rows') answer = String(res.table.getChildAt(0)?.get(0));
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(18)} ${(times[Math.floor(times.length / 2)]! / 1000).toFixed(2)} s  (answer ${answer})`);
}
await env.close();
