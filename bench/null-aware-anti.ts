/**
 * `(a, b) NOT IN (SELECT x, y ...)` over nullable columns (exec/operators/null-aware-anti-join.ts):
 * CPU per query at parallelism 1 of
 * - the NULL-aware hash join against the nested-loop join it replaced (planner/not-in-join.ts
 *   `notInTuning` off), on a small pair of tables (the nested loop compares every pair of rows);
 * - the NULL-aware hash join on the big pair (default 1M × 100K rows, a few % NULLs per column);
 * - on the same big tables without NULLs: the NULL-aware join (declared nullable, no NULL present)
 *   beside the plain anti hash join (the columns filtered `IS NOT NULL`, which drops the NULL tests):
 *   the common case should cost what the plain anti join costs;
 * - NOT IN used as a value (`((a, b) NOT IN (...)) IS NULL`, counting the NULL answers): two semi
 *   joins over the distinct outer rows (planner/rules/decorrelate-mark-existence.ts), the "may equal"
 *   one the NULL-aware join's semi form, against its nested loop (`notInTuning` off), and on the big pair.
 * Forms are interleaved per run; medians of the timed runs; the load average is printed.
 *
 *   node --import tsx bench/null-aware-anti.ts [--rows 1000000] [--sub 100000] [--nl-rows 20000] [--nl-sub 2000] [--null-rate 0.03] [--runs 5]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Int32, Table as ArrowTable, vectorFromArray } from 'apache-arrow';
import { TableEnvironment } from '../src/index.js';
import { notInTuning } from '../src/planner/not-in-join.js';
import { mulberry32 } from '../src/exec/random.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' }, sub: { type: 'string', default: '100000' },
    'nl-rows': { type: 'string', default: '20000' }, 'nl-sub': { type: 'string', default: '2000' },
    'null-rate': { type: 'string', default: '0.03' }, runs: { type: 'string', default: '5' },
  },
});
const nullRate = Number(values['null-rate']);
const runs = Number(values.runs);
const r = mulberry32(7);

/** Two INTEGER columns of `n` rows over a domain where about half the probe rows find an equal row, NULLs at `rate`. */
function pairTable(n: number, names: readonly [string, string], domain: number, rate: number): ArrowTable {
  const col = (): (number | null)[] => Array.from({ length: n }, () => (r() < rate ? null : Math.floor(r() * domain)));
  return new ArrowTable({ [names[0]]: vectorFromArray(col(), new Int32()), [names[1]]: vectorFromArray(col(), new Int32()) });
}

const env = TableEnvironment.create({ parallelism: 1 });
function register(prefix: string, rows: number, sub: number, rate: number): void {
  // The subquery covers about sub / domain² of the probe's keys: a domain of √(2·sub) per column, half.
  const domain = Math.max(2, Math.round(Math.sqrt(2 * sub)));
  env.registerTable(`${prefix}t`, env.fromArrow(pairTable(rows, ['a', 'b'], domain, rate)));
  env.registerTable(`${prefix}u`, env.fromArrow(pairTable(sub, ['x', 'y'], domain, rate)));
}
register('s', Number(values['nl-rows']), Number(values['nl-sub']), nullRate);
register('b', Number(values.rows), Number(values.sub), nullRate);
register('c', Number(values.rows), Number(values.sub), 0);

const notIn = (p: string): string => `SELECT count(*) AS n FROM ${p}t WHERE (a, b) NOT IN (SELECT x, y FROM ${p}u)`;
const asValue = (p: string): string => `SELECT count(*) AS n FROM ${p}t WHERE ((a, b) NOT IN (SELECT x, y FROM ${p}u)) IS NULL`;
const FORMS: readonly (readonly [string, string, boolean])[] = [
  ['small: NULL-aware hash join', notIn('s'), true],
  ['small: nested loop (before)', notIn('s'), false],
  ['big: NULL-aware hash join', notIn('b'), true],
  ['big, no NULLs: NULL-aware hash join', notIn('c'), true],
  ['big, no NULLs: plain anti join', 'SELECT count(*) AS n FROM ct WHERE a IS NOT NULL AND b IS NOT NULL AND (a, b) NOT IN (SELECT x, y FROM cu WHERE x IS NOT NULL AND y IS NOT NULL)', true],
  ['small, as a value: NULL-aware semi joins', asValue('s'), true],
  ['small, as a value: nested loop (before)', asValue('s'), false],
  ['big, as a value: NULL-aware semi joins', asValue('b'), true],
];

const samples = new Map<string, number[]>();
const counts = new Map<string, bigint | number>();
for (let run = 0; run < runs + 1; run++) {
  for (const [name, q, nullAware] of FORMS) {
    if (notInTuning.nullAware !== nullAware) {
      notInTuning.nullAware = nullAware;
      // Kept physical plans are reused while the settings stay the same (api/physical-plans.ts): each
      // tuning gets its own value of a setting these queries do not read, so each plans its own.
      await env.executeSql(`SET integer_division = ${nullAware ? 'false' : 'true'}`);
    }
    const c0 = process.cpuUsage();
    const t = await env.sql(q).collect();
    const c = process.cpuUsage(c0);
    counts.set(name, t.toArray()[0].n as bigint);
    if (run >= 1) samples.set(name, [...(samples.get(name) ?? []), (c.user + c.system) / 1000]);
  }
}
notInTuning.nullAware = true;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log('| form | CPU ms (median) | rows kept |\n| --- | ---: | ---: |');
for (const [name] of FORMS) console.log(`| ${name} | ${median(samples.get(name)!).toFixed(1)} | ${String(counts.get(name))} |`);
if (counts.get(FORMS[0]![0]) !== counts.get(FORMS[1]![0])) throw new Error('the NULL-aware join and the nested loop disagree');
if (counts.get(FORMS[3]![0]) !== counts.get(FORMS[4]![0])) throw new Error('the NULL-aware and the plain anti join disagree on NULL-free data');
if (counts.get(FORMS[5]![0]) !== counts.get(FORMS[6]![0])) throw new Error('NOT IN as a value: the NULL-aware semi join and the nested loop disagree');
console.log(`\n${runs} runs after 1 warm-up (forms interleaved), parallelism 1, small ${values['nl-rows']} × ${values['nl-sub']}, big ${values.rows} × ${values.sub}, NULL rate ${nullRate}; load average ${loadavg()[0]!.toFixed(2)}`);
await env.close();
