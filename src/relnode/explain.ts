/**
 * explainTerms: each node's attributes, listed once. The one list feeds three
 * readers, so they cannot disagree: EXPLAIN (explainNode, names qualified
 * where ambiguous), the digest (digest.ts: ordinals, canonical expressions)
 * and structural equality (equal.ts: part by part, expressions as trees).
 *
 * A term is a name and a value built from parts (TermPart):
 * - `text(s)`      a plain value with no column in it (`inner`, `10`, an entry id);
 * - `col(i, over)` a column, by ordinal of the schema `over` (digest `$i`, EXPLAIN its label);
 * - `rex(e, over)` an expression over `over` (digest canonical, EXPLAIN formatted);
 * - `lit(v, type)` a literal value (Values cells);
 * - `display(s)`   EXPLAIN only: never in the digest or in equality (output names);
 * - `seq(...)` parts one after the other, `list(...)` parts separated by `, `.
 * A column is never put in a `text` or `display` part: that is how a digest
 * could name a column, and two columns called `id` are different columns.
 *
 * Output names are display: renaming a column does not change the rows, and a
 * CacheSource takes its schema (names) from the query's own subtree, while the
 * result is labelled by the plan's schema, so an entry written under other
 * names answers correctly. Output types are part of the digest (digest.ts).
 *
 * A scan's identity and version are `text` (they decide the data); its table
 * name is `display`. A CacheSource is identified by its entry id, not by the
 * subtree it replaced.
 *
 * Adding a node kind: add a case below listing every attribute that changes
 * the result with the builders; the exhaustive switch makes it a compile
 * error to forget. Attributes that only change display go in `display`.
 * Expressions in `rex` parts are what `termExpressions` returns, so the
 * determinism check (caching, folding) sees a new kind's expressions too.
 * Children come from `inputs()` (rel.ts), not from terms.
 */
import { columnLabel, formatLiteral, formatRex } from './display.js';
import { inputs, type AggCall, type RelNode, type SortKey } from './rel.js';
import { assertNever, type LiteralValue, type RexNode } from './rex.js';
import type { Schema, SqlType } from './types.js';
import { frameText, usesFrame, type WindowCall } from './window.js';

export { columnLabel, columnLabels, formatLiteral, formatRex, renderRex } from './display.js';

/** A piece of a term's value; see the header comment. */
export type TermPart =
  | { readonly t: 'text'; readonly text: string }
  | { readonly t: 'col'; readonly index: number; readonly over: Schema }
  | { readonly t: 'rex'; readonly rex: RexNode; readonly over: Schema }
  | { readonly t: 'lit'; readonly value: LiteralValue; readonly type: SqlType }
  | { readonly t: 'display'; readonly text: string }
  | { readonly t: 'seq'; readonly parts: readonly TermPart[] }
  | { readonly t: 'list'; readonly items: readonly TermPart[] };

/** One attribute of a node. */
export interface Term {
  readonly name: string;
  readonly value: TermPart;
}

const text = (s: string): TermPart => ({ t: 'text', text: s });
const col = (index: number, over: Schema): TermPart => ({ t: 'col', index, over });
const rex = (e: RexNode, over: Schema): TermPart => ({ t: 'rex', rex: e, over });
const lit = (value: LiteralValue, type: SqlType): TermPart => ({ t: 'lit', value, type });
const display = (s: string): TermPart => ({ t: 'display', text: s });
const seq = (...parts: TermPart[]): TermPart => ({ t: 'seq', parts });
const list = (items: readonly TermPart[]): TermPart => ({ t: 'list', items });
const term = (name: string, value: TermPart): Term => ({ name, value });
/** The part builders, for code outside this file that builds terms (tests, future node kinds elsewhere). */
export const part = { text, col, rex, lit, display, seq, list } as const;
const cols = (ordinals: readonly number[], over: Schema): TermPart => list(ordinals.map((i) => col(i, over)));
const rexes = (es: readonly RexNode[], over: Schema): TermPart => list(es.map((e) => rex(e, over)));

function aggCallPart(a: AggCall, over: Schema): TermPart {
  const star = a.fn === 'count_star';
  const order = a.order === undefined || a.order.length === 0 ? '' : ` ORDER BY ${a.order.map((o) => `${o.desc ? 'DESC' : 'ASC'} NULLS ${o.nullsFirst ? 'FIRST' : 'LAST'}`).join(', ')}`;
  return seq(text(star ? 'count' : a.fn), text('('), text(a.distinct ? 'DISTINCT ' : ''), star ? text('*') : cols(a.args, over), text(order), text(')'), display(` AS ${a.name}`));
}

const sortKeys = (keys: readonly SortKey[], over: Schema): TermPart =>
  list(keys.map((k) => seq(col(k.index, over), text(` ${k.desc ? 'DESC' : 'ASC'} NULLS ${k.nullsFirst ? 'FIRST' : 'LAST'}`))));

/** `sum($1) ROWS BETWEEN 1 PRECEDING AND CURRENT ROW AS s`; the frame only for functions that read it. */
function windowCallPart(c: WindowCall, over: Schema): TermPart {
  const name = c.fn === 'count_star' ? 'count' : c.fn;
  const args: TermPart[] = c.fn === 'count_star' ? [text('*')] : c.args.map((i) => col(i, over));
  if (c.param !== undefined) args.splice(c.fn === 'ntile' ? 0 : 1, 0, text(String(c.param)));
  const frame = usesFrame(c.fn) ? text(` ${frameText(c.frame)}`) : text('');
  return seq(text(name), text('('), list(args), text(')'), frame, display(` AS ${c.name}`));
}

export function explainTerms(n: RelNode): Term[] {
  switch (n.kind) {
    case 'Scan': {
      const t: Term[] = [term('table', display(n.table.name)), term('version', text(`${n.table.id}#${n.table.version}`))];
      if (n.projection) t.push(term('columns', cols(n.projection, n.table.schema)));
      if (n.pushedFilters) t.push(term('filters', rexes(n.pushedFilters, n.table.schema)));
      return t;
    }
    case 'Values':
      return [
        term('rows', list(n.rows.map((r) => seq(text('('), list(r.map((v, i) => lit(v, n.schema.fields[i]!.type))), text(')'))))),
        term('types', text(n.schema.fields.map((f) => f.type).join(', '))),
      ];
    case 'Filter':
      return [term('condition', rex(n.condition, n.input.schema))];
    case 'Project':
      return [term('exprs', rexes(n.exprs, n.input.schema)), term('names', display(n.schema.fields.map((f) => f.name).join(', ')))];
    case 'Aggregate':
      return [term('group', cols(n.groupKeys, n.input.schema)), term('aggs', list(n.aggCalls.map((a) => aggCallPart(a, n.input.schema))))];
    case 'Join':
      return [term('type', text(n.joinType)), term('condition', rex(n.condition, { fields: [...n.left.schema.fields, ...n.right.schema.fields] }))];
    case 'Sort': {
      const t: Term[] = [term('keys', sortKeys(n.keys, n.input.schema))];
      if (n.fetch !== undefined) t.push(term('fetch', text(String(n.fetch))));
      if (n.offset) t.push(term('offset', text(String(n.offset))));
      return t;
    }
    case 'Limit':
      return n.offset ? [term('fetch', text(String(n.fetch))), term('offset', text(String(n.offset)))] : [term('fetch', text(String(n.fetch)))];
    case 'GroupLimit': {
      const t: Term[] = [term('keys', cols(n.keys, n.input.schema)), term('fetch', text(String(n.fetch)))];
      return n.offset ? [...t, term('offset', text(String(n.offset)))] : t;
    }
    case 'Window':
      return [
        term('partition', cols(n.partitionKeys, n.input.schema)),
        term('order', sortKeys(n.orderKeys, n.input.schema)),
        term('calls', list(n.calls.map((c) => windowCallPart(c, n.input.schema)))),
      ];
    case 'Union':
      return [term('all', text(String(n.all)))];
    case 'SetOp':
      return [term('op', text(n.op)), term('all', text(String(n.all)))];
    case 'Distinct':
      return [];
    case 'CacheSource': {
      const t: Term[] = [term('entry', text(n.entryId))];
      if (n.projection) t.push(term('columns', cols(n.projection, n.original.schema)));
      if (n.pushedFilters) t.push(term('filters', rexes(n.pushedFilters, n.original.schema)));
      return t;
    }
    case 'CacheSink':
      return [term('entry', text(n.entryId))];
    case 'Correlate':
      return [term('type', text(n.joinType)), term('condition', rex(n.condition, { fields: [...n.left.schema.fields, ...n.right.schema.fields] }))];
    case 'Iterate': {
      // Children (iterate.ts): variables, data, next, until? — the counts below say where each group starts.
      const t: Term[] = [
        term('mode', text(n.mode)),
        term('variables', text(String(n.variables.length))),
        term('data', text(String(n.data.length))),
        term('output', text(String(n.output))),
      ];
      if (n.data.length > 0) t.push(term('replay', text(n.replay.map((r) => (r ? 'replay' : 'once')).join(', '))));
      if (n.mode === 'accumulate') t.push(term('distinct', text(String(n.distinct))));
      if (n.keys !== undefined) t.push(term('keys', list(n.keys.map((ks, i) => (ks === undefined ? text('-') : seq(text('('), cols(ks, n.variables[i]!.schema), text(')')))))));
      if (n.keepMin !== undefined) t.push(term('keepMin', list(n.keepMin.map((c, i) => (c === undefined ? text('-') : seq(text('min('), col(c, n.variables[i]!.schema), text(')')))))));
      if (n.until !== undefined) t.push(term('until', text('true')));
      if (n.maxRounds !== undefined) t.push(term('maxRounds', text(String(n.maxRounds))), term('atMaxRounds', text(n.atMaxRounds)));
      return t;
    }
    case 'FeedbackRef':
      return [term('variable', text(String(n.variable))), term('view', text(n.view))];
    case 'DataRef':
      return [term('index', text(String(n.index)))];
    case 'TableFunction':
      return [term('function', text(n.name)), term('args', list(n.args.map((a) => seq(text(`${a.name} := `), lit(a.value, a.type)))))];
    default:
      return assertNever(n, 'RelNode');
  }
}

/** Every expression in a node's terms (for determinism checks). */
export function termExpressions(n: RelNode): RexNode[] {
  const out: RexNode[] = [];
  const walk = (p: TermPart): void => {
    if (p.t === 'rex') out.push(p.rex);
    else if (p.t === 'seq') p.parts.forEach(walk);
    else if (p.t === 'list') p.items.forEach(walk);
  };
  for (const t of explainTerms(n)) walk(t.value);
  return out;
}

/** A term part as EXPLAIN shows it. */
export function displayPart(p: TermPart): string {
  switch (p.t) {
    case 'text': case 'display': return p.text;
    case 'col': return columnLabel(p.index, p.over);
    case 'rex': return formatRex(p.rex, p.over, subqueryText);
    case 'lit': return formatLiteral(p.value);
    case 'seq': return p.parts.map(displayPart).join('');
    case 'list': return p.items.map(displayPart).join(', ');
    default: return assertNever(p, 'TermPart');
  }
}

/** A subquery plan on one line: each node, then its inputs after ` <- ` (several in parentheses). */
function subqueryText(n: RelNode): string {
  const ch = inputs(n);
  if (ch.length === 0) return explainNode(n);
  const rest = ch.length === 1 ? subqueryText(ch[0]!) : `(${ch.map(subqueryText).join(', ')})`;
  return `${explainNode(n)} <- ${rest}`;
}

/** The one-line header of a node in EXPLAIN: `Filter(condition=[...])`. */
export function explainNode(n: RelNode): string {
  return `${n.kind}(${explainTerms(n).map((t) => `${t.name}=[${displayPart(t.value)}]`).join(', ')})`;
}

/** A whole tree as indented text, one node per line. `annotate` may append text to a node's line. */
export function explainTree(root: RelNode, annotate?: (n: RelNode) => string | undefined): string {
  const lines: string[] = [];
  const walk = (n: RelNode, depth: number): void => {
    const extra = annotate?.(n);
    lines.push(`${'  '.repeat(depth)}${explainNode(n)}${extra ? ` ${extra}` : ''}`);
    for (const c of inputs(n)) walk(c, depth + 1);
  };
  walk(root, 0);
  return lines.join('\n');
}
