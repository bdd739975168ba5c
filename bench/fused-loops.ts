/**
 * `npm run bench:fused-loops`: the generated fused-sum loops (exec/operators/agg-fused-loops.ts) by
 * shape, CPU ms over 2.6M synthetic rows (the cached FLIP-36 `b`'s size) in 16k-row batches, runs
 * interleaved: per summed-slot count U, the shipped per-code loop (`perCodeLoop`, unrolled, sums
 * before count, int32 indexes) and group-id loop (`sumLoop`) against the formulation they replaced
 * (one row per iteration, count first, checked int32 arithmetic; its text below) and a plain
 * per-code `+=` with no compensation (the hand loop's floor). The shipped loops' states are checked
 * bit for bit against the replaced one's first.
 *
 *   node --import tsx bench/fused-loops.ts [--slots 1,2,5] [--groups 7] [--runs 25]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { perCodeLoop, rowsPerIteration, sumLoop } from '../src/exec/operators/agg-fused-loops.js';

const { values } = parseArgs({ options: { slots: { type: 'string', default: '1,2,5' }, groups: { type: 'string', default: '7' }, runs: { type: 'string', default: '25' } } });
const ROWS = 2_610_724;
const BATCH = 16384;
const D = Number(values.groups);
const RUNS = Number(values.runs);

let seed = 12345;
const rnd = (): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 2 ** 32; };

type Loop = (V: Float64Array[], st: Float64Array, ka: Int32Array, m: number) => void;

/** The replaced formulation: one row per iteration, count(*) first, `S * g` and `b + o` as checked int32 arithmetic. */
function replaced(S: number, offs: readonly number[]): Loop {
  let text = '';
  for (let k = 0; k < offs.length; k++) text += `const v${k} = V[${k}];\n`;
  text += `for (let r = 0; r < m; r++) {\nconst b = ${S} * ka[r];\nst[b]++;\n`;
  for (let k = 0; k < offs.length; k++) {
    const o = offs[k]!;
    text += `{ const x = v${k}[r]; const s = st[b + ${o}]; const t = s + x; const bp = t - s; st[b + ${o + 1}] += (s - (t - bp)) + (x - bp); st[b + ${o}] = t; }\n`;
  }
  return new Function('V', 'st', 'ka', 'm', `'use strict';\n${text}}`) as Loop;
}

/** Plain per-code sums then counts, no compensation (as bench/lib/flip36-hand-loops.ts handGroupBy, U columns). */
function plain(U: number): Loop {
  let text = '';
  for (let k = 0; k < U; k++) text += `const v${k} = V[${k}];\n`;
  text += `for (let r = 0; r < m; r++) {\nconst b = ${1 + U} * ka[r];\n`;
  for (let k = 0; k < U; k++) text += `st[b + ${1 + k}] += v${k}[r];\n`;
  return new Function('V', 'st', 'ka', 'm', `'use strict';\n${text}st[b]++;\n}`) as Loop;
}

const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1]!;
const cpu = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const bitsOf = (st: Float64Array): string => [...new BigUint64Array(st.buffer)].join(',');

console.log(`${ROWS} rows, ${D} groups, ${RUNS} interleaved runs; load ${loadavg()[0]!.toFixed(1)}`);
console.log('| slots | rows/iteration | replaced | perCodeLoop | sumLoop | plain += |\n| ---: | ---: | ---: | ---: | ---: | ---: |');
for (const U of values.slots.split(',').map(Number)) {
  const S = 1 + 3 * U;
  const offs = Array.from({ length: U }, (_, k) => 1 + 3 * k);
  const batches: { codes: Int32Array; V: Float64Array[] }[] = [];
  for (let i = 0; i < ROWS; i += BATCH) {
    const n = Math.min(BATCH, ROWS - i);
    const codes = Int32Array.from({ length: n }, () => Math.floor(rnd() * D));
    batches.push({ codes, V: Array.from({ length: U }, () => Float64Array.from({ length: n }, () => Math.round(rnd() * 1e7) / 100 * (1 - Math.floor(rnd() * 11) / 100))) });
  }
  const perCode = perCodeLoop(S, offs, false);
  const byGid = sumLoop(S, offs, false);
  const loops: Record<string, { loop: Loop; size: number }> = {
    replaced: { loop: replaced(S, offs), size: S * D },
    perCodeLoop: { loop: (V, st, ka, m) => perCode(V, st, null, ka, 0, null, 0, ka, 0, m), size: S * D },
    sumLoop: { loop: (V, st, ka, m) => byGid(V, st, null, ka, m), size: S * D },
    plain: { loop: plain(U), size: (1 + U) * D },
  };
  const once = (name: string): Float64Array => {
    const { loop, size } = loops[name]!;
    const st = new Float64Array(size);
    for (const b of batches) loop(b.V, st, b.codes, b.codes.length);
    return st;
  };
  const want = bitsOf(once('replaced'));
  for (const name of ['perCodeLoop', 'sumLoop']) if (bitsOf(once(name)) !== want) throw new Error(`${name} (${U} slots): state bits differ from the replaced loop's`);
  const ms: Record<string, number[]> = {};
  for (let r = 0; r < RUNS; r++) {
    for (const name of Object.keys(loops)) {
      const t = cpu();
      once(name);
      (ms[name] ??= []).push(cpu() - t);
    }
  }
  const cell = (name: string): string => median(ms[name]!.slice(3)).toFixed(1);
  console.log(`| ${U} | ${rowsPerIteration(U)} | ${cell('replaced')} | ${cell('perCodeLoop')} | ${cell('sumLoop')} | ${cell('plain')} |`);
}
console.log(`load at end ${loadavg()[0]!.toFixed(1)}`);
