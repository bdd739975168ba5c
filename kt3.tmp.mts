import { join } from 'node:path';
const root = process.cwd();
const { p1AndP2 } = await import(join(root, 'bench/lib/p1-p2.ts'));
const { p1 } = await p1AndP2(1, '/work/bench-data');
const hp = await import(join(root, 'src/exec/kernels/hash-probe.ts'));
const proto = (hp as any).HashGroups.prototype;
const orig = proto.run1;
let calls = 0, rows = 0, ms = 0;
proto.run1 = function (words: any, flags: any, cols: any, sel: any, i0: number, n: number, mode: number, out: any) {
  const t = performance.now(); orig.call(this, words, flags, cols, sel, i0, n, mode, out); ms += performance.now() - t; calls++; rows += n - i0;
};
const qs = {
  nofilter: "SELECT o_custkey, count(o_orderkey) FROM orders GROUP BY o_custkey",
  like: "SELECT o_custkey, count(o_orderkey) FROM orders WHERE o_comment NOT LIKE '%special%requests%' GROUP BY o_custkey",
  datefilter: "SELECT o_custkey, count(o_orderkey) FROM orders WHERE o_orderdate >= DATE '1992-01-01' GROUP BY o_custkey",
};
for (let r = 0; r < 4; r++) for (const [name, q] of Object.entries(qs)) {
  for (let i = 0; i < (r === 0 ? 5 : 0); i++) await p1.sql(q).collect();
  calls = rows = ms = 0; const t = performance.now(); await p1.sql(q).collect();
  if (r > 0) console.log(name.padEnd(10), 'total', (performance.now() - t).toFixed(0), 'run1 ms', ms.toFixed(1), 'ns/row', (ms * 1e6 / rows).toFixed(1), 'calls', calls);
}
process.exit(0);
