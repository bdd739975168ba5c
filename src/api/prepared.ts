/**
 * Prepared statements (`env.prepare(sql)`, SQL `PREPARE name AS ...`):
 * a query with parameters `$1`, `$2`, ... or `?` (positional), run many
 * times with different values. Values are bound as literals into the plan,
 * never spliced into the text.
 *
 * What is cached, and why: the text is parsed once, and on the first run the
 * query is bound once, with each parameter a literal object of its own; later
 * runs copy that bound plan with the new literals put in place of those
 * objects (one walk) and then optimize, lower and run it. The optimized plan
 * is not reused: the optimizer folds literals (a `$1 > 5` becomes TRUE or
 * FALSE, `x = $1` goes into scan zone maps), so an optimized plan is only
 * right for the values it was made with; re-optimizing a small plan costs
 * microseconds, and exactness wins. The bound plan is reused only when the
 * binder treated every parameter as an opaque value: each literal records
 * whether the binder read its value (it does for `LIMIT $1`, a VALUES row,
 * a cast it folds, ...), and if it did, or if the parameter was not found in
 * the plan's expressions as often as it was bound, every run binds again
 * (still parsed once). The catalog, the views and the settings are stamped:
 * a change re-binds, as DuckDB re-prepares.
 *
 * Types: a parameter takes the SQL type of its first value (number → INTEGER,
 * or BIGINT / DOUBLE when it does not fit, bigint → BIGINT, string → VARCHAR,
 * boolean → BOOLEAN, Date → TIMESTAMP); later values must fit that type
 * (an integer for INTEGER, any number for DOUBLE, ...) or the run fails naming
 * the parameter. NULL fits every type; a first value NULL leaves the parameter
 * untyped, and it re-binds each run. (DuckDB types parameters from their
 * context at PREPARE time; with eddy's binder the first values decide, and
 * the comparison then casts as it does for a literal written in the text.)
 */
import type { Table as ArrowTable } from 'apache-arrow';
import { ValidationError } from '../relnode/errors.js';
import * as rel from '../relnode/rel.js';
import { literal, rexTransform, type Literal, type LiteralValue, type RexNode } from '../relnode/rex.js';
import type { SqlType } from '../relnode/types.js';
import type { Query } from '../sql/ast.js';
import { bindToRel } from '../sql/binder/index.js';
import type { SqlCatalog } from '../sql/catalog.js';
import { parameterCount, parseQuery } from '../sql/parse.js';
import type { Row } from './result.js';
import type { QueryRunner } from './runner.js';
import { Table } from './table.js';

/** A value for a parameter. */
export type ParameterValue = number | bigint | string | boolean | Date | null;

/** What a prepared statement needs of its environment (TableEnvironment implements it). */
export interface PreparedHost extends QueryRunner {
  readonly sqlCatalog: SqlCatalog;
  /** Changes whenever a table, view or setting changes (a bound plan may then be stale). */
  readonly bindingGeneration: string;
}

/** The settings as a stamp (a handful of entries: cheap to build per run). */
export function settingsKey(settings: ReadonlyMap<string, unknown>): string {
  let s = '';
  for (const [k, v] of settings) s += `${k}=${String(v)};`;
  return s;
}

/** Counters of this process: binds and plan reuses (tests check the caching with them). */
export const preparedStats = { binds: 0, reuses: 0 };

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A parameter literal that notes when its value is read (the binder then depended on it). */
function trackedLiteral(value: LiteralValue, type: SqlType, onRead: () => void): Literal {
  const lit = { kind: 'Literal', type } as { kind: 'Literal'; type: SqlType; value: LiteralValue };
  Object.defineProperty(lit, 'value', { enumerable: true, get: () => { onRead(); return value; } });
  return lit;
}

/** The bound plan of the first run, reusable while `generation` holds. */
interface Template {
  readonly plan: rel.RelNode;
  readonly placeholders: readonly Literal[];
  readonly generation: string;
}

/**
 * A parsed query with parameters, run with `execute(...values)` (the result as an Arrow table, like
 * `Table.collect`), `toArray(...values)` (rows) or `bind(...values)` (a lazy Table that composes with the
 * Table API). Create it with `env.prepare(sql)`.
 *
 * ```ts
 * const byKey = env.prepare('SELECT o_totalprice FROM orders WHERE o_orderkey = $1');
 * const rows = await byKey.toArray(42);
 * ```
 */
export class PreparedStatement {
  /** Parameters the statement takes (`$1` … `$n`; each `?` counts one). */
  readonly parameterCount: number;
  private readonly query: Query;
  private types: (SqlType | undefined)[] | undefined;
  private template: Template | undefined;
  /** True once the binder was seen reading a parameter's value: every run binds again. */
  private rebindEachRun = false;
  /**
   * The plans of the last RECENT_VALUES value lists under one binding generation: a run with values
   * seen before gets the very same plan object, so the executor reuses its optimized plan and job
   * graph (physical-plans.ts) instead of optimizing and lowering again.
   */
  private recent: { generation: string; plans: Map<string, rel.RelNode> } = { generation: '', plans: new Map() };

  /** @internal Use `env.prepare(sql)`. */
  constructor(private readonly host: PreparedHost, readonly sql: string) {
    this.query = parseQuery(sql);
    this.parameterCount = parameterCount(sql);
  }

  /** The SQL types of the parameters, once the first run fixed them (undefined: not yet, or NULL so far). */
  get parameterTypes(): readonly (SqlType | undefined)[] | undefined {
    return this.types;
  }

  /** Runs the statement with these values; the result as an Arrow table (as `Table.collect`). */
  execute(...values: ParameterValue[]): Promise<ArrowTable> {
    return this.bind(...values).collect();
  }

  /** Runs the statement with these values; the rows as plain objects (as `Table.toArray`). */
  toArray(...values: ParameterValue[]): Promise<Row[]> {
    return this.bind(...values).toArray();
  }

  /** The query with these values, as a lazy Table (nothing runs until an action). */
  bind(...values: ParameterValue[]): Table {
    const plan = this.planFor(values);
    return new Table(this.host, plan, plan.schema.fields);
  }

  private planFor(values: readonly ParameterValue[]): rel.RelNode {
    if (values.length !== this.parameterCount) {
      throw new ValidationError(`prepared statement takes ${this.parameterCount} parameter${this.parameterCount === 1 ? '' : 's'}, ${values.length} ${values.length === 1 ? 'was' : 'were'} given: ${this.sql}`);
    }
    const types = (this.types ??= values.map((v) => typeOfValue(v, 0)));
    const lits = values.map((v, i) => {
      types[i] ??= v === null ? undefined : typeOfValue(v, i + 1);
      return literalFor(v, types[i], i + 1);
    });
    const generation = this.host.bindingGeneration;
    const key = valuesKey(values, types);
    if (this.recent.generation !== generation) this.recent = { generation, plans: new Map() };
    const seen = this.recent.plans.get(key);
    if (seen !== undefined) {
      preparedStats.reuses++;
      this.recent.plans.delete(key); // most recently used last
      this.recent.plans.set(key, seen);
      return seen;
    }
    const plan = this.planWith(lits, generation);
    this.recent.plans.set(key, plan);
    if (this.recent.plans.size > RECENT_VALUES) this.recent.plans.delete(this.recent.plans.keys().next().value!);
    return plan;
  }

  private planWith(lits: readonly Literal[], generation: string): rel.RelNode {
    const t = this.template;
    if (t !== undefined && !this.rebindEachRun && t.generation === generation) {
      preparedStats.reuses++;
      const map = new Map<RexNode, RexNode>(t.placeholders.map((p, i) => [p, lits[i]!]));
      return substituteLiterals(t.plan, map).plan;
    }
    return this.bindOnce(lits);
  }

  /** Binds with tracked literals; keeps the plan as the template when no parameter's value was read. */
  private bindOnce(lits: readonly Literal[]): rel.RelNode {
    preparedStats.binds++;
    if (this.rebindEachRun || lits.some((l) => l.type === 'NULL')) return this.bindWith(lits);
    let read = false;
    const placeholders = lits.map((l) => trackedLiteral(l.value, l.type, () => { read = true; }));
    const generation = this.host.bindingGeneration;
    const plan = bindToRel({ catalog: this.host.sqlCatalog, text: this.sql, parameters: placeholders }, this.query);
    const readWhileBinding = read;
    const out = substituteLiterals(plan, new Map<RexNode, RexNode>(placeholders.map((p, i) => [p, lits[i]!])));
    // Reusable only if the binder never looked at a value and each parameter in the text is in exactly one expression.
    if (readWhileBinding || out.replaced !== countUses(this.query)) {
      this.rebindEachRun = true;
      return this.bindWith(lits);
    }
    this.template = { plan, placeholders, generation };
    return out.plan;
  }

  private bindWith(lits: readonly Literal[]): rel.RelNode {
    return bindToRel({ catalog: this.host.sqlCatalog, text: this.sql, parameters: lits }, this.query);
  }
}

/** Value lists remembered per statement (each with its plan). */
const RECENT_VALUES = 16;

/** The values (with the parameters' types) as an unambiguous key: tag, length, text per value. */
function valuesKey(values: readonly ParameterValue[], types: readonly (SqlType | undefined)[]): string {
  let k = '';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const text = v === null ? '' : v instanceof Date ? String(v.getTime()) : Object.is(v, -0) ? '-0' : String(v);
    const tag = v === null ? 'n' : v instanceof Date ? 'D' : (typeof v)[0]!;
    k += `${types[i] ?? '?'}/${tag}${text.length}:${text}`;
  }
  return k;
}

/** How many parameter references the query's text holds (each `$n` / `?` once). */
function countUses(q: Query): number {
  let n = 0;
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) { for (const y of x) walk(y); return; }
    if (x === null || typeof x !== 'object') return;
    const o = x as Record<string, unknown>;
    if (o['kind'] === 'literal' && o['literal'] === 'parameter') { n++; return; }
    for (const k in o) if (k !== 'pos') walk(o[k]);
  };
  walk(q);
  return n;
}

/** The plan with the literal objects in `map` replaced (also inside subqueries); `replaced` counts the occurrences. */
export function substituteLiterals(plan: rel.RelNode, map: ReadonlyMap<RexNode, RexNode>): { plan: rel.RelNode; replaced: number } {
  let replaced = 0;
  const inRex = (e: RexNode): RexNode => rexTransform(e, (x) => {
    const to = map.get(x);
    if (to !== undefined) { replaced++; return to; }
    if (x.kind === 'Subquery') { const r = inRel(x.rel); return r === x.rel ? x : { ...x, rel: r }; }
    return x;
  });
  const inList = (es: readonly RexNode[]): readonly RexNode[] | undefined => {
    const out = es.map(inRex);
    return out.some((e, i) => e !== es[i]) ? out : undefined;
  };
  const inRel = (root: rel.RelNode): rel.RelNode => rel.transformUp(root, (n) => {
    switch (n.kind) {
      case 'Filter': { const c = inRex(n.condition); return c === n.condition ? n : rel.filter(n.input, c); }
      case 'Project': { const es = inList(n.exprs); return es === undefined ? n : rel.project(n.input, es, n.schema.fields.map((f) => f.name)); }
      case 'Join': { const c = inRex(n.condition); return c === n.condition ? n : rel.join(n.left, n.right, n.joinType, c); }
      case 'Correlate': { const c = inRex(n.condition); return c === n.condition ? n : rel.correlate(n.left, n.right, n.joinType, c, n.at); }
      default: return n;
    }
  });
  return { plan: inRel(plan), replaced };
}

/** The SQL type a parameter's first value gives it. `i` 0: no error (the caller re-checks with the index). */
function typeOfValue(v: ParameterValue, i: number): SqlType | undefined {
  if (v === null) return undefined;
  if (typeof v === 'number') return Number.isInteger(v) ? (v >= INT32_MIN && v <= INT32_MAX ? 'INTEGER' : Number.isSafeInteger(v) ? 'BIGINT' : 'DOUBLE') : 'DOUBLE';
  if (typeof v === 'bigint') return 'BIGINT';
  if (typeof v === 'string') return 'VARCHAR';
  if (typeof v === 'boolean') return 'BOOLEAN';
  if (v instanceof Date) return 'TIMESTAMP';
  if (i === 0) return undefined;
  throw new ValidationError(`parameter $${i}: cannot bind a ${typeof v} (use a number, bigint, string, boolean, Date or null)`);
}

/** The literal of a value for a parameter of type `t` (undefined: untyped so far, the value is NULL). */
function literalFor(v: ParameterValue, t: SqlType | undefined, i: number): Literal {
  if (v !== null) typeOfValue(v, i); // a value of no bindable kind fails here, whatever the parameter's type
  if (v === null || t === undefined) return literal(null, t ?? 'NULL');
  const bad = (): never => {
    const shown = typeof v === 'string' ? `'${v}'` : v instanceof Date ? v.toISOString() : String(v);
    throw new ValidationError(`parameter $${i} is ${t} (the type of its first value), got ${shown} (${v instanceof Date ? 'Date' : typeof v}); prepare the statement again for other types`);
  };
  switch (t) {
    case 'INTEGER': return typeof v === 'number' && Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX ? literal(v, t) : bad();
    case 'BIGINT':
      if (typeof v === 'bigint') return v >= INT64_MIN && v <= INT64_MAX ? literal(v, t) : bad();
      return typeof v === 'number' && Number.isSafeInteger(v) ? literal(BigInt(v), t) : bad();
    case 'DOUBLE': return typeof v === 'number' ? literal(v, t) : bad();
    case 'VARCHAR': return typeof v === 'string' ? literal(v, t) : bad();
    case 'BOOLEAN': return typeof v === 'boolean' ? literal(v, t) : bad();
    case 'TIMESTAMP': return v instanceof Date ? literal(v.getTime(), t) : bad();
    default: return bad();
  }
}
