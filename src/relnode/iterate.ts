/**
 * The Iterate node: an iteration as a relational operator (DESIGN.md
 * "iteration", level 2 and 3). Its children, in order, are
 *
 *   variables[0..v)  the initial value of each loop variable,
 *   data[0..d)       tables the body reads (each replayed every round or not),
 *   next[0..v)       the body: each variable's next-round value,
 *   until?           the termination criteria: the loop goes on while it is non-empty.
 *
 * The body plans (next, until) are ordinary plans whose leaves may be
 * FeedbackRef (the current round's value of a variable) and DataRef (one of
 * the data inputs). Keeping them as children makes the digest, EXPLAIN
 * (the body indented under the node), structural equality, the determinism
 * check and every rewrite see the body with no special case.
 *
 * Decision: one node yields one variable (`output`); an iteration with two
 * result variables is two Iterate nodes that differ only in `output` (the
 * Table API builds both; each is planned, digested and cached on its own).
 * A RelNode keeps exactly one output schema that way.
 *
 * Decision: a FeedbackRef or DataRef is bound by the nearest enclosing
 * Iterate; nested iterations are rejected, so refs are identified by index
 * alone and digest as `FeedbackRef[variable=0;view=current]`. A subtree with
 * a free ref (a body fragment) has no meaning on its own: it must never be
 * cached, substituted or lowered outside its Iterate (`hasFreeIterationRefs`).
 *
 * Semantics of the fields (the lowering implements them, tests assert them):
 * - `mode: 'replace'` — round r computes next from the variables of round r;
 *   they become round r + 1's variables. Stops after `maxRounds` rounds, after
 *   the first round whose `until` is empty, or when every next is empty. The
 *   result is the variable's value after the last round.
 * - `mode: 'accumulate'` — semi-naive: a FeedbackRef with view `current` reads
 *   only the rows the previous round added (round 0: the initial rows); the
 *   result is the union of the initial rows and every round's rows; with
 *   `distinct` a round adds only rows not seen before (UNION), without it
 *   every row it produces (UNION ALL). Stops when a round adds nothing, or at
 *   `maxRounds`. With `keys` (USING KEY) the accumulated result is a keyed
 *   table: a new row replaces the row with the same key; view `recurring`
 *   reads that accumulated table as of the previous round.
 * - `maxRounds` counts applications of the body (`maxRounds: 10` = ten
 *   rounds). At the limit `atMaxRounds: 'return'` returns the state reached,
 *   `'error'` fails unless the loop reached its fixpoint by then. Without
 *   `maxRounds`, the environment's round cap (`maxIterationRounds`) fails a
 *   runaway loop with an error that says so.
 */
import { ValidationError } from './errors.js';
import type { RelNode } from './rel.js';
import { field, schemaOf, type Schema } from './types.js';

/** How the body sees a variable: its current value (accumulate: the previous round's new rows), or the accumulated keyed table. */
export type FeedbackView = 'current' | 'recurring';

/** A leaf of an iteration body: the current round's value of variable `variable`. */
export interface FeedbackRef {
  readonly kind: 'FeedbackRef';
  readonly variable: number;
  readonly view: FeedbackView;
  readonly schema: Schema;
}

/** A leaf of an iteration body: data input `index` of the enclosing Iterate. */
export interface DataRef {
  readonly kind: 'DataRef';
  readonly index: number;
  readonly schema: Schema;
}

export type IterateMode = 'replace' | 'accumulate';

export interface Iterate {
  readonly kind: 'Iterate';
  readonly variables: readonly RelNode[];
  readonly data: readonly RelNode[];
  /** Per data input: replayed to the body every round (true) or read once and kept (false). */
  readonly replay: readonly boolean[];
  readonly next: readonly RelNode[];
  readonly until?: RelNode;
  readonly mode: IterateMode;
  /** Accumulate mode: set semantics (UNION) or not (UNION ALL). Always false in replace mode. */
  readonly distinct: boolean;
  /** Accumulate mode, per variable: the key columns of USING KEY (undefined = not keyed). */
  readonly keys?: readonly (readonly number[] | undefined)[];
  /**
   * Keyed variables only, per variable: the non-key column whose minimum a key keeps (a row replaces its key's row
   * only when that column is smaller, NULL counting as largest; a row that does not is dropped, also from the next
   * round's rows). The min-label rewrite of WITH RECURSIVE (sql/binder/recursive-min.ts) and the USING KEY keep-min
   * shape (sql/binder/recursive-keymin.ts) set it.
   */
  readonly keepMin?: readonly (number | undefined)[];
  readonly maxRounds?: number;
  readonly atMaxRounds: 'return' | 'error';
  /** The variable this node yields. */
  readonly output: number;
  readonly schema: Schema;
}

/** What `iterate()` takes. */
export interface IterateSpec {
  readonly variables: readonly RelNode[];
  readonly data?: readonly RelNode[];
  readonly replay?: readonly boolean[];
  readonly next: readonly RelNode[];
  readonly until?: RelNode;
  readonly mode?: IterateMode;
  readonly distinct?: boolean;
  readonly keys?: readonly (readonly number[] | undefined)[];
  readonly keepMin?: readonly (number | undefined)[];
  readonly maxRounds?: number;
  readonly atMaxRounds?: 'return' | 'error';
  readonly output?: number;
}

export function feedbackRef(variable: number, schema: Schema, view: FeedbackView = 'current'): FeedbackRef {
  if (!Number.isInteger(variable) || variable < 0) throw new ValidationError(`internal error: feedback reference to variable ${variable}`);
  return { kind: 'FeedbackRef', variable, view, schema };
}

export function dataRef(index: number, schema: Schema): DataRef {
  if (!Number.isInteger(index) || index < 0) throw new ValidationError(`internal error: data reference ${index}`);
  return { kind: 'DataRef', index, schema };
}

/** The children of an Iterate in `inputs()` order. */
export function iterateChildren(n: Iterate): readonly RelNode[] {
  return n.until === undefined ? [...n.variables, ...n.data, ...n.next] : [...n.variables, ...n.data, ...n.next, n.until];
}

/** The same Iterate over new children (in `iterateChildren` order). */
export function iterateWithChildren(n: Iterate, ins: readonly RelNode[]): Iterate {
  const v = n.variables.length;
  const d = n.data.length;
  return iterate({
    variables: ins.slice(0, v),
    data: ins.slice(v, v + d),
    replay: n.replay,
    next: ins.slice(v + d, v + d + v),
    ...(n.until !== undefined ? { until: ins[v + d + v]! } : {}),
    mode: n.mode,
    distinct: n.distinct,
    ...(n.keys !== undefined ? { keys: n.keys } : {}),
    ...(n.keepMin !== undefined ? { keepMin: n.keepMin } : {}),
    ...(n.maxRounds !== undefined ? { maxRounds: n.maxRounds } : {}),
    atMaxRounds: n.atMaxRounds,
    output: n.output,
  });
}

function sameTypes(a: Schema, b: Schema): boolean {
  return a.fields.length === b.fields.length && a.fields.every((f, i) => f.type === b.fields[i]!.type);
}

function typesText(s: Schema): string {
  return `(${s.fields.map((f) => f.type).join(', ')})`;
}

/** Children of a node, without importing rel.ts's value (no value-import cycle): Iterate children are walked explicitly. */
type ChildrenOf = (n: RelNode) => readonly RelNode[];

/**
 * Checks a body plan: every FeedbackRef and DataRef names an existing
 * variable / data input with its schema, and no Iterate is nested in it.
 */
function checkBody(body: RelNode, spec: { variables: readonly RelNode[]; data: readonly RelNode[]; keys?: IterateSpec['keys'] }, childrenOf: ChildrenOf, what: string): void {
  const walk = (n: RelNode): void => {
    if (n.kind === 'FeedbackRef') {
      const v = spec.variables[n.variable];
      if (v === undefined) throw new ValidationError(`${what} reads loop variable ${n.variable}, but the iteration has ${spec.variables.length}`);
      if (!sameTypes(v.schema, n.schema)) throw new ValidationError(`${what} reads loop variable ${n.variable} as ${typesText(n.schema)}, but it is ${typesText(v.schema)}`);
      if (n.view === 'recurring' && spec.keys?.[n.variable] === undefined) throw new ValidationError(`${what} reads the accumulated table of loop variable ${n.variable}, which only a keyed (USING KEY) iteration has`);
      return;
    }
    if (n.kind === 'DataRef') {
      const d = spec.data[n.index];
      if (d === undefined) throw new ValidationError(`${what} reads data input ${n.index}, but the iteration has ${spec.data.length}`);
      if (!sameTypes(d.schema, n.schema)) throw new ValidationError(`${what} reads data input ${n.index} as ${typesText(n.schema)}, but it is ${typesText(d.schema)}`);
      return;
    }
    if (n.kind === 'Iterate') throw new ValidationError('an iteration inside the body of another iteration is not supported');
    for (const c of childrenOf(n)) walk(c);
  };
  walk(body);
}

/** Set by rel.ts once loaded (it owns `inputs`); avoids a value-import cycle between the two files. */
let childrenOfNode: ChildrenOf | undefined;
/** @internal */
export function registerChildren(f: ChildrenOf): void {
  childrenOfNode = f;
}

/** The checking constructor of an Iterate. */
export function iterate(spec: IterateSpec): Iterate {
  const childrenOf = childrenOfNode;
  if (childrenOf === undefined) throw new Error('internal error: rel.ts is not loaded');
  const { variables, next } = spec;
  const data = spec.data ?? [];
  const replay = spec.replay ?? data.map(() => false);
  const mode = spec.mode ?? 'replace';
  const output = spec.output ?? 0;
  if (variables.length === 0) throw new ValidationError('an iteration needs at least one loop variable');
  if (next.length !== variables.length) throw new ValidationError(`the iteration body returns ${next.length} next value(s) for ${variables.length} loop variable(s)`);
  if (replay.length !== data.length) throw new ValidationError(`internal error: ${replay.length} replay flags for ${data.length} data inputs`);
  if (!Number.isInteger(output) || output < 0 || output >= variables.length) throw new ValidationError(`internal error: iteration output ${output} of ${variables.length} variables`);
  if (spec.maxRounds !== undefined && (!Number.isInteger(spec.maxRounds) || spec.maxRounds < 0)) throw new ValidationError(`maxRounds must be a non-negative integer, got ${spec.maxRounds}`);
  if (spec.keys !== undefined) {
    if (mode !== 'accumulate') throw new ValidationError('USING KEY (keys) needs an accumulating iteration');
    if (spec.keys.length !== variables.length) throw new ValidationError(`internal error: ${spec.keys.length} key lists for ${variables.length} variables`);
    spec.keys.forEach((ks, i) => ks?.forEach((k) => {
      if (!Number.isInteger(k) || k < 0 || k >= variables[i]!.schema.fields.length) throw new ValidationError(`key column ${k} is out of range for loop variable ${i}`);
    }));
  }
  if (spec.keepMin !== undefined) {
    if (spec.keepMin.length !== variables.length) throw new ValidationError(`internal error: ${spec.keepMin.length} keep-min columns for ${variables.length} variables`);
    spec.keepMin.forEach((c, i) => {
      if (c === undefined) return;
      const ks = spec.keys?.[i];
      if (ks === undefined) throw new ValidationError(`internal error: keep-min column of loop variable ${i}, which has no keys`);
      if (!Number.isInteger(c) || c < 0 || c >= variables[i]!.schema.fields.length || ks.includes(c)) throw new ValidationError(`internal error: keep-min column ${c} of loop variable ${i}`);
    });
  }
  const free = (n: RelNode): boolean => hasFreeIterationRefs(n);
  variables.forEach((v, i) => { if (free(v)) throw new ValidationError(`the initial value of loop variable ${i} reads the iteration's own variables; nested iterations are not supported`); });
  data.forEach((d, i) => { if (free(d)) throw new ValidationError(`data input ${i} reads an iteration's variables; nested iterations are not supported`); });
  const scope = { variables, data, ...(spec.keys !== undefined ? { keys: spec.keys } : {}) };
  next.forEach((b, i) => {
    const want = variables[i]!.schema;
    if (!sameTypes(want, b.schema)) throw new ValidationError(`the next value of loop variable ${i} has columns ${typesText(b.schema)}, but the variable has ${typesText(want)}`);
    checkBody(b, scope, childrenOf, `the next value of loop variable ${i}`);
  });
  if (spec.until !== undefined) checkBody(spec.until, scope, childrenOf, 'the termination criteria');
  const base = variables[output]!.schema;
  const nx = next[output]!.schema;
  const schema = schemaOf(base.fields.map((f, i) => field(f.name, f.type, f.nullable || nx.fields[i]!.nullable, f.qualifier)));
  return {
    kind: 'Iterate',
    variables: [...variables],
    data: [...data],
    replay: [...replay],
    next: [...next],
    ...(spec.until !== undefined ? { until: spec.until } : {}),
    mode,
    distinct: mode === 'accumulate' ? (spec.distinct ?? true) : false,
    ...(spec.keys !== undefined ? { keys: spec.keys.map((k) => (k === undefined ? undefined : [...k])) } : {}),
    ...(spec.keepMin !== undefined ? { keepMin: [...spec.keepMin] } : {}),
    ...(spec.maxRounds !== undefined ? { maxRounds: spec.maxRounds } : {}),
    atMaxRounds: spec.atMaxRounds ?? 'return',
    output,
    schema,
  };
}

/**
 * True when the subtree has a FeedbackRef or DataRef not bound by an Iterate
 * inside it: a fragment of an iteration body, which has no rows on its own.
 */
export function hasFreeIterationRefs(n: RelNode): boolean {
  const childrenOf = childrenOfNode;
  if (childrenOf === undefined) throw new Error('internal error: rel.ts is not loaded');
  const walk = (m: RelNode): boolean => {
    if (m.kind === 'FeedbackRef' || m.kind === 'DataRef') return true;
    // An Iterate binds the refs of its body; only its variables and data can hold free ones.
    if (m.kind === 'Iterate') return [...m.variables, ...m.data].some(walk);
    return childrenOf(m).some(walk);
  };
  return walk(n);
}

/**
 * Lifts every maximal subtree of `body` that reads no loop variable into a
 * data input: a body may read any table (a SQL recursive term names `edges`,
 * a Table API body closes over a Table), but a table is read outside the
 * loop and fed in, never scanned per round inside it. `data` is extended in
 * place (an identical subtree — same object — is lifted once); returns the
 * rewritten body. `rebuild` is rel.ts's `withInputs`.
 */
export function liftDataInputs(body: RelNode, data: RelNode[], rebuild: (n: RelNode, ins: readonly RelNode[]) => RelNode): RelNode {
  const childrenOf = childrenOfNode;
  if (childrenOf === undefined) throw new Error('internal error: rel.ts is not loaded');
  // A subtree over data refs stays in the body too (lifting it would make a data input read the
  // iteration's own inputs); over static data it runs once anyway (lower-iterate.ts).
  const readsVariables = (n: RelNode): boolean => {
    if (n.kind === 'FeedbackRef' || n.kind === 'DataRef') return true;
    return childrenOf(n).some(readsVariables);
  };
  const walk = (n: RelNode): RelNode => {
    if (n.kind === 'FeedbackRef' || n.kind === 'DataRef') return n;
    if (!readsVariables(n)) {
      let i = data.indexOf(n);
      if (i < 0) { data.push(n); i = data.length - 1; }
      return dataRef(i, n.schema);
    }
    const ch = childrenOf(n);
    const nch = ch.map(walk);
    return nch.some((c, i) => c !== ch[i]) ? rebuild(n, nch) : n;
  };
  return walk(body);
}
