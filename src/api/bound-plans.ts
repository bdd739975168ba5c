/**
 * The bound plans of recent `env.sql(text)` queries, so running the same text
 * again skips the binder (it was ~25% of a 10-row query after the parse
 * cache). A bound plan is immutable and depends only on the text, the
 * catalog, the views and the settings — the environment's binding
 * generation, which every registration, drop, INSERT, view change and SET
 * moves — so an entry is used only while the generation it was bound under
 * holds (prepared statements reuse their bound plan on the same condition).
 * Only plans whose every scan reads a registered table are kept: a plan over
 * a file (a table function) or an anonymous source is bound again each time.
 * Non-deterministic functions (`now()`, `random()`) are calls in the plan,
 * evaluated when it runs, so a reused plan still reads the clock then.
 * An LRU of 256 texts up to 16 kB, like the parse cache.
 */
import { nodeRexes, visit, type RelNode } from '../relnode/rel.js';
import { rexVisit } from '../relnode/rex.js';

const MAX_ENTRIES = 256;
const MAX_TEXT = 16 * 1024;

interface Entry {
  readonly generation: string;
  readonly plan: RelNode;
}

/** Counters of this process (tests check the reuse with them). */
export const boundPlanStats = { hits: 0, misses: 0 };

/** Recently bound plans of one environment, by query text. */
export class BoundPlans {
  private readonly entries = new Map<string, Entry>();

  /** The plan bound for `text` under `generation`, or undefined. */
  get(text: string, generation: string): RelNode | undefined {
    const e = this.entries.get(text);
    if (e === undefined || e.generation !== generation) { boundPlanStats.misses++; return undefined; }
    this.entries.delete(text); // most recently used last
    this.entries.set(text, e);
    boundPlanStats.hits++;
    return e.plan;
  }

  /** Keeps `plan` for `text` when it scans only registered tables. */
  put(text: string, generation: string, plan: RelNode): void {
    if (text.length > MAX_TEXT || !onlyCatalogScans(plan)) return;
    this.entries.delete(text);
    this.entries.set(text, { generation, plan });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }
}

/** True when every leaf reading data is a Scan of a registered table (also inside subqueries). */
function onlyCatalogScans(plan: RelNode): boolean {
  let ok = true;
  const walk = (root: RelNode): void => visit(root, (n) => {
    if (!ok) return;
    if (n.kind === 'Scan') { if (!n.table.id.startsWith('table:')) ok = false; }
    else if (n.kind === 'TableFunction' || n.kind === 'CacheSource' || n.kind === 'CacheSink') ok = false;
    for (const e of nodeRexes(n)) rexVisit(e, (x) => { if (x.kind === 'Subquery') walk(x.rel); });
  });
  walk(plan);
  return ok;
}
