/**
 * The function registry is the one source of truth: every SQL name binds to
 * something that exists (a catalog id with a kernel, an aggregate with a
 * state, a special form the binder builds, a table function), every catalog
 * id a user can reach is listed, eddy_functions() shows it, and the
 * committed docs/sql.md is its current rendering (`npm run docs:sql`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CALL_COMPILERS } from '../../src/exec/kernels/compile.js';
import { createAggState } from '../../src/exec/operators/agg-states.js';
import { renderSqlDocs } from '../../src/relnode/function-docs.js';
import { FUNCTION_REGISTRY, registryEntry } from '../../src/relnode/function-registry.js';
import { FUNCTIONS, aggArity, type AggFn } from '../../src/relnode/functions.js';
import { TableEnvironment } from '../../src/index.js';

/** Catalog ids only the binder reaches (operators, rewrites of special forms, internal checks). */
const INTERNAL_IDS = new Set([
  'plus', 'minus', 'times', 'divide', 'int_divide', 'neg', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'and', 'or', 'not',
  'is_null', 'is_not_null', 'in', 'like', 'ilike', 'concat_op', 'add_months', 'timestamp_add', 'assert_single_row',
  'trim', 'trim_chars', 'log10', 'log', 'log_base', 'date_part', 'try_cast',
]);

describe('function registry', () => {
  it('binds every scalar name to a catalog id with a kernel', () => {
    for (const e of FUNCTION_REGISTRY) {
      if (!('scalar' in e.binds)) continue;
      expect(FUNCTIONS.has(e.binds.scalar), `${e.name} → ${e.binds.scalar}`).toBe(true);
      expect(CALL_COMPILERS[e.binds.scalar], `kernel of ${e.binds.scalar}`).toBeDefined();
    }
  });

  it('lists every catalog id a user can call', () => {
    const bound = new Set(FUNCTION_REGISTRY.flatMap((e) => ('scalar' in e.binds ? [e.binds.scalar] : [])));
    const missing = [...FUNCTIONS.keys()].filter((id) => !bound.has(id) && !INTERNAL_IDS.has(id));
    expect(missing).toEqual([]);
  });

  it('binds every aggregate name to a state that merges', () => {
    for (const e of FUNCTION_REGISTRY) {
      if (!('aggregate' in e.binds)) continue;
      const fn = e.binds.aggregate as AggFn;
      const [min] = aggArity(fn);
      const argTypes = fn === 'bool_and' || fn === 'bool_or' ? ['BOOLEAN' as const] : Array.from({ length: min }, () => 'DOUBLE' as const);
      const s = createAggState({ fn, args: argTypes.map((_, i) => i), distinct: false, type: 'DOUBLE', name: e.name }, argTypes);
      expect(typeof s.merge, e.name).toBe('function');
    }
  });

  it('has unique, lower-case names', () => {
    for (const e of FUNCTION_REGISTRY) for (const n of [e.name, ...e.aliases]) {
      expect(n).toBe(n.toLowerCase());
      expect(registryEntry(n)).toBe(e);
    }
  });

  it('eddy_functions() lists one row per signature, with every name', async () => {
    const env = TableEnvironment.create();
    const r = await env.executeSql('SELECT name, kind, signature, description FROM eddy_functions()');
    if (r.kind !== 'rows') throw new Error('expected rows');
    const rows = r.table.toArray().map((x) => x.toJSON() as Record<string, string>);
    expect(rows.length).toBe(FUNCTION_REGISTRY.reduce((n, e) => n + e.signatures.length, 0));
    expect(new Set(rows.map((x) => x['name']))).toEqual(new Set(FUNCTION_REGISTRY.map((e) => e.name)));
    expect(rows.find((x) => x['name'] === 'regexp_replace')?.['kind']).toBe('scalar');
    expect(rows.find((x) => x['name'] === 'string_agg')?.['kind']).toBe('aggregate');
    const agg = await env.executeSql("SELECT kind, count(*) AS n FROM eddy_functions() WHERE kind = 'table' GROUP BY ALL");
    if (agg.kind !== 'rows') throw new Error('expected rows');
    expect(Number(agg.table.toArray()[0]!.toJSON()['n'])).toBeGreaterThanOrEqual(5);
  });

  it('docs/sql.md is the current rendering of the registry (run `npm run docs:sql`)', () => {
    const committed = readFileSync(new URL('../../docs/sql.md', import.meta.url), 'utf8');
    expect(committed === renderSqlDocs(), 'docs/sql.md is stale: run `npm run docs:sql` and commit it').toBe(true);
  });
});
