import { p1AndP2 } from './lib/p1-p2.js';
import { loadQueries } from './suite/queries.js';
import { decodePlan } from '../src/planner/ship-serialize.js';
import { lower } from '../src/planner/lower.js';
import { shippedSource } from '../src/planner/ship-tables.js';
import { ColumnCache } from '../src/planner/ship-column-cache.js';
import type { StageTask } from '../src/planner/ship-protocol.js';
import { saveProfile, startProfiler } from './lib/profile.js';
const { p1, p2 } = await p1AndP2(1, '/work/bench-data');
const r = (p2 as any).executor.runner();
for (const q of loadQueries(['q6', 'q1'])) {
  const tasks: StageTask[] = [];
  const post = r.post.bind(r);
  r.post = (i: number, t: StageTask, tr: any, s: any) => { tasks[i] = t; return post(i, t, tr, s); };
  await p2.sql(q.sql).collect(); await p2.sql(q.sql).collect();
  r.post = post;
  const task = tasks[0]!;
  const kept = new ColumnCache();
  const setup = () => {
    kept.beginTask(Object.values(task.tables));
    const sources = new Map<string, object>();
    const source = (key: string) => { let s = sources.get(key); if (!s) { s = shippedSource(task.tables[key]!, key, task.morsels?.key === key ? task.morsels : undefined, kept); sources.set(key, s); } return s; };
    const plan = decodePlan(task.plan, source);
    return lower(plan, { parallelism: 1 });
  };
  for (let i = 0; i < 300; i++) setup();
  const N = 500;
  let t0 = performance.now(); for (let i = 0; i < N; i++) setup(); const tot = (performance.now() - t0) / N;
  t0 = performance.now(); for (let i = 0; i < N; i++) decodePlan(task.plan, () => ({ schema: undefined }) as any); const dec = (performance.now() - t0) / N;
  console.log(q.id, 'setup (decode + lower) ms', tot.toFixed(3), 'decode only', dec.toFixed(3), 'plan JSON bytes', JSON.stringify(task.plan).length);
  if (process.argv[2] === 'prof') { const p = await startProfiler(100); for (let i = 0; i < 1000; i++) setup(); console.log(saveProfile(await p.stop(), `/tmp/workers/setup-${q.id}.cpuprofile`, 30)); }
}
await p1.close(); await p2.close();
