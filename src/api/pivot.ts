/**
 * `table.pivot(...)` and `table.unpivot(...)`: the Table API's PIVOT and UNPIVOT. They build the SQL AST's
 * pivot / unpivot item over the table (exposed to the binder under a name no SQL text can spell) and bind it
 * with the SQL binder, so the two front ends share one planning (src/sql/binder/pivot.ts, unpivot.ts).
 * A Table is lazy and its methods bind synchronously, so `pivot` takes the values that become columns:
 * find them first, e.g. `(await t.select('year').distinct().toArray()).map((r) => r.year)`.
 */
import { ValidationError } from '../relnode/errors.js';
import type { RelNode } from '../relnode/rel.js';
import type { Expr, FromItem, PivotOn, Pos, Query } from '../sql/ast.js';
import type { SqlCatalog } from '../sql/catalog.js';
import { bindToRel } from '../sql/binder/index.js';
import { parseSelectItems } from '../sql/parse.js';
import { resolveColumn, type Scope } from './bind.js';

/** A value of a pivoted column that becomes an output column (named by its text, `null` as `NULL`). */
export type PivotValue = string | number | bigint | boolean | null;

/** Options of `table.pivot`. */
export interface PivotOptions {
  /** The column whose values become columns; several make a column per combination (`NL_2000`). */
  readonly on: string | readonly string[];
  /** The values that become columns, in order: a list, or one list per `on` column. */
  readonly values: readonly PivotValue[] | readonly (readonly PivotValue[])[];
  /** The aggregates as SQL text (`'sum(amount)'`, `'sum(amount) AS total, count(*) AS n'`); default `count(*)`. */
  readonly using?: string;
  /** The columns the output has a row per; default every column `on` and `using` do not name. */
  readonly groupBy?: string | readonly string[];
}

/** Options of `table.unpivot`. */
export interface UnpivotOptions {
  /** The columns stacked into rows; a group of columns (`['q1_sales', 'q1_returns']`) fills several value columns. */
  readonly on: readonly (string | readonly string[])[];
  /** The column that receives each stacked column's name (default `name`). */
  readonly name?: string;
  /** The value column(s) (default `value`); one per column of each `on` group. */
  readonly value?: string | readonly string[];
  /** Keep rows whose values are NULL (dropped by default, as in SQL). */
  readonly includeNulls?: boolean;
}

/** The source's name in the binder's catalog: a NUL character, which SQL text cannot contain. */
const SOURCE = '\u0000table';
const POS: Pos = { line: 1, column: 1, offset: 0, length: 0 };

/** The plan of `table.pivot(options)` over `plan` (with the table's columns `scope`). */
export function pivotPlan(catalog: SqlCatalog, plan: RelNode, scope: Scope, options: PivotOptions): RelNode {
  const on = typeof options.on === 'string' ? [options.on] : options.on;
  if (on.length === 0) throw new ValidationError('pivot() needs at least one `on` column');
  const lists = typeof options.on === 'string' ? [options.values as readonly PivotValue[]] : (options.values as readonly (readonly PivotValue[])[]);
  if (lists.length !== on.length || lists.some((l) => !Array.isArray(l))) {
    throw new ValidationError(`pivot() needs one list of values per \`on\` column (${on.length}); find them with t.select('${on[0]}').distinct()`);
  }
  const items: PivotOn[] = on.map((c, i) => ({ expr: column(scope, c), values: lists[i]!.map((v) => ({ value: literalOf(v), pos: POS })), pos: POS }));
  const text = options.using ?? 'count(*)';
  const using = parseSelectItems(text).map((it) => {
    if (it.kind === 'star') throw new ValidationError(`pivot() using: "*" is not an aggregate; write e.g. 'count(*)'`);
    return { expr: it.expr, ...(it.alias === undefined ? {} : { alias: it.alias }), pos: it.pos };
  });
  const groups = options.groupBy === undefined ? undefined : typeof options.groupBy === 'string' ? [options.groupBy] : options.groupBy;
  groups?.forEach((g) => resolveColumn(scope, g));
  const item: FromItem = { kind: 'pivot', source: source(), on: items, using, ...(groups === undefined ? {} : { groupBy: groups.map((name) => ({ name, pos: POS })) }), pos: POS };
  return bind(catalog, plan, item, text);
}

/** The plan of `table.unpivot(options)` over `plan` (with the table's columns `scope`). */
export function unpivotPlan(catalog: SqlCatalog, plan: RelNode, scope: Scope, options: UnpivotOptions): RelNode {
  if (options.on.length === 0) throw new ValidationError('unpivot() needs at least one `on` column');
  const value = options.value ?? 'value';
  const item: FromItem = {
    kind: 'unpivot',
    source: source(),
    entries: options.on.map((e) => ({ exprs: (typeof e === 'string' ? [e] : e).map((c) => column(scope, c)), pos: POS })),
    nameColumn: options.name ?? 'name',
    valueColumns: typeof value === 'string' ? [value] : value,
    includeNulls: options.includeNulls ?? false,
    pos: POS,
  };
  return bind(catalog, plan, item, '');
}

function bind(catalog: SqlCatalog, plan: RelNode, item: FromItem, text: string): RelNode {
  const withSource: SqlCatalog = {
    relation: (name) => (name === SOURCE ? plan : catalog.relation(name)),
    relationNames: () => catalog.relationNames(),
    setting: (name) => catalog.setting(name),
    ...(catalog.informationSchema ? { informationSchema: catalog.informationSchema.bind(catalog) } : {}),
  };
  const query: Query = { kind: 'select', distinct: false, items: [{ kind: 'star', pos: POS }], from: [item], pos: POS };
  try {
    return bindToRel({ catalog: withSource, text }, query);
  } catch (err) {
    // Without SQL text (unpivot) the binder's caret points at nothing: name the method instead.
    if (text !== '' || !(err instanceof ValidationError)) throw err;
    throw new ValidationError(`${item.kind}(): ${err.message.replace(/^line \d+, column \d+: /, '').split('\n')[0]}`);
  }
}

function source(): FromItem {
  return { kind: 'table', name: SOURCE, alias: 't', pos: POS };
}

/** A column reference, checked against the table's columns (so a wrong name gets the Table API's message). */
function column(scope: Scope, name: string): Expr {
  return { kind: 'column', name: scope[resolveColumn(scope, name)]!.name, pos: POS };
}

function literalOf(v: PivotValue): Expr {
  if (v === null) return { kind: 'literal', literal: 'null', value: null, pos: POS };
  if (typeof v === 'boolean') return { kind: 'literal', literal: 'boolean', value: String(v), pos: POS };
  if (typeof v === 'string') return { kind: 'literal', literal: 'string', value: v, pos: POS };
  if (typeof v === 'number' && !Number.isFinite(v)) throw new ValidationError(`pivot() values must be finite numbers, got ${v}`);
  if (typeof v === 'number' && v < 0) return { kind: 'unary', op: '-', arg: { kind: 'literal', literal: 'number', value: String(-v), pos: POS }, pos: POS };
  if (typeof v === 'bigint' && v < 0n) return { kind: 'unary', op: '-', arg: { kind: 'literal', literal: 'number', value: String(-v), pos: POS }, pos: POS };
  return { kind: 'literal', literal: 'number', value: String(v), pos: POS };
}
