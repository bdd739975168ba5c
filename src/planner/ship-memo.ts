/**
 * The stage decisions of plans that ran without a worker stage, remembered by the plan's digest
 * (ship-run.ts), so a fresh plan of the same query is not searched and weighed again: the
 * executor keeps such a decision per plan object (api/run-graphs.ts), but a query planned
 * again — the second run of a SQL text before its plan is kept, a Table API tree built anew per
 * call, a prepared statement run with new values — is a new plan object.
 *
 * Decision: the key is the full canonical digest (relnode/digest.ts), not its hash, with the
 * choice's options: equal digests are equal plans over the same table versions, so the candidate
 * stages, their estimates and the cost model's answers are the same. Only plans where nothing
 * shipped are remembered (a shipped stage's result replaces it, and a later stage is decided on
 * that result's real rows), and only deterministic ones; a few dozen entries, oldest dropped first.
 * The decisions kept name their scans by a detached copy (name, rows), so that a remembered plan
 * never keeps a replaced table's data alive.
 */
import * as rel from '../relnode/rel.js';
import type { RelNode } from '../relnode/rel.js';
import { digest, isDeterministic } from '../relnode/digest.js';
import type { TableSource } from '../io/source.js';
import type { StageChoice, StageDecision } from './ship-choose.js';

/** Plans remembered per environment. */
export const STAGELESS_MEMO_SIZE = 64;

/** Decisions of stageless plans by digest. */
export class StagelessPlans {
  private readonly byKey = new Map<string, readonly StageDecision[]>();

  /** The key of `plan` under `options` (the choice's settings), or undefined when it is not remembered. */
  key(plan: RelNode, options: string): string | undefined {
    return isDeterministic(plan) ? `${options}|${digest(plan)}` : undefined;
  }

  /** The decisions made for a plan of this key that ran no stage, if any. */
  get(key: string | undefined): readonly StageDecision[] | undefined {
    return key === undefined ? undefined : this.byKey.get(key);
  }

  /** Remembers that a plan of this key runs no stage, and why. */
  set(key: string | undefined, decisions: readonly StageDecision[]): void {
    if (key === undefined) return;
    this.byKey.delete(key);
    this.byKey.set(key, decisions.map(detached));
    if (this.byKey.size > STAGELESS_MEMO_SIZE) this.byKey.delete(this.byKey.keys().next().value!);
  }
}

/** The decision with its scan replaced by one that holds only the table's name and row count. */
function detached(d: StageDecision): StageDecision {
  const t = d.scan.table;
  const src = t.handle as TableSource;
  const handle: TableSource = { schema: t.schema, description: src.description, partitions: 1, ...(src.numRows !== undefined ? { numRows: src.numRows } : {}), scan: () => [] };
  return { ...d, scan: rel.scan({ id: t.id, name: t.name, version: t.version, schema: t.schema, handle }) };
}

/**
 * The first stage chosen for a plan object that shipped one, with the decisions its search made (the
 * candidates it refused before it, and its own) and the nodes it set aside. The executor keeps a
 * query's plan object (api/physical-plans.ts), so a SQL text run again asks for the same plan, and
 * the same first stage ships: the search (runtime filters, co-partitioning, the cost model) is not
 * made again — 0.3, 1.4, 0.7 and 2.7 ms on the calling thread per run of TPC-H Q6, Q3, Q1 and Q18 at
 * parallelism 2, serial time before any share starts. Later stages are decided on an earlier stage's
 * real rows and are searched on every run; a stage that turns out not shippable is forgotten.
 *
 * Decision: by plan object (a WeakMap), not by digest: a plan object stands for one table version
 * and its choice holds nodes of that very tree (the stage's scan and the nodes it replaces), so a
 * replaced table's plan and its memo go together. Only deterministic plans.
 */
export class FirstStages {
  private readonly byPlan = new WeakMap<RelNode, { readonly options: string; readonly choice: StageChoice; readonly decisions: readonly StageDecision[]; readonly skipped: readonly RelNode[] }>();

  /** Whether `plan` shipped a first stage under these options before. */
  has(plan: RelNode, options: string): boolean {
    return this.byPlan.get(plan)?.options === options;
  }

  /**
   * The first stage of `plan`: the remembered one (its decisions and set-aside nodes added to
   * `decisions` and `skip`, as `search` would have), or `search`'s answer, remembered when it ships one.
   */
  choose(plan: RelNode, options: string, skip: Set<RelNode>, decisions: StageDecision[], search: () => StageChoice | undefined): StageChoice | undefined {
    const m = this.byPlan.get(plan);
    if (m !== undefined && m.options === options) {
      decisions.push(...m.decisions);
      for (const n of m.skipped) skip.add(n);
      return m.choice;
    }
    const before = decisions.length;
    const choice = search();
    if (choice !== undefined && isDeterministic(plan)) this.byPlan.set(plan, { options, choice, decisions: decisions.slice(before), skipped: [...skip] });
    return choice;
  }

  /** Forgets `plan`'s first stage (it was not shippable after all). */
  forget(plan: RelNode): void {
    this.byPlan.delete(plan);
  }
}
