/**
 * Fuses the join chains of an iteration body into one pipeline operator
 * (src/iteration/table/pipeline.ts) when every piece fits it: inner joins on
 * an INTEGER key between the round's rows and a static side or the
 * `recurring` keyed table (joined on its key), other conjuncts comparisons of
 * INTEGER columns or constants, projections that only pick columns, topped
 * by a GROUP BY of INTEGER keys with min/max over INTEGER and count, or by
 * the joined rows themselves.
 *
 * Decision: only at parallelism 1 — the pipeline reads the keyed table of
 * its own subtask and joins without exchanges, which at p > 1 would need the
 * rows partitioned by each join's key in turn; there the body lowers to the
 * generic operators. Anything that does not fit also lowers generically, so
 * fusing never changes an answer, only how fast it comes.
 */
import type * as rel from '../relnode/rel.js';
import type { RelNode } from '../relnode/rel.js';
import { conjuncts, type RexNode } from '../relnode/rex.js';
import type { SqlType } from '../relnode/types.js';
import type { JobGraphBuilder } from '../exec/job.js';
import { PipelineOperator } from '../iteration/table/pipeline.js';
import type { Cmp, CmpOp, PipelineStep, PipelineTerminal, PruneSpec, Ref } from '../iteration/table/pipeline-spec.js';

export interface FuseContext {
  readonly b: JobGraphBuilder;
  readonly iterationId: number;
  readonly isStatic: (m: RelNode) => boolean;
  /** A static subtree that must be replayed every round (lower-iterate.ts): never a pipeline's kept side. */
  readonly isReplayed: (m: RelNode) => boolean;
  /** The USING KEY columns of a variable (undefined without keys). */
  readonly keysOf: (variable: number) => readonly number[] | undefined;
  /** A keep-min iteration's next-value aggregate: its pruning against the keyed table (pipeline.ts PruneSpec). */
  readonly pruneOf?: (m: rel.Aggregate) => PruneSpec | undefined;
  /** Lowers a node that stays outside the pipeline (the chain's base, a static side). */
  readonly lowerNode: (m: RelNode) => number;
}

/** A chain analysed: its base (lowered as is), its steps, and where each of its columns comes from. */
interface Chain {
  readonly base: RelNode;
  readonly steps: readonly PipelineStep[];
  /** The static side of each static step, by step index. */
  readonly sides: ReadonlyMap<number, RelNode>;
  readonly cols: readonly Ref[];
  readonly types: readonly SqlType[];
}

const CMP: Readonly<Record<string, CmpOp>> = { eq: 'eq', ne: 'ne', lt: 'lt', le: 'le', gt: 'gt', ge: 'ge' };
const FLIP: Readonly<Record<CmpOp, CmpOp>> = { eq: 'eq', ne: 'ne', lt: 'gt', le: 'ge', gt: 'lt', ge: 'le' };

/** The pipeline vertex for body node `m`, or undefined when `m` does not fit one. */
export function fuseBodyNode(m: RelNode, ctx: FuseContext): number | undefined {
  if (m.kind === 'Aggregate') {
    const chain = analyse(m.input, ctx);
    if (chain === undefined || chain.steps.length === 0) return undefined;
    const terminal = aggTerminal(m, chain);
    if (terminal === undefined) return undefined;
    const found = ctx.pruneOf?.(m);
    const prune = found !== undefined && variableRows(chain.base, found.variable) ? { ...found, spineIsVariable: true } : found;
    const pruned = prune !== undefined && terminal.kind === 'agg' && terminal.aggs[prune.agg]?.fn === 'min' ? { ...terminal, prune } : terminal;
    return build(m, chain, pruned, ctx);
  }
  if (m.kind !== 'Project' && m.kind !== 'Join') return undefined;
  const chain = analyse(m, ctx);
  if (chain === undefined || chain.steps.length === 0) return undefined;
  // A store column leaves the pipeline only as INTEGER (the store mirrors INTEGER columns).
  if (chain.cols.some((r, i) => isStoreRef(chain, r) && chain.types[i] !== 'INTEGER')) return undefined;
  return build(m, chain, { kind: 'rows', out: chain.cols }, ctx);
}

/** True when `m` is the working rows of `variable`, filtered or not (its columns are the variable's). */
function variableRows(m: RelNode, variable: number): boolean {
  let x = m;
  while (x.kind === 'Filter') x = x.input;
  return x.kind === 'FeedbackRef' && x.view === 'current' && x.variable === variable;
}

function isStoreRef(chain: Chain, r: Ref): boolean {
  return r.src > 0 && chain.steps[r.src - 1]!.kind === 'store';
}

function aggTerminal(m: rel.Aggregate, chain: Chain): PipelineTerminal | undefined {
  if (m.groupKeys.length === 0 || m.groupKeys.length > 3) return undefined;
  if (m.groupKeys.some((k) => chain.types[k] !== 'INTEGER')) return undefined;
  const aggs: { fn: 'min' | 'max' | 'count' | 'count_star'; arg?: Ref }[] = [];
  for (const a of m.aggCalls) {
    if (a.distinct || a.order !== undefined) return undefined;
    if (a.fn === 'count_star' && a.args.length === 0) { aggs.push({ fn: 'count_star' }); continue; }
    if (a.args.length !== 1 || chain.types[a.args[0]!] !== 'INTEGER') return undefined;
    if ((a.fn === 'min' || a.fn === 'max') && a.type === 'INTEGER') aggs.push({ fn: a.fn, arg: chain.cols[a.args[0]!]! });
    else if (a.fn === 'count' && a.type === 'BIGINT') aggs.push({ fn: 'count', arg: chain.cols[a.args[0]!]! });
    else return undefined;
  }
  return { kind: 'agg', groups: m.groupKeys.map((k) => chain.cols[k]!), aggs };
}

function build(m: RelNode, chain: Chain, terminal: PipelineTerminal, ctx: FuseContext): number {
  const base = ctx.lowerNode(chain.base);
  const inputs = [{ from: base, partitioner: { kind: 'forward' as const } }];
  const steps = chain.steps.map((s, j) => {
    if (s.kind !== 'static') return s;
    inputs.push({ from: ctx.lowerNode(chain.sides.get(j)!), partitioner: { kind: 'forward' as const } });
    return { ...s, input: inputs.length - 1 };
  });
  const spec = { steps, terminal };
  const detail = `${steps.map((s) => s.kind).join(' → ')} → ${terminal.kind === 'agg' ? 'group' : 'rows'}`;
  return ctx.b.addOperator('BodyPipeline', 1, m.schema, () => new PipelineOperator(spec), inputs, detail);
}

/** The chain below `m` (a Project of columns or an inner join with one fused side), or undefined. */
function analyse(m: RelNode, ctx: FuseContext): Chain | undefined {
  if (m.kind === 'Project') {
    const inner = analyse(m.input, ctx);
    if (inner === undefined || !m.exprs.every((e) => e.kind === 'InputRef')) return undefined;
    const idx = m.exprs.map((e) => (e as { index: number }).index);
    return { ...inner, cols: idx.map((i) => inner.cols[i]!), types: m.schema.fields.map((f) => f.type) };
  }
  if (m.kind !== 'Join' || m.joinType !== 'inner') return undefined;
  const side = fusedSide(m, ctx);
  if (side === undefined) return undefined;
  const spineNode = side === 'right' ? m.left : m.right;
  const sideNode = side === 'right' ? m.right : m.left;
  const spine = analyse(spineNode, ctx) ?? leaf(spineNode);
  const j = spine.steps.length;
  const sideCols: Ref[] = sideNode.schema.fields.map((_, c) => ({ src: j + 1, col: c }));
  const sideTypes = sideNode.schema.fields.map((f) => f.type);
  const cols = side === 'right' ? [...spine.cols, ...sideCols] : [...sideCols, ...spine.cols];
  const types = side === 'right' ? [...spine.types, ...sideTypes] : [...sideTypes, ...spine.types];
  const lw = m.left.schema.fields.length;
  const onSide = (i: number): boolean => (side === 'right' ? i >= lw : i < lw);
  const sideCol = (i: number): number => (side === 'right' ? i - lw : i);
  let key: { probe: Ref; buildKey: number } | undefined;
  const residual: Cmp[] = [];
  for (const c of conjuncts(m.condition)) {
    const cmp = comparison(c, types);
    if (cmp === undefined) return undefined;
    if (key === undefined && cmp.op === 'eq' && cmp.b !== undefined && onSide(cmp.a) !== onSide(cmp.b)) {
      const [s, p] = onSide(cmp.a) ? [cmp.a, cmp.b] : [cmp.b, cmp.a];
      key = { probe: cols[p]!, buildKey: sideCol(s) };
      continue;
    }
    residual.push({ op: cmp.op, a: cols[cmp.a]!, b: cmp.b !== undefined ? cols[cmp.b]! : { value: cmp.value! } });
  }
  if (key === undefined) return undefined;
  let step: PipelineStep;
  const sides = new Map(spine.sides);
  if (sideNode.kind === 'FeedbackRef' && sideNode.view === 'recurring') {
    const keys = ctx.keysOf(sideNode.variable);
    if (keys === undefined || keys.length !== 1 || keys[0] !== key.buildKey) return undefined;
    // Store columns are read from INTEGER mirrors: every one the residual reads must be INTEGER (checked by `comparison`).
    step = { kind: 'store', iterationId: ctx.iterationId, variable: sideNode.variable, keys, types: sideTypes, probe: key.probe, residual };
  } else {
    if (ctx.isReplayed(sideNode)) return undefined; // it would arrive every round, not once
    step = { kind: 'static', input: -1, buildKey: key.buildKey, probe: key.probe, residual };
    sides.set(j, sideNode);
  }
  return { base: spine.base, steps: [...spine.steps, step], sides, cols, types };
}

/** Which side of the join the pipeline takes over (the other is the chain), if any. */
function fusedSide(m: rel.Join, ctx: FuseContext): 'left' | 'right' | undefined {
  const isRecurring = (x: RelNode): boolean => x.kind === 'FeedbackRef' && x.view === 'recurring';
  if (isRecurring(m.right) && !isRecurring(m.left) && !ctx.isStatic(m.left)) return 'right';
  if (isRecurring(m.left) && !isRecurring(m.right) && !ctx.isStatic(m.right)) return 'left';
  const ls = ctx.isStatic(m.left);
  const rs = ctx.isStatic(m.right);
  if (ls === rs) return undefined;
  return rs ? 'right' : 'left';
}

function leaf(m: RelNode): Chain {
  return { base: m, steps: [], sides: new Map(), cols: m.schema.fields.map((_, c) => ({ src: 0, col: c })), types: m.schema.fields.map((f) => f.type) };
}

/** `InputRef op InputRef` or `InputRef op INTEGER literal` over INTEGER columns. */
function comparison(e: RexNode, types: readonly SqlType[]): { op: CmpOp; a: number; b?: number; value?: number } | undefined {
  if (e.kind !== 'Call' || e.args.length !== 2) return undefined;
  const op = CMP[e.op];
  if (op === undefined) return undefined;
  const [x, y] = e.args as [RexNode, RexNode];
  const col = (r: RexNode): number | undefined => (r.kind === 'InputRef' && types[r.index] === 'INTEGER' && r.type === 'INTEGER' ? r.index : undefined);
  const lit = (r: RexNode): number | undefined => (r.kind === 'Literal' && r.type === 'INTEGER' && typeof r.value === 'number' && Number.isInteger(r.value) ? r.value : undefined);
  const a = col(x);
  const b = col(y);
  if (a !== undefined && b !== undefined) return { op, a, b };
  if (a !== undefined && lit(y) !== undefined) return { op, a, value: lit(y)! };
  if (b !== undefined && lit(x) !== undefined) return { op: FLIP[op], a: b, value: lit(x)! };
  return undefined;
}
