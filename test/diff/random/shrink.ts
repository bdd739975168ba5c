/**
 * The minimizer: greedily applies small simplifications to a failing query
 * (drop a set-operation side, a join, WHERE, HAVING, DISTINCT, ORDER BY /
 * LIMIT, a select item or group key; replace an expression by a child of the
 * same type or by a literal) and keeps each one that still fails the same
 * way. Every accepted step renders strictly shorter SQL, so it terminates.
 */
import { expr, hasAggregate, PREC, renderQuery, type Expr, type Join, type Query, type Select, type SetOp, type T } from './model.js';

const REMOVE = Symbol('remove');

/** Rebuilds `x` with `target` (by identity) replaced everywhere; REMOVE drops it from arrays. */
function substitute(x: unknown, target: object, repl: unknown): unknown {
  if (x === target) return repl;
  if (Array.isArray(x)) {
    let changed = false;
    const out: unknown[] = [];
    for (const v of x) {
      const r = substitute(v, target, repl);
      if (r !== v) changed = true;
      if (r !== REMOVE) out.push(r);
    }
    return changed ? out : x;
  }
  if (x !== null && typeof x === 'object') {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) {
      const r = substitute(v, target, repl);
      if (r !== v) changed = true;
      if (r !== REMOVE) out[k] = r;
    }
    return changed ? out : x;
  }
  return x;
}

interface Nodes {
  readonly exprs: Expr[];
  readonly selects: Select[];
  readonly setops: SetOp[];
  readonly groupKeys: Set<Expr>;
}

function collect(root: unknown): Nodes {
  const n: Nodes = { exprs: [], selects: [], setops: [], groupKeys: new Set() };
  const seen = new Set<object>();
  const walk = (x: unknown): void => {
    if (x === null || typeof x !== 'object' || seen.has(x)) return;
    seen.add(x);
    if (Array.isArray(x)) { x.forEach(walk); return; }
    const o = x as { k?: string };
    if (o.k === 'expr') n.exprs.push(x as Expr);
    if (o.k === 'select') {
      n.selects.push(x as Select);
      for (const g of (x as Select).groupBy ?? []) n.groupKeys.add(g);
    }
    if (o.k === 'setop') n.setops.push(x as SetOp);
    Object.values(x).forEach(walk);
  };
  walk(root);
  return n;
}

const SIMPLE: Readonly<Record<T, string>> = { int: '1', double: 'CAST(1.5 AS DOUBLE)', varchar: "'a'", date: "DATE '1995-01-01'", bool: 'TRUE' };

function tailOf(q: Query): Partial<Pick<Query, 'order' | 'limit' | 'offset'>> {
  return { ...(q.order ? { order: q.order } : {}), ...(q.limit !== undefined ? { limit: q.limit } : {}), ...(q.offset !== undefined ? { offset: q.offset } : {}) };
}

function withoutTail(q: Query): Query {
  const { order: _o, limit: _l, offset: _f, ...rest } = q;
  return rest as Query;
}

/**
 * Rejects candidates that step into known DuckDB bugs (the oracle would be
 * wrong, not eddy): HAVING on a SELECT that neither groups nor aggregates.
 */
function wellFormed(root: Query): boolean {
  return collect(root).selects.every((s) => !s.having || (s.groupBy?.length ?? 0) > 0 || s.items.some((it) => it.k === 'item' && hasAggregate(it.e)));
}

/** Candidate simplifications of `root`, coarse ones first. */
function* candidates(root: Query): Generator<Query> {
  const n = collect(root);
  const sub = (target: object, repl: unknown): Query => substitute(root, target, repl) as Query;
  for (const s of n.setops) {
    for (const side of [s.left, s.right]) {
      const hasTail = side.order !== undefined || side.limit !== undefined;
      yield sub(s, hasTail ? side : { ...side, ...tailOf(s), paren: false });
    }
  }
  for (const s of n.selects) {
    const joins = s.from?.joins ?? [];
    for (let i = joins.length - 1; i >= 0; i--) yield sub(joins[i]!, REMOVE);
    if (s.where) yield sub(s, { ...s, where: undefined });
    if (s.having) yield sub(s, { ...s, having: undefined });
    for (const it of s.items) {
      if (s.items.length < 2) break;
      const idx = s.items.indexOf(it);
      const order = s.order?.filter((o) => o.col !== idx).map((o) => (o.col > idx ? { ...o, col: o.col - 1 } : o));
      yield sub(s, { ...s, items: s.items.filter((x) => x !== it), ...(order ? { order } : {}) });
    }
    for (const g of s.groupBy ?? []) if ((s.groupBy?.length ?? 0) > 1) yield sub(s, { ...s, groupBy: s.groupBy!.filter((x) => x !== g) });
    if (s.distinct) yield sub(s, { ...s, distinct: false });
    if (s.hoist) yield sub(s, { ...s, hoist: false });
    if (s.groupBy) yield sub(s, { ...s, groupBy: undefined, having: undefined });
    // A restricted table `(SELECT * FROM t WHERE ...) AS a` becomes `t AS a`.
    for (const src of [s.from?.base, ...joins.map((j) => j.src)]) {
      if (src?.k !== 'derived' || src.q.k !== 'select' || src.q.items[0]?.k !== 'star' || src.q.from?.joins.length !== 0 || src.q.from.base.k !== 'table') continue;
      yield sub(src, { k: 'table', name: src.q.from.base.name, alias: src.alias });
    }
    for (const j of joins) if (j.word !== 'JOIN' && j.on) yield sub(j, { ...j, word: 'JOIN' } satisfies Join);
  }
  for (const q of [...n.selects, ...n.setops]) {
    if (q.order || q.limit !== undefined || q.offset !== undefined) yield sub(q, withoutTail(q));
    if (q.offset !== undefined) yield sub(q, { ...q, offset: undefined });
    if (q.limit !== undefined && q.order) yield sub(q, { ...q, limit: undefined, offset: undefined });
  }
  for (const e of n.exprs) {
    for (const p of e.parts) if (typeof p !== 'string' && p.k === 'slot' && p.e.type === e.type) yield sub(e, p.e);
    const hasSub = e.parts.some((p) => typeof p !== 'string' && p.k === 'sub');
    if (hasSub || (!e.literal && !e.column && !n.groupKeys.has(e))) yield sub(e, expr(e.type, PREC.atom, [SIMPLE[e.type]], { literal: true }));
  }
}

/** Limits of one minimization. */
export interface ShrinkBudget {
  /** Candidate runs (default 300). */
  readonly attempts?: number;
  /** Wall time, ms (default 60 s). */
  readonly ms?: number;
}

/** Shrinks `query` while `stillFails` holds, within the budget. Returns the smallest failing query found. */
export async function shrinkQuery(query: Query, stillFails: (q: Query, sql: string) => Promise<boolean>, limits: ShrinkBudget = {}): Promise<{ query: Query; sql: string; attempts: number }> {
  const budget = limits.attempts ?? 300;
  const deadline = performance.now() + (limits.ms ?? 60_000);
  let cur = query;
  let curSql = renderQuery(cur);
  const seen = new Set([curSql]);
  let attempts = 0;
  let progress = true;
  while (progress && attempts < budget && performance.now() < deadline) {
    progress = false;
    for (const cand of candidates(cur)) {
      const sql = renderQuery(cand);
      if (seen.has(sql) || sql.length >= curSql.length) continue;
      seen.add(sql);
      if (!wellFormed(cand)) continue;
      attempts++;
      if (await stillFails(cand, sql)) {
        cur = cand;
        curSql = sql;
        progress = true;
        break;
      }
      if (attempts >= budget || performance.now() >= deadline) break;
    }
  }
  return { query: cur, sql: curSql, attempts };
}
