/**
 * Common subplans computed once per query: when an optimized plan holds the
 * same aggregate or join subtree twice (TPC-H Q15's view read by the outer
 * query and by its `max(total_revenue)` subquery; a self-join of one derived
 * table), lowering returns the first occurrence's vertex for the second, so
 * the job graph is a DAG and the subtree's output fans out to both consumers.
 *
 * Decision: share at lowering, not as a plan rewrite. The scheduler already
 * runs a vertex with several consumers (DESIGN.md "Deadlock avoidance": a
 * shared subplan is pulled once and the held-back copy buffers), so no
 * materialization node or new operator is needed, and the optimized plan
 * (EXPLAIN's tree) is unchanged; the physical plan names the repeat
 * (`shared: HashAggregate#4`, job.ts explainJob).
 *
 * Sameness is the canonical digest (relnode/digest.ts) confirmed by
 * `structurallyEqual`, plus what lowering adds to a node beyond its subtree:
 * the columns its parent reads (a join gathers only those; keyed in) and
 * runtime filters of joins above (a subtree whose scans take a pending filter
 * is never shared: the filter would drop rows the other consumer needs).
 * Only deterministic subtrees without iterations or cache writes qualify, and
 * only Aggregate, Join and Distinct roots: cheaper nodes are not worth the
 * buffering, and a shared root already shares everything below it.
 *
 * Decision: a cheap shape hash (kind, output types, scanned table versions,
 * children; no expressions) picks the candidates, and only roots whose shape
 * repeats are digested. Equal digests imply equal shapes, so the same subtrees
 * are shared; but most plans repeat nothing, and digesting every root of the
 * plan was ~4% of planning a TPC-H query, paid again by each worker lowering
 * its stage (bench/plan-time.ts).
 */
import { digest, isDeterministic } from '../relnode/digest.js';
import { structurallyEqual } from '../relnode/equal.js';
import { inputs, visit, type RelNode } from '../relnode/rel.js';

function isRoot(n: RelNode): boolean {
  return n.kind === 'Aggregate' || n.kind === 'Distinct' || (n.kind === 'Join' && n.joinType !== 'cross');
}

function shareable(n: RelNode): boolean {
  let ok = true;
  visit(n, (m) => {
    if (m.kind === 'Iterate' || m.kind === 'FeedbackRef' || m.kind === 'DataRef' || m.kind === 'CacheSink' || m.kind === 'TableFunction') ok = false;
  });
  return ok && isDeterministic(n);
}

const shapes = new WeakMap<RelNode, number>();

/** Mixes `s` into the 32-bit hash `h` (FNV-1a over UTF-16 code units). */
function mix(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h;
}

/**
 * A hash of what the digest holds apart from expressions: kind, output types, a scan's table
 * version and columns, and the children's shapes in order. Equal digests ⇒ equal shapes.
 */
function shape(n: RelNode): number {
  let h = shapes.get(n);
  if (h !== undefined) return h;
  h = mix(0x811c9dc5, n.kind);
  for (const f of n.schema.fields) h = mix(h, f.type);
  if (n.kind === 'Scan') h = mix(h, `${n.table.id}#${n.table.version}:${n.projection?.join(',') ?? '*'}`);
  for (const c of inputs(n)) h = Math.imul(h ^ shape(c), 16777619);
  shapes.set(n, h);
  return h;
}

/** The shareable subtrees of one plan and the vertices already lowered for them. */
export class SharedSubplans {
  /** Shapes of the root-kind subtrees in `repeated` (only those are digested at lowering). */
  private readonly repeatedShapes = new Set<number>();
  /** Digests of root-kind subtrees occurring at least twice (and shareable). */
  private readonly repeated = new Set<string>();
  private readonly lowered = new Map<string, { readonly node: RelNode; readonly vertex: number }[]>();

  /** Counts the plan's root-kind subtrees; undefined when nothing repeats (the common case: no work at lowering). */
  static of(plan: RelNode): SharedSubplans | undefined {
    const byShape = new Map<number, RelNode[]>();
    visit(plan, (m) => {
      if (!isRoot(m)) return;
      const h = shape(m);
      const list = byShape.get(h);
      if (list === undefined) byShape.set(h, [m]); else list.push(m);
    });
    const s = new SharedSubplans();
    for (const [h, nodes] of byShape) {
      if (nodes.length < 2) continue;
      const seen = new Map<string, number>();
      for (const m of nodes) { const d = digest(m); seen.set(d, (seen.get(d) ?? 0) + 1); }
      for (const [d, count] of seen) if (count >= 2) { s.repeated.add(d); s.repeatedShapes.add(h); }
    }
    return s.repeated.size === 0 ? undefined : s;
  }

  /**
   * The lookup key of `n` as lowered now, or undefined when `n` is not shared: `used` = the
   * columns its parent reads (joins only), `filtered(scan)` = a runtime filter is pending there.
   */
  key(n: RelNode, used: ReadonlySet<number> | undefined, filtered: (scan: RelNode) => boolean): string | undefined {
    if (!isRoot(n) || !this.repeatedShapes.has(shape(n))) return undefined;
    const d = digest(n);
    if (!this.repeated.has(d)) return undefined;
    let pending = false;
    visit(n, (m) => { if (m.kind === 'Scan' && filtered(m)) pending = true; });
    if (pending || !shareable(n)) return undefined;
    const cols = n.kind === 'Join' && used !== undefined ? [...used].sort((a, b) => a - b).join(',') : '*';
    return `${cols}|${d}`;
  }

  /** The vertex already lowered for a subtree equal to `n` under `key`. */
  find(key: string, n: RelNode): number | undefined {
    return this.lowered.get(key)?.find((e) => e.node === n || structurallyEqual(e.node, n))?.vertex;
  }

  /** Records the vertex lowered for `n` under `key`. */
  add(key: string, n: RelNode, vertex: number): void {
    const list = this.lowered.get(key);
    if (list === undefined) this.lowered.set(key, [{ node: n, vertex }]);
    else list.push({ node: n, vertex });
  }
}
