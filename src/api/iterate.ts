/**
 * `env.iterate`: the Table API of table-valued iteration (docs/table-iteration.md).
 * The body runs once, at build time, on Tables over FeedbackRef / DataRef
 * leaves; what it returns becomes the body plans of Iterate nodes — one per
 * variable, differing only in `output` — so each result is a lazy Table that
 * can be explained, digested and cached like any other.
 *
 * Decision: tables the body closes over (not passed as `data`) are lifted
 * into further, non-replayed data inputs (liftDataInputs): a table is read
 * outside the loop and fed in, never scanned per round. Errors name the
 * variables and data tables by the names the user gave them.
 */
import { ValidationError } from '../relnode/errors.js';
import * as rel from '../relnode/rel.js';
import type { Schema } from '../relnode/types.js';
import type { QueryRunner } from './runner.js';
import { Table } from './table.js';

/** What the body returns: each variable's next value, and optionally a table the loop goes on while non-empty. */
export interface IterateBodyResult<V extends string> {
  readonly next: Readonly<Record<V, Table>>;
  /** Replace mode: the loop stops after the first round whose `until` table is empty. */
  readonly until?: Table;
}

/** Options of `env.iterate` (names are a contract; see docs/table-iteration.md). */
export interface IterateOptions<V extends string, D extends string = never> {
  /** The initial value of each loop variable, by name. */
  readonly variables: Readonly<Record<V, Table>>;
  /** Tables the body reads, by name (read once, kept across rounds, unless listed in `replay`). */
  readonly data?: Readonly<Record<D, Table>>;
  /** Data tables re-read every round (replayed from a cache written in round 0). */
  readonly replay?: readonly D[];
  /** At most this many applications of the body; without it the environment's round cap applies. */
  readonly maxRounds?: number;
  /** At maxRounds: return the state reached (default) or fail unless the loop reached its fixpoint by then. */
  readonly atMaxRounds?: 'return' | 'error';
  /** 'replace' (default): bulk iteration; 'accumulate': semi-naive, as WITH RECURSIVE. */
  readonly mode?: 'replace' | 'accumulate';
  /** Accumulate mode: set semantics (default true, UNION) or every row (false, UNION ALL). */
  readonly distinct?: boolean;
  /** Accumulate mode, per variable: key columns (USING KEY) — new rows replace the row with their key. */
  readonly keys?: Readonly<Partial<Record<V, readonly string[]>>>;
  /**
   * Builds one round: `vars` are the current values (accumulate: the rows the previous round
   * added), `data` the data tables, `recurring` (keyed variables only) each keyed table as the
   * previous round left it.
   */
  readonly body: (vars: Readonly<Record<V, Table>>, data: Readonly<Record<D, Table>>, recurring: Readonly<Partial<Record<V, Table>>>) => IterateBodyResult<V>;
}

/** The result tables, by variable name. */
export type IterateResult<V extends string> = { readonly [K in V]: Table };

function columnsText(s: Schema): string {
  return `(${s.fields.map((f) => `${f.name} ${f.type}`).join(', ')})`;
}

function qualified(t: Table, name: string): Table['scope'] {
  return t.plan.schema.fields.map((f) => ({ ...f, qualifier: name }));
}

/** Builds the Iterate nodes of `env.iterate` and returns their Tables. */
export function iterateTables<V extends string, D extends string>(runner: QueryRunner, o: IterateOptions<V, D>): IterateResult<V> {
  const varNames = Object.keys(o.variables) as V[];
  const dataNames = Object.keys(o.data ?? {}) as D[];
  if (varNames.length === 0) throw new ValidationError('iterate() needs at least one loop variable in `variables`');
  if (typeof o.body !== 'function') throw new ValidationError('iterate() needs a `body` function');
  const mode = o.mode ?? 'replace';
  if (mode !== 'replace' && mode !== 'accumulate') throw new ValidationError(`iterate() mode must be 'replace' or 'accumulate', got ${String(mode)}`);
  if (o.distinct !== undefined && mode !== 'accumulate') throw new ValidationError("iterate() `distinct` applies to mode: 'accumulate' only");
  if (o.keys !== undefined && mode !== 'accumulate') throw new ValidationError("iterate() `keys` (USING KEY) needs mode: 'accumulate'");
  const initial = varNames.map((v) => o.variables[v]);
  const data = dataNames.map((d) => (o.data as Record<D, Table>)[d]);
  for (const t of [...initial, ...data]) {
    if (!(t instanceof Table)) throw new ValidationError('iterate() variables and data must be Tables');
    if (t.runner !== runner) throw new ValidationError('iterate() cannot use tables from a different TableEnvironment');
  }
  for (const r of o.replay ?? []) {
    if (!dataNames.includes(r)) throw new ValidationError(`iterate() replay names "${r}", which is not a data table; data tables: ${dataNames.join(', ') || '(none)'}`);
  }
  const keys = o.keys === undefined ? undefined : varNames.map((v, i) => {
    const ks = (o.keys as Partial<Record<V, readonly string[]>>)[v];
    if (ks === undefined) return undefined;
    const names = initial[i]!.columns;
    return ks.map((k) => {
      const at = names.indexOf(k);
      if (at < 0) throw new ValidationError(`iterate() key column "${k}" of variable "${v}" does not exist; its columns: ${names.join(', ')}`);
      return at;
    });
  });
  for (const k of Object.keys(o.keys ?? {})) if (!varNames.includes(k as V)) throw new ValidationError(`iterate() keys names "${k}", which is not a loop variable; variables: ${varNames.join(', ')}`);
  const vars = Object.fromEntries(varNames.map((v, i) => [v, new Table(runner, rel.feedbackRef(i, initial[i]!.schema), qualified(initial[i]!, v))])) as Record<V, Table>;
  const dataTables = Object.fromEntries(dataNames.map((d, j) => [d, new Table(runner, rel.dataRef(j, data[j]!.schema), qualified(data[j]!, d))])) as Record<D, Table>;
  const recurring = Object.fromEntries(varNames.flatMap((v, i) => (keys?.[i] !== undefined ? [[v, new Table(runner, rel.feedbackRef(i, initial[i]!.schema, 'recurring'), qualified(initial[i]!, v))]] : []))) as Partial<Record<V, Table>>;
  const result = o.body(vars, dataTables, recurring);
  if (result === null || typeof result !== 'object' || result.next === null || typeof result.next !== 'object') throw new ValidationError('iterate() body must return { next: { <variable>: Table, ... }, until?: Table }');
  for (const k of Object.keys(result.next)) if (!varNames.includes(k as V)) throw new ValidationError(`iterate() body returned a next value for "${k}", which is not a loop variable; variables: ${varNames.join(', ')}`);
  const dataPlans: rel.RelNode[] = data.map((t) => t.plan);
  const next = varNames.map((v, i) => {
    const t = (result.next as Record<V, Table | undefined>)[v];
    if (t === undefined) throw new ValidationError(`iterate() body returned no next value for variable "${v}"`);
    if (!(t instanceof Table) || t.runner !== runner) throw new ValidationError(`iterate() body: the next value of "${v}" must be a Table of this environment`);
    const want = initial[i]!.schema;
    const got = t.plan.schema;
    if (got.fields.length !== want.fields.length || got.fields.some((f, k) => f.type !== want.fields[k]!.type)) {
      throw new ValidationError(`iterate() body: the next value of "${v}" has columns ${columnsText(got)}, but the variable has ${columnsText(want)}`);
    }
    return rel.liftDataInputs(t.plan, dataPlans, rel.withInputs);
  });
  let until: rel.RelNode | undefined;
  if (result.until !== undefined) {
    if (!(result.until instanceof Table) || result.until.runner !== runner) throw new ValidationError('iterate() body: `until` must be a Table of this environment');
    until = rel.liftDataInputs(result.until.plan, dataPlans, rel.withInputs);
  }
  const replay = dataPlans.map((_, j) => j < dataNames.length && (o.replay ?? []).includes(dataNames[j]!));
  const spec: rel.IterateSpec = {
    variables: initial.map((t) => t.plan),
    data: dataPlans,
    replay,
    next,
    ...(until !== undefined ? { until } : {}),
    mode,
    ...(o.distinct !== undefined ? { distinct: o.distinct } : {}),
    ...(keys !== undefined ? { keys } : {}),
    ...(o.maxRounds !== undefined ? { maxRounds: o.maxRounds } : {}),
    ...(o.atMaxRounds !== undefined ? { atMaxRounds: o.atMaxRounds } : {}),
  };
  return Object.fromEntries(varNames.map((v, i) => {
    const node = rel.iterate({ ...spec, output: i });
    return [v, new Table(runner, node, qualified(initial[i]!, v))];
  })) as IterateResult<V>;
}
