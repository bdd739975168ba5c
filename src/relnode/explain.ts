/**
 * explainTerms: each node's attributes, listed once. EXPLAIN renders them with
 * column names; the digest renders them canonically with ordinals. Both read
 * the same list, so the cache key cannot disagree with what EXPLAIN prints.
 */
import { functionDef } from './functions.js';
import { inputs, type RelNode } from './rel.js';
import { assertNever, type LiteralValue, type RexNode } from './rex.js';
import type { Schema } from './types.js';

/** One attribute of a node: a plain value, or expressions to render against a schema. */
export type Term =
  | { readonly name: string; readonly value: string }
  | { readonly name: string; readonly rex: readonly RexNode[]; readonly over: Schema; readonly canonical?: boolean };

export function explainTerms(n: RelNode): Term[] {
  switch (n.kind) {
    case 'Scan': {
      const t: Term[] = [{ name: 'table', value: n.table.name }, { name: 'version', value: `${n.table.id}#${n.table.version}` }];
      if (n.projection) t.push({ name: 'columns', value: n.projection.map((i) => n.table.schema.fields[i]!.name).join(', ') });
      if (n.pushedFilters) t.push({ name: 'filters', rex: n.pushedFilters, over: n.table.schema, canonical: true });
      return t;
    }
    case 'Values':
      return [{ name: 'rows', value: n.rows.map((r) => `(${r.map(formatLiteral).join(', ')})`).join(', ') }, { name: 'types', value: n.schema.fields.map((f) => f.type).join(', ') }];
    case 'Filter':
      return [{ name: 'condition', rex: [n.condition], over: n.input.schema }];
    case 'Project':
      return [{ name: 'exprs', rex: n.exprs, over: n.input.schema }, { name: 'names', value: n.schema.fields.map((f) => f.name).join(', ') }];
    case 'Aggregate': {
      const inF = n.input.schema.fields;
      const t: Term[] = [{ name: 'group', value: n.groupKeys.map((k) => inF[k]!.name).join(', ') }];
      t.push({
        name: 'aggs',
        value: n.aggCalls.map((a) => `${a.fn === 'count_star' ? 'count' : a.fn}(${a.distinct ? 'DISTINCT ' : ''}${a.fn === 'count_star' ? '*' : a.args.map((i) => inF[i]!.name).join(', ')}) AS ${a.name}`).join(', '),
      });
      return t;
    }
    case 'Join':
      return [{ name: 'type', value: n.joinType }, { name: 'condition', rex: [n.condition], over: { fields: [...n.left.schema.fields, ...n.right.schema.fields] } }];
    case 'Sort': {
      const inF = n.input.schema.fields;
      const t: Term[] = [{ name: 'keys', value: n.keys.map((k) => `${inF[k.index]!.name} ${k.desc ? 'DESC' : 'ASC'} NULLS ${k.nullsFirst ? 'FIRST' : 'LAST'}`).join(', ') }];
      if (n.fetch !== undefined) t.push({ name: 'fetch', value: String(n.fetch) });
      if (n.offset) t.push({ name: 'offset', value: String(n.offset) });
      return t;
    }
    case 'Limit':
      return n.offset ? [{ name: 'fetch', value: String(n.fetch) }, { name: 'offset', value: String(n.offset) }] : [{ name: 'fetch', value: String(n.fetch) }];
    case 'GroupLimit': {
      const t: Term[] = [{ name: 'keys', value: n.keys.map((k) => `$${k}`).join(', ') }, { name: 'fetch', value: String(n.fetch) }];
      return n.offset ? [...t, { name: 'offset', value: String(n.offset) }] : t;
    }
    case 'Union':
      return [{ name: 'all', value: String(n.all) }];
    case 'SetOp':
      return [{ name: 'op', value: n.op }, { name: 'all', value: String(n.all) }];
    case 'Distinct':
      return [];
    case 'CacheSource': {
      const t: Term[] = [{ name: 'entry', value: n.entryId }];
      if (n.projection) t.push({ name: 'columns', value: n.projection.map((i) => n.original.schema.fields[i]!.name).join(', ') });
      if (n.pushedFilters) t.push({ name: 'filters', rex: n.pushedFilters, over: n.original.schema, canonical: true });
      return t;
    }
    case 'CacheSink':
      return [{ name: 'entry', value: n.entryId }];
    case 'Correlate':
      return [{ name: 'type', value: n.joinType }, { name: 'condition', rex: [n.condition], over: { fields: [...n.left.schema.fields, ...n.right.schema.fields] } }];
    default:
      return assertNever(n, 'RelNode');
  }
}

/** Renders a literal as SQL text. */
export function formatLiteral(v: LiteralValue): string {
  if (v === null) return 'NULL';
  if (typeof v === 'string') return `'${v.replace(/'/g, "''")}'`;
  if (typeof v === 'bigint') return `${v}`;
  return String(v);
}

/** Formats an expression for display, naming columns from `over`. */
export function formatRex(e: RexNode, over: Schema): string {
  switch (e.kind) {
    case 'InputRef': return over.fields[e.index]?.name ?? `$${e.index}`;
    case 'OuterRef': return `^${e.name ?? `$${e.index}`}`;
    case 'Subquery': {
      const q = `{${subqueryText(e.rel)}}`;
      if (e.mode === 'in') return `(${formatRex(e.arg!, over)} IN ${q})`;
      return e.mode === 'exists' ? `EXISTS ${q}` : `SCALAR ${q}`;
    }
    case 'Literal':
      if (e.type === 'DATE' && typeof e.value === 'number') return `DATE '${new Date(e.value * 86_400_000).toISOString().slice(0, 10)}'`;
      return formatLiteral(e.value);
    case 'Cast': return `CAST(${formatRex(e.arg, over)} AS ${e.type})`;
    case 'Case': return `CASE ${e.whens.map((w) => `WHEN ${formatRex(w.when, over)} THEN ${formatRex(w.then, over)}`).join(' ')} ELSE ${formatRex(e.otherwise, over)} END`;
    case 'Call': {
      const d = functionDef(e.op);
      const a = e.args.map((x) => formatRex(x, over));
      if (e.op === 'is_null' || e.op === 'is_not_null') return `(${a[0]} ${d.display})`;
      if (e.op === 'in') return `(${a[0]} IN (${a.slice(1).join(', ')}))`;
      if (e.op === 'neg') return `(- ${a[0]})`;
      if (e.op === 'not') return `(NOT ${a[0]})`;
      if (d.infix) return `(${a.join(` ${d.display} `)})`;
      return `${d.display}(${a.join(', ')})`;
    }
    default: return assertNever(e, 'RexNode');
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
  const terms = explainTerms(n).map((t) => ('value' in t ? `${t.name}=[${t.value}]` : `${t.name}=[${t.rex.map((r) => formatRex(r, t.over)).join(', ')}]`));
  return `${n.kind}(${terms.join(', ')})`;
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
