/**
 * JS-heap bytes allocated per TPC-H query run at parallelism 1, by allocating function (issue #10: each
 * scavenge promotes some objects, the old generation reaches V8's soft limit, and every run ends in an
 * incremental mark-compact whose marking runs on helper threads that compete with the query's cores).
 *
 *   node --expose-gc --import tsx bench/heap-alloc.ts --data /work/bench-data [--only q3,q1] [--runs 5] [--top 25] [--interval 4096]
 *
 * Why the sampling heap profiler with collected objects: typed arrays' backing stores are external
 * (bench/query-bytes.ts --count sees those); this sees the JS objects — closures, arrays, Arrow `Data`
 * and `RecordBatch` wrappers, boxed doubles — whether or not a GC already freed them. Samples are every
 * `--interval` bytes on average, so small totals are estimates. It slows allocation: time nothing here.
 */
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { loadQueries } from './suite/queries.js';
import { p1AndP2 } from './lib/p1-p2.js';

const { values } = parseArgs({ options: { data: { type: 'string' }, only: { type: 'string', default: 'q3' }, runs: { type: 'string', default: '5' }, top: { type: 'string', default: '25' }, interval: { type: 'string', default: '4096' }, warmup: { type: 'string', default: '3' } } });

interface Node { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: Node[] }

const session = new Session();
session.connect();
const { p1, p2 } = await p1AndP2(1, values.data);
await p2.close();
const runs = Number(values.runs);

/** The nearest frame in the project's src/ for each sample's stack: bytes per site. */
function bySite(root: Node): Map<string, number> {
  const sites = new Map<string, number>();
  const walk = (n: Node, site: string | null): void => {
    const { url, functionName, lineNumber } = n.callFrame;
    const m = /\/src\/(.+)$/.exec(url);
    const own = m === null ? null : `${m[1]}:${lineNumber + 1} ${functionName || '(anonymous)'}`;
    const here = own ?? site;
    if (n.selfSize > 0) {
      // Attribute to the allocating frame when outside src/ too, prefixed by the nearest src/ caller.
      const leaf = own ?? `${functionName || '(anonymous)'} [${url.replace(/^.*node_modules\//, '')}] < ${site ?? '?'}`;
      sites.set(leaf, (sites.get(leaf) ?? 0) + n.selfSize);
    }
    for (const c of n.children) walk(c, here);
  };
  walk(root, null);
  return sites;
}

for (const q of loadQueries(values.only!.split(','))) {
  for (let i = 0; i < Number(values.warmup); i++) await p1.sql(q.sql).collect();
  await session.post('HeapProfiler.startSampling', { samplingInterval: Number(values.interval), includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
  for (let i = 0; i < runs; i++) await p1.sql(q.sql).collect();
  const { profile } = await session.post('HeapProfiler.stopSampling') as unknown as { profile: { head: Node } };
  const sites = [...bySite(profile.head)].sort((a, b) => b[1] - a[1]);
  const total = sites.reduce((s, [, b]) => s + b, 0);
  console.log(`\n## ${q.id}: ~${(total / runs / 1e6).toFixed(2)} MB of JS heap allocated per run (sampled, ${runs} runs)`);
  console.log('| site | MB / run |');
  console.log('| --- | ---: |');
  for (const [s, b] of sites.slice(0, Number(values.top))) console.log(`| ${s} | ${(b / runs / 1e6).toFixed(3)} |`);
}
console.log(`\nload average 1 min: ${loadavg()[0]!.toFixed(2)}`);
session.disconnect();
await p1.close();
