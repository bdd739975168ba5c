/**
 * Choosing the next worker stage of a plan (docs/multi-core.md): the candidate that
 * ship-stages.ts finds, minus those that must stay on the calling thread — a runtime filter from
 * a join above, a gathered side that the next stage co-partitions instead, and (with the cost
 * model on, `workers: 'auto'`) a stage that does not pay (ship-cost.ts). Each refusal is kept as a
 * decision for EXPLAIN.
 *
 * Decision: one function decides for both the run (ship-run.ts runs the chosen stage, replaces
 * it by its result and asks again) and EXPLAIN (which replaces the stage by an estimated
 * placeholder instead of running it), so EXPLAIN says what a run does and why.
 */
import * as rel from '../relnode/rel.js';
import type { RelNode, Scan } from '../relnode/rel.js';
import type { TableSource } from '../io/source.js';
import { fixedStatistics } from '../io/stats.js';
import { isMemorySource } from '../io/memory.js';
import { estimateColumn, estimateRows } from './estimate.js';
import { extendUpward, findAggregateStage, runtimeFilteredFromAbove, shuffleAggregate, topKFromAbove, type AggregateStage } from './ship-stages.js';
import { isFileScan } from './ship-files.js';
import { replaceNodes, sharedStage } from './ship-shared.js';
import { chooseCoPartition, groupsOnOneWorker } from './ship-copartition.js';
import { resultRows, stageCost, type StageCost, type StageShape } from './ship-cost.js';
import { markStageResult, stageResultOf } from './ship-results.js';

/** What the choice needs to know about the environment. */
export interface ChooseContext {
  /** The rows of a scan worth distributing, or undefined (small, neither in memory nor Parquet files of a row group per share, a stage's result). */
  readonly large: (s: Scan) => number | undefined;
  readonly workers: number;
  /** Whether a table column of a scan's in-memory table is clustered (ship-sorted.ts). */
  readonly sortedIn: (s: Scan, column: number) => boolean;
  /** Round-1 rows up to which a keyed stage's final aggregate runs on the calling thread. */
  readonly finalHereRows: number;
  /** Weigh each stage's cost and keep those that do not pay on the calling thread ('auto'); false ships every candidate ('large', 'always'). */
  readonly costed: boolean;
}

/** One stage considered: shipped or not, and why. */
export interface StageDecision {
  readonly mode: AggregateStage['mode'];
  readonly scan: Scan;
  readonly shipped: boolean;
  /** Why it was not shipped ('' when shipped). */
  readonly reason: string;
  /** The model's figures (absent when refused before they were weighed). */
  readonly cost?: StageCost;
  /**
   * Earlier stages' results that the candidate reads, with their rows: a run weighs it on those
   * rows, EXPLAIN on the estimate of them (its placeholder), so EXPLAIN says so.
   */
  readonly after?: readonly { readonly stage: string; readonly rows: number }[];
  /**
   * How a shipped stage runs, when it is not the plain form of its mode: `co-partitioned with
   * orders by sorted key ranges, one round` (shapeText).
   */
  readonly how?: string;
}

/** The stage to run next and the nodes its result replaces. */
export interface StageChoice {
  readonly stage: AggregateStage;
  readonly targets: readonly RelNode[];
  /** The node as found (what `skip` takes when the stage cannot ship after all). */
  readonly found: RelNode;
}

const groupRatio = (a: rel.Aggregate): number => estimateRows(a) / Math.max(1, estimateRows(a.input));

/** The description of a scan of `st`'s round-1 plan, besides its distributed scan, that reads neither an in-memory table nor an earlier stage's result, or undefined. */
function fileScanBesides(st: AggregateStage): string | undefined {
  let out: string | undefined;
  rel.visit(st.partial, (n) => {
    if (n.kind !== 'Scan' || n === st.scan || out !== undefined) return;
    const src = n.table.handle as TableSource;
    if (!isMemorySource(src) && stageResultOf(src) === undefined) out = src.description;
  });
  return out;
}

/** How ship-run.ts will run `st` (co-partitioning, rounds, contiguous ranges). */
export function stageShape(st: AggregateStage, ctx: ChooseContext): StageShape {
  const W = ctx.workers;
  const co = (st.mode === 'partial' || st.mode === 'shuffle') && W > 1 ? chooseCoPartition(st.partial, st.scan, ctx.sortedIn) : undefined;
  return {
    workers: W,
    coScans: new Set(co?.pairs.map((p) => p.other.scan) ?? []),
    oneRound: st.mode === 'partitioned' || (co !== undefined && groupsOnOneWorker(st.partial, st.keys, st.scan, co)),
    contiguous: st.partitionColumn !== undefined && ctx.sortedIn(st.scan, st.partitionColumn),
    finalHereRows: ctx.finalHereRows,
    rowsOf: estimateRows,
    sortedIn: ctx.sortedIn,
  };
}

/** Whether the stage that a gather stage feeds co-partitions the gathered side's join instead. */
function coPartitionsInstead(plan: RelNode, g: AggregateStage, ctx: ChooseContext): boolean {
  const f = g.feeds;
  if (f === undefined || ctx.workers < 2 || runtimeFilteredFromAbove(plan, f.aggregate, f.scan, estimateRows)) return false;
  return chooseCoPartition(f.aggregate, f.scan, ctx.sortedIn)?.pairs.some((p) => p.join === f.join) ?? false;
}

/**
 * The next stage of `plan` to run, or undefined when none is left. Candidates refused on the way
 * are added to `skip` (so later calls pass them by) and, with a reason, to `decisions`.
 */
export function nextStage(plan: RelNode, ctx: ChooseContext, skip: Set<RelNode>, decisions: StageDecision[]): StageChoice | undefined {
  for (;;) {
    const candidate = findAggregateStage(plan, ctx.large, skip, groupRatio, estimateRows);
    if (candidate === undefined) return undefined;
    // Over files every share would decode every row group to pick its keys' rows: shuffled instead (ship-files.ts).
    const found = candidate.mode === 'partitioned' && isFileScan(candidate.scan) ? shuffleAggregate(candidate.node as rel.Aggregate, candidate.scan) : candidate;
    const after = stageResultsIn(found.node);
    const reads = after.length > 0 ? { after } : {};
    const refuse = (reason: string, cost?: StageCost, also: readonly RelNode[] = []): void => {
      skip.add(found.node);
      for (const n of also) skip.add(n);
      decisions.push({ mode: found.mode, scan: found.scan, shipped: false, reason, ...(cost ? { cost } : {}), ...reads });
    };
    if (found.mode !== 'gather' && runtimeFilteredFromAbove(plan, found.node, found.scan, estimateRows)) { refuse('a join above gives its scan a runtime filter'); continue; }
    // A gathered side that the next stage can co-partition instead is not gathered (ship-copartition.ts).
    if (found.mode === 'gather' && coPartitionsInstead(plan, found, ctx)) { refuse('the next stage co-partitions its join instead'); continue; }
    // Every other scan of a stage ships an in-memory table (ship-run.ts): one that reads a file stays here, and EXPLAIN says so.
    const file = fileScanBesides(found);
    if (file !== undefined) { refuse(`it also reads ${file}, a file (only the scan the stage divides may read Parquet files)`); continue; }
    const shared = sharedStage(plan, found, extendUpward(plan, found), estimateRows);
    const targets = shared.targets;
    // A top-k above a stage read once runs on each worker too (ship-stages.ts topKFromAbove).
    const stage = targets.length === 1 && targets[0] === shared.stage.node ? topKFromAbove(plan, shared.stage) : shared.stage;
    // Weighed either way (EXPLAIN and bench/ship-cost.ts show it); only 'auto' acts on it.
    const shape = stageShape(stage, ctx);
    const cost = stageCost(stage, shape);
    // Refused for every occurrence it would have replaced (a repeated aggregate: TPC-H Q11, Q15).
    if (ctx.costed && !cost.ship) { refuse(cost.reason, cost, targets); continue; }
    const how = shapeText(stage, shape);
    decisions.push({ mode: stage.mode, scan: stage.scan, shipped: true, reason: '', cost, ...reads, ...(how ? { how } : {}) });
    return { stage, targets, found: found.node };
  }
}

/**
 * What EXPLAIN says about a stage's shape beyond its mode: the join sides co-partitioned with its
 * scan, contiguous key ranges of a sorted table instead of hashing, and one round (whole groups
 * on each worker, no exchange) for a mode that otherwise takes two. '' when none applies.
 */
function shapeText(st: AggregateStage, shape: StageShape): string {
  const parts: string[] = [];
  // Co-partitioning needs both tables clustered by the key (ship-copartition.ts): always key ranges.
  if (shape.coScans.size > 0) parts.push(`co-partitioned with ${[...new Set([...shape.coScans].map((s) => s.table.name))].join(', ')} by sorted key ranges`);
  else if (shape.contiguous) parts.push('by sorted key ranges');
  if (shape.oneRound && st.mode !== 'partitioned') parts.push('one round');
  return parts.join(', ');
}

/** The earlier stages' results that `n` reads (ship-results.ts), with their rows. */
function stageResultsIn(n: RelNode): { stage: string; rows: number }[] {
  const out: { stage: string; rows: number }[] = [];
  rel.visit(n, (m) => {
    if (m.kind !== 'Scan') return;
    const src = m.table.handle as TableSource;
    const stage = stageResultOf(src);
    if (stage !== undefined) out.push({ stage, rows: src.numRows ?? 0 });
  });
  return out;
}

/**
 * The decisions a run of `plan` would make, without running anything: each chosen stage is
 * replaced by a placeholder scan with its estimated rows (EXPLAIN). `onRest` gets the plan left
 * for the calling thread (`plan` itself when no stage is chosen): EXPLAIN's Physical Plan.
 */
export function planStages(plan: RelNode, ctx: ChooseContext, onRest?: (rest: RelNode) => void): StageDecision[] {
  const decisions: StageDecision[] = [];
  const skip = new Set<RelNode>();
  let cur = plan;
  for (;;) {
    const choice = nextStage(cur, ctx, skip, decisions);
    if (choice === undefined) { onRest?.(cur); return decisions; }
    // Named by its line in the Worker Stages list (the refused candidates are numbered too), as a run names it.
    cur = replaceNodes(cur, choice.targets, placeholder(choice.stage, decisions.length));
  }
}

/**
 * A scan standing for a stage's result in EXPLAIN: not in memory (never distributed again), with
 * the rows the model expects (a run decides the next stage on the result's real rows instead).
 */
function placeholder(st: AggregateStage, id: number): Scan {
  const node = st.node;
  const rows = resultRows(st, estimateRows);
  const stats = fixedStatistics(rows, node.schema.fields.map((_, i) => { const d = estimateColumn(node, i)?.ndv; return d !== undefined ? { distinct: d } : {}; }));
  const handle: TableSource = { schema: node.schema, description: `stage ${id}`, partitions: 1, numRows: rows, statistics: () => stats, scan: () => [] };
  markStageResult(handle, `stage ${id}`);
  return rel.scan({ id: `stage:${id}`, name: `stage ${id}`, version: 0, schema: node.schema, handle });
}

/** EXPLAIN's lines for the decisions (one per stage considered; none when no stage was). */
export function explainStages(decisions: readonly StageDecision[], workers: number): string[] {
  return decisions.map((d, i) => {
    const what = `${i + 1}. ${d.mode} stage over ${d.scan.table.name} (${((d.scan.table.handle as TableSource).numRows ?? 0).toLocaleString('en-US')} rows)${d.how ? `, ${d.how}` : ''}`;
    const est = d.cost ? ` (est. 1 thread ${fmt(d.cost.oneThreadMs)} ms, ${workers} workers ${fmt(d.cost.parallelMs)} ms${filtersText(d.cost)})` : '';
    const line = d.shipped ? `${what}: shipped${est}` : `${what}: not shipped: ${d.reason}${est}`;
    return d.after === undefined ? line : `${line}; weighed on ${afterText(d.after)}: a run weighs it again on the real rows`;
  });
}

/** `stage 1's ~150,008 estimated rows`. */
function afterText(after: readonly { readonly stage: string; readonly rows: number }[]): string {
  return after.map((a) => `${a.stage}'s ~${Math.round(a.rows).toLocaleString('en-US')} estimated rows`).join(' and ');
}

/** The rows runtime filters leave of the stage's scans, as the model counted them: `; runtime filters keep ~40,349 of 5,996,174 lineitem rows`. */
function filtersText(c: StageCost): string {
  if (c.runtimeFiltered.length === 0) return '';
  const n = (x: number): string => Math.round(x).toLocaleString('en-US');
  return `; runtime filters keep ${c.runtimeFiltered.map((f) => `~${n(f.kept)} of ${n(f.rows)} ${f.table} rows`).join(', ')}`;
}

function fmt(x: number): string {
  return x >= 10 ? x.toFixed(0) : x.toFixed(1);
}
