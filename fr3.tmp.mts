import { join } from 'node:path';
const root = process.cwd();
const { p1AndP2 } = await import(join(root, 'bench/lib/p1-p2.ts'));
const { tables } = await p1AndP2(1, '/work/bench-data');
const li = tables.lineitem as any;
const col = (name: string): Int32Array[] => { const ci = li.schema.fields.findIndex((f: any) => f.name === name); return li.batches.map((b: any) => { const d = b.data.children[ci]; return d.values.subarray(0, d.length); }); };
const ship = col('l_shipdate'), commit = col('l_commitdate'), receipt = col('l_receiptdate');
const mk = (body: string) => new Function('C', 'K', 'n', 'sel', 'out', 'V', 'fail', `'use strict';\n${body}`) as any;
const pro = (nc: number, nk: number) => Array.from({ length: nc }, (_, j) => `const c${j} = C[${j}];\n`).join('') + Array.from({ length: nk }, (_, j) => `const k${j} = K[${j}] | 0;\n`).join('') + 'let k = 0;\n';
const V: Record<string, any> = {
  q14_branchy: [1, mk(pro(1, 2) + `for (let i = 0; i < n; i++) {\nif (!(c0[i] >= k0)) continue;\nif (!(c0[i] < k1)) continue;\nout[k++] = i;\n}\nreturn k;`)],
  q14_and: [1, mk(pro(1, 2) + `for (let i = 0; i < n; i++) {\nout[k] = i; k += (c0[i] >= k0) & (c0[i] < k1);\n}\nreturn k;`)],
  q14_range: [1, mk(pro(1, 2) + `const w = (k1 - k0) >>> 0;\nfor (let i = 0; i < n; i++) {\nif (!(((c0[i] - k0) >>> 0) < w)) continue;\nout[k++] = i;\n}\nreturn k;`)],
  q12_branchy: [3, mk(pro(3, 2) + `for (let i = 0; i < n; i++) {\nif (!(c0[i] < c1[i])) continue;\nif (!(c2[i] < c0[i])) continue;\nif (!(c1[i] >= k0)) continue;\nif (!(c1[i] < k1)) continue;\nout[k++] = i;\n}\nreturn k;`)],
  q12_and: [3, mk(pro(3, 2) + `for (let i = 0; i < n; i++) {\nout[k] = i; k += (c0[i] < c1[i]) & (c2[i] < c0[i]) & (c1[i] >= k0) & (c1[i] < k1);\n}\nreturn k;`)],
  q12_reorder: [3, mk(pro(3, 2) + `const w = (k1 - k0) >>> 0;\nfor (let i = 0; i < n; i++) {\nif (!(((c1[i] - k0) >>> 0) < w)) continue;\nif (!(c0[i] < c1[i])) continue;\nif (!(c2[i] < c0[i])) continue;\nout[k++] = i;\n}\nreturn k;`)],
};
const K14 = [9374, 9404]; const K12 = [8766, 9131];
const out = new Int32Array(1 << 17);
for (let r = 0; r < 8; r++) for (const [name, [nc, fn]] of Object.entries(V)) {
  const t = performance.now(); let kept = 0, n = 0;
  for (let b = 0; b < ship.length; b++) { const c = ship[b]!; const C = nc === 1 ? [c] : [commit[b], receipt[b], c]; kept += fn(C, name.startsWith('q14') ? K14 : K12, c.length, null, out, null, null); n += c.length; }
  if (r > 5) console.log(name.padEnd(12), ((performance.now() - t) * 1e6 / n).toFixed(2), 'ns/row', kept);
}
