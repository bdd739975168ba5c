/**
 * Branching against branch-free selection loops (kernels/keep-hint.ts): CPU ns per tested row of a
 * compiled `x < k` predicate over 64K-row INTEGER batches whose outcome is random, for kept shares from
 * 5% to 98%, over whole batches (Filter, compilePredicate) and through a selection of every other row
 * (a runtime-filtered scan's prefilter, compileSafeRefine), with the branch-free loops off and on
 * (keepHintTuning.flatLoops) — the figures behind keep-hint.ts's band. Medians of 7 rounds, alternating.
 *
 *   npx tsx bench/keep-hint.ts [batches]
 */
import * as arrow from 'apache-arrow';
import { call, inputRef, literal } from '../src/relnode/rex.js';
import { field, schemaOf } from '../src/relnode/types.js';
import { compilePredicate, compileSafeRefine } from '../src/exec/kernels/predicate.js';
import { keepHintTuning } from '../src/exec/kernels/keep-hint.js';

const BATCHES = Number(process.argv[2] ?? 48);
const ROWS = 65_536;
let seed = 0x2545f491;
const rnd = (): number => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) / 4294967296; };

const fields = [new arrow.Field('x', new arrow.Int32(), false)];
const batches = Array.from({ length: BATCHES }, () => {
  const v = new Int32Array(ROWS);
  for (let i = 0; i < ROWS; i++) v[i] = Math.floor(rnd() * 10_000);
  const d = arrow.makeData({ type: new arrow.Int32(), length: ROWS, data: v });
  return new arrow.RecordBatch(new arrow.Schema(fields), arrow.makeData({ type: new arrow.Struct(fields), length: ROWS, children: [d] }));
});
const schema = schemaOf([field('x', 'INTEGER')]);
const every2 = Int32Array.from({ length: ROWS >> 1 }, (_, i) => 2 * i);
const sel = new Int32Array(ROWS >> 1);

function cpuMs(f: () => void): number {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

console.log('| kept | whole batch, branching | whole batch, branch-free | selection, branching | selection, branch-free |');
console.log('| ---: | ---: | ---: | ---: | ---: |');
for (const share of [0.05, 0.15, 0.3, 0.5, 0.8, 0.9, 0.98]) {
  const cond = call('lt', [inputRef(0, 'INTEGER'), literal(Math.round(share * 10_000), 'INTEGER')], 'BOOLEAN');
  const times: Record<string, number[]> = {};
  for (let r = 0; r < 7; r++) {
    for (const flat of r % 2 ? [false, true] : [true, false]) {
      keepHintTuning.flatLoops = flat;
      // Fresh compiled steps per round: each starts on the branching loop and takes its choice after one batch.
      const p = compilePredicate(cond, schema);
      const refine = compileSafeRefine([cond], schema)!;
      (times[`whole ${flat}`] ??= []).push(cpuMs(() => { for (const b of batches) p(b); }) * 1e6 / (ROWS * BATCHES));
      (times[`sel ${flat}`] ??= []).push(cpuMs(() => { for (const b of batches) { sel.set(every2); refine(b, sel); } }) * 1e6 / ((ROWS >> 1) * BATCHES));
    }
  }
  const f = (k: string): string => median(times[k]!).toFixed(2);
  console.log(`| ${(share * 100).toFixed(0)}% | ${f('whole false')} | ${f('whole true')} | ${f('sel false')} | ${f('sel true')} |`);
}
keepHintTuning.flatLoops = true;
