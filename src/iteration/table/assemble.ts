/**
 * Assembles a table-valued iteration on a job graph (the vertex-level
 * counterpart of ../loop.ts, which works on stream nodes): per variable an
 * optional pre-filter of the initial rows (accumulate mode: seen set or keyed
 * store), the stream library's head, a gate (what the body reads), the body
 * (lowered by the caller through `LoopRefs`), an optional filter of the next
 * rows, the tail and its feedback edge; replayers for replayed data and for
 * static subtrees the body needs every round; one round-limit criteria at
 * the first head; the exit of the output variable.
 *
 * Decision: reuse HeadOperator, TailOperator, ReplayOperator and the
 * coordinator unchanged (their alignment rules are ITERATION-SEMANTICS.md's);
 * everything the relational semantics adds sits in operators of its own
 * around them (gate.ts, round-limit.ts, seen-set.ts, keyed-store.ts, coalesce.ts, exit.ts).
 */
import type { Schema } from '../../relnode/types.js';
import type { JobGraphBuilder, Partitioner } from '../../exec/job.js';
import { HeadOperator } from '../head.js';
import { TailOperator } from '../tail.js';
import { ReplayOperator } from '../replay.js';
import type { ListStateOptions } from '../list-state.js';
import { GateOperator } from './gate.js';
import { CRITERIA_SCHEMA, RoundLimitOperator } from './round-limit.js';
import { SeenSetOperator } from './seen-set.js';
import { storeOf } from './keyed-store.js';
import { KeyedUpsertOperator, RecurringOperator } from './keyed-operators.js';
import { ExitOperator, type ExitKind } from './exit.js';
import { CoalesceOperator } from './coalesce.js';
import { IterationStats } from './state.js';

/** How the body's leaves reach the loop's vertices. */
export interface LoopRefs {
  /** The loop's iteration id (the key of its shared run state and keyed stores). */
  readonly iterationId: number;
  /** The current round's rows of variable i (accumulate: the previous round's new rows). */
  current(variable: number): number;
  /** The keyed table of variable i as of the previous round (USING KEY only). */
  recurring(variable: number): number;
  /** Data input j: its vertex, or its replayer when it is replayed. */
  data(index: number): number;
  /** A replayer of `vertex` (a static subtree the body needs every round). */
  replay(vertex: number, schema: Schema): number;
}

export interface TableLoopSpec {
  readonly b: JobGraphBuilder;
  readonly parallelism: number;
  /** Vertices of the initial values, and the variables' schemas. */
  readonly variables: readonly { readonly vertex: number; readonly schema: Schema }[];
  readonly data: readonly { readonly vertex: number; readonly schema: Schema; readonly replay: boolean }[];
  readonly mode: 'replace' | 'accumulate';
  readonly distinct: boolean;
  readonly keys?: readonly (readonly number[] | undefined)[];
  /** Per keyed variable: the column whose minimum a key keeps (Iterate.keepMin). */
  readonly keepMin?: readonly (number | undefined)[];
  /** The loop runs at most this many rounds. */
  readonly limit: number;
  /** The error when the limit stopped the loop short of a fixpoint (undefined: return what was reached). */
  readonly failure?: (rounds: number) => string;
  /** Lowers the body: the vertices of each variable's next value and of the until plan. */
  readonly body: (refs: LoopRefs) => { readonly next: readonly number[]; readonly until?: number };
  /** Per variable: its next rows never repeat a key within a round (a GROUP BY of the keys), so USING KEY skips the per-round dedup. */
  readonly uniqueKeysPerRound?: readonly boolean[];
  readonly replayCache?: () => ListStateOptions;
  /** Told the run statistics of this iteration (EXPLAIN ANALYZE), with the exit vertex. */
  readonly onStats?: (exitVertex: number, stats: IterationStats) => void;
}

const forward: Partitioner = { kind: 'forward' };
let nextId = 0;

/** Builds the loop; returns the maker of each variable's exit vertex (its result). */
export function assembleTableLoop(spec: TableLoopSpec): (output: number) => number {
  const { b, parallelism: p } = spec;
  // Negative ids: never the ids of stream-level iterations (loop.ts) in the same job.
  const id = -(++nextId);
  const stats = new IterationStats();
  const n = spec.variables.length;
  const accumulate = spec.mode === 'accumulate';
  const keysOf = (i: number): readonly number[] | undefined => spec.keys?.[i];
  const allColumns = (s: Schema): number[] => s.fields.map((_, k) => k);
  const hashTo = (from: number, keys: readonly number[]): Partitioner => (p === 1 && b.parallelismOf(from) === 1 ? forward : { kind: 'hash', keys });
  const heads: number[] = [];
  const gates: number[] = [];
  const variableSubtasks = (): number => heads.reduce((s, h) => s + b.parallelismOf(h), 0);
  spec.variables.forEach((v, i) => {
    let init = v.vertex;
    const keys = keysOf(i);
    const keepMin = spec.keepMin?.[i];
    if (accumulate && keys !== undefined) {
      const min = keepMin !== undefined ? `, keep min(${v.schema.fields[keepMin]!.name})` : '';
      init = b.addOperator('KeyedInitial', p, v.schema, () => new KeyedUpsertOperator('initial', id, i, keys, false, keepMin), [{ from: init, partitioner: hashTo(init, keys) }], `key=[${keys.map((k) => v.schema.fields[k]!.name).join(', ')}]${min}`);
    } else if (accumulate && spec.distinct) {
      init = b.addOperator('SeenSet', p, v.schema, () => new SeenSetOperator(seenKey(id, i)), [{ from: init, partitioner: hashTo(init, allColumns(v.schema)) }], 'initial rows');
    }
    const feedbackInput = i === 0 ? 1 : 2;
    const inputs = i === 0 ? [{ from: init, partitioner: forward }] : [{ from: init, partitioner: forward }, { from: heads[0]!, partitioner: { kind: 'broadcast' } as const, output: 1 }];
    const head = b.addOperator(`Head${n > 1 ? i : ''}`, b.parallelismOf(init), v.schema, () => new HeadOperator({
      iterationId: id, variableSubtasks, criteriaSubtasks: () => b.parallelismOf(heads[0]!), feedbackInput, criteriaInput: () => (i === 0 ? 2 : -1),
    }), inputs, `iteration ${-id}`, { manualWatermarks: true, multiEpoch: true, sideOutputs: [v.schema], feedbackInputs: i === 0 ? 2 + (n - 1) : 1 });
    heads.push(head);
    // The body never sees a round at or past the limit: in FLIP-176 records may run rounds ahead of the
    // coordinator's decisions, so without this an asynchronous body could go past the limit before it ends.
    const dropFrom = spec.limit;
    gates.push(b.addOperator(`Current${n > 1 ? i : ''}`, b.parallelismOf(head), v.schema, () => new GateOperator({ iterationId: id, dropFrom, timesRounds: i === 0, stats, ...(spec.failure !== undefined ? { failure: spec.failure } : {}) }), [{ from: head, partitioner: forward }], `iteration ${-id}`));
  });
  const gate0 = { from: heads[0]!, partitioner: { kind: 'broadcast' } as const, output: 1 };
  const replayer = (vertex: number, schema: Schema): number => b.addOperator('Replay', b.parallelismOf(vertex), schema, () => new ReplayOperator(schema, spec.replayCache), [{ from: vertex, partitioner: forward }, gate0], `iteration ${-id}`, { manualWatermarks: true, multiEpoch: true });
  const dataVertices = spec.data.map((d) => (d.replay ? replayer(d.vertex, d.schema) : d.vertex));
  const recurring = new Map<number, number>();
  const refs: LoopRefs = {
    iterationId: id,
    current: (i) => gates[i]!,
    recurring: (i) => {
      const keys = keysOf(i);
      if (keys === undefined) throw new Error(`internal error: loop variable ${i} has no keyed table`);
      let v = recurring.get(i);
      if (v === undefined) {
        v = b.addOperator(`Recurring${n > 1 ? i : ''}`, p, spec.variables[i]!.schema, () => new RecurringOperator(id, i, keys), [gate0], `iteration ${-id}`, { manualWatermarks: true, multiEpoch: true });
        recurring.set(i, v);
      }
      return v;
    },
    data: (j) => dataVertices[j]!,
    replay: replayer,
  };
  const body = spec.body(refs);
  const criteria = b.addOperator('RoundLimit', 1, CRITERIA_SCHEMA, () => new RoundLimitOperator({ iterationId: id, hasUntil: body.until !== undefined, limit: spec.limit, stats }),
    [body.until !== undefined ? { from: body.until, partitioner: { kind: 'global' } } : gate0], `limit=${Number.isFinite(spec.limit) ? spec.limit : 'none'}${body.until !== undefined ? ', until' : ''}`);
  body.next.forEach((next, i) => {
    const schema = spec.variables[i]!.schema;
    let last = next;
    const keys = keysOf(i);
    if (accumulate && keys !== undefined) {
      const unique = spec.uniqueKeysPerRound?.[i] === true;
      const keepMin = spec.keepMin?.[i];
      const detail = `next rows${unique ? ', unique keys' : ''}${keepMin !== undefined ? `, keep min(${schema.fields[keepMin]!.name})` : ''}`;
      last = b.addOperator('KeyedRound', p, schema, () => new KeyedUpsertOperator('round', id, i, keys, unique, keepMin), [{ from: last, partitioner: hashTo(last, keys) }], detail);
    }
    else if (accumulate && spec.distinct) last = b.addOperator('SeenSet', p, schema, () => new SeenSetOperator(seenKey(id, i)), [{ from: last, partitioner: hashTo(last, allColumns(schema)) }], 'new rows');
    last = b.addOperator('Coalesce', b.parallelismOf(last), schema, () => new CoalesceOperator(), [{ from: last, partitioner: forward }], 'next rows');
    const tail = b.addOperator(`Tail${n > 1 ? i : ''}`, b.parallelismOf(last), schema, () => new TailOperator(), [{ from: last, partitioner: forward }], `iteration ${-id}`, { manualWatermarks: true });
    const head = heads[i]!;
    b.connectFeedback(head, i === 0 ? 1 : 2, tail, b.parallelismOf(tail) === b.parallelismOf(head) ? forward : { kind: 'rebalance' });
  });
  b.connectFeedback(heads[0]!, 2, criteria, { kind: 'rebalance' });
  for (let i = 1; i < n; i++) b.connectFeedback(heads[0]!, 2 + i, heads[i]!, { kind: 'broadcast' }, 1);
  const exits = new Map<number, number>();
  /** The exit of variable `out`, made on first use (the loop is shared by every variable's result). */
  return (out: number): number => {
    const known = exits.get(out);
    if (known !== undefined) return known;
    const outSchema = spec.variables[out]!.schema;
    const outKeys = keysOf(out);
    const kind: ExitKind = !accumulate ? 'last-round' : outKeys !== undefined ? 'keyed' : 'stream';
    const head = heads[out]!;
    const exitInput = kind === 'keyed' ? { from: head, partitioner: { kind: 'broadcast' } as const, output: 1 } : { from: head, partitioner: forward };
    const exit = b.addOperator('IterateExit', kind === 'keyed' ? p : b.parallelismOf(head), outSchema, () => new ExitOperator({
      iterationId: id, kind, stats,
      ...(outKeys !== undefined ? { store: (ctx) => storeOf(ctx, id, out, outKeys) } : {}),
    }), [exitInput], kind, { manualWatermarks: true, singleEpochOutput: true });
    spec.onStats?.(exit, stats);
    exits.set(out, exit);
    return exit;
  };
}

function seenKey(iterationId: number, variable: number): string {
  return `eddy.table-iteration.${iterationId}.seen.${variable}`;
}
