/**
 * In-process A/B of two planning changes of session 9 (issue 10), on the 22 TPC-H queries: each
 * round binds every query twice (fresh node objects, so no memoized digest is shared) and runs
 * the old and the new variant on one copy each, alternating which goes first; CPU medians per
 * query. In one process both sides see the same load, which separate processes at load ~20 did
 * not (bench/plan-time.ts's per-phase figures moved ±50% between processes).
 *   fixpoint: the optimizer's pass-end check — two whole-tree digests (old) vs structurallyEqual
 *             (new, optimizer.ts); the old driver is copied here.
 *   shared:   lowering's search for repeated subtrees on the optimized plan — a digest of every
 *             aggregate / join / distinct root (old) vs the shape hash first (SharedSubplans.of).
 *
 *   node --import tsx bench/plan-ab.ts --data /work/bench-data [--rounds 30] [--only q2,q9]
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Table as ArrowTable } from 'apache-arrow';
import { TableEnvironment } from '../src/api/environment.js';
import { TPCH_TABLES } from '../src/io/tpch/index.js';
import { digest } from '../src/relnode/digest.js';
import { visit, type RelNode } from '../src/relnode/rel.js';
import { parseQuery } from '../src/sql/parse.js';
import { bindToRel } from '../src/sql/binder/index.js';
import { DEFAULT_RULES, optimize } from '../src/planner/optimizer.js';
import { mayApply, planFeatures } from '../src/planner/rule-applicability.js';
import { SharedSubplans } from '../src/planner/lower-shared.js';
import { DEFAULT_DATA_DIR, ensureData } from './suite/data.js';
import { loadQueries } from './suite/queries.js';
import { median } from './lib/timing.js';

const { values } = parseArgs({ options: { sf: { type: 'string', default: '1' }, data: { type: 'string' }, only: { type: 'string' }, rounds: { type: 'string', default: '30' } } });
const ids = values.only ? values.only.split(',') : Array.from({ length: 22 }, (_, i) => `q${i + 1}`);

/** The driver before session 9: digests of the pass's start and end plans decide the fixpoint. */
function optimizeByDigest(plan: RelNode): RelNode {
  let current = plan;
  let features = planFeatures(current);
  for (let pass = 0; pass < 20; pass++) {
    const start = current;
    let before: string | undefined;
    for (const rule of DEFAULT_RULES) {
      if (!mayApply(rule.name, features)) continue;
      const next = rule.rewrite(current);
      if (next === current) continue;
      before ??= pass === 0 ? '' : digest(start);
      current = next;
      features = planFeatures(current);
    }
    if (before === undefined || (pass > 0 && digest(current) === before)) break;
  }
  return current;
}

/** Lowering's repeated-subtree search before session 9: every root-kind subtree digested. */
function repeatedByDigest(plan: RelNode): number {
  const seen = new Map<string, number>();
  visit(plan, (m) => {
    if (m.kind !== 'Aggregate' && m.kind !== 'Distinct' && !(m.kind === 'Join' && m.joinType !== 'cross')) return;
    const d = digest(m);
    seen.set(d, (seen.get(d) ?? 0) + 1);
  });
  let n = 0;
  for (const c of seen.values()) if (c >= 2) n++;
  return n;
}

const cpuMs = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const timed = <T>(f: () => T): [T, number] => { const t = cpuMs(); const r = f(); return [r, cpuMs() - t]; };

const data = await ensureData(Number(values.sf), values.data ?? DEFAULT_DATA_DIR, (m) => console.error(m));
const loader = TableEnvironment.create({ parallelism: 1 });
const env = TableEnvironment.create({ parallelism: 2 });
for (const n of TPCH_TABLES) env.registerTable(n, await (await loader.fromArrowFile(join(data.dir, `${n}.arrow`))).collect() as ArrowTable);
await loader.close();

const queries = loadQueries(ids);
const bind = (sql: string): RelNode => bindToRel({ catalog: env.sqlCatalog, text: sql }, parseQuery(sql));
type Key = 'fixOld' | 'fixNew' | 'shOld' | 'shNew';
const samples = new Map<string, Record<Key, number[]>>(queries.map((q) => [q.id, { fixOld: [], fixNew: [], shOld: [], shNew: [] }]));
const l0 = loadavg()[0]!;
const rounds = Number(values.rounds);
for (let r = 0; r < rounds + 3; r++) {
  for (const q of queries) {
    const s = samples.get(q.id)!;
    const a = bind(q.sql), b = bind(q.sql);
    const oldFirst = r % 2 === 0;
    let oa: RelNode, ob: RelNode, ta: number, tb: number;
    if (oldFirst) { [oa, ta] = timed(() => optimizeByDigest(a)); [ob, tb] = timed(() => optimize(b)); }
    else { [ob, tb] = timed(() => optimize(b)); [oa, ta] = timed(() => optimizeByDigest(a)); }
    // The copies for the shared-subtree search: the new driver's output (no digests memoized by it).
    const c = optimize(bind(q.sql)), d = optimize(bind(q.sql));
    let sa: number, sb: number;
    if (oldFirst) { [, sa] = timed(() => repeatedByDigest(c)); [, sb] = timed(() => SharedSubplans.of(d)); }
    else { [, sb] = timed(() => SharedSubplans.of(d)); [, sa] = timed(() => repeatedByDigest(c)); }
    if (digest(oa) !== digest(ob)) throw new Error(`${q.id}: the two drivers planned differently`);
    if (r < 3) continue; // warm-up rounds
    s.fixOld.push(ta); s.fixNew.push(tb); s.shOld.push(sa); s.shNew.push(sb);
  }
}
const f = (x: number): string => x.toFixed(2);
console.log(`\nCPU ms, medians of ${rounds} interleaved rounds (load ${l0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)})\n`);
console.log('| query | optimize, digest fixpoint | optimize, structural fixpoint | repeated roots, all digested | repeated roots, shape first |');
console.log('| --- | ---: | ---: | ---: | ---: |');
const sum: Record<Key, number> = { fixOld: 0, fixNew: 0, shOld: 0, shNew: 0 };
for (const q of queries) {
  const s = samples.get(q.id)!;
  const m = (k: Key): number => { const v = median(s[k]); sum[k] += v; return v; };
  console.log(`| ${q.id} | ${f(m('fixOld'))} | ${f(m('fixNew'))} | ${f(m('shOld'))} | ${f(m('shNew'))} |`);
}
console.log(`| sum | ${f(sum.fixOld)} | ${f(sum.fixNew)} | ${f(sum.shOld)} | ${f(sum.shNew)} |`);
await env.close();
