/**
 * The binder on hand-built ASTs (no parser): positions in errors, CTE
 * shadowing, and a WITH RECURSIVE CTE that does not read itself bound as a plain CTE.
 */
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/index.js';
import { Table } from '../../../src/api/table.js';
import type { Expr, Pos, Query } from '../../../src/sql/ast.js';
import { bindToRel } from '../../../src/sql/binder/index.js';

/** Binds against the environment's SQL catalog and wraps the plan as the API does. */
function bindToTable({ env, text }: { env: TableEnvironment; text: string }, q: Query): Table {
  const plan = bindToRel({ catalog: env.sqlCatalog, text }, q);
  return new Table(env, plan, plan.schema.fields);
}

const at = (column: number, length: number, line = 1): Pos => ({ line, column, offset: column - 1, length });
const colRef = (name: string, p: Pos, qualifier?: string): Expr => ({ kind: 'column', name, pos: p, ...(qualifier ? { qualifier } : {}) });

describe('binding hand-built ASTs', () => {
  it('binds SELECT a + 1 AS b FROM t WHERE a > 1 and runs it', async () => {
    const env = TableEnvironment.create();
    env.registerTable('t', env.fromRecords([{ a: 1 }, { a: 2 }, { a: 3 }]));
    const text = 'SELECT a + 1 AS b FROM t WHERE a > 1';
    const q: Query = {
      kind: 'select', distinct: false, pos: at(1, 6),
      items: [{ kind: 'expr', alias: 'b', pos: at(8, 5), expr: { kind: 'binary', op: '+', left: colRef('a', at(8, 1)), right: { kind: 'literal', literal: 'number', value: '1', pos: at(12, 1) }, pos: at(8, 5) } }],
      from: [{ kind: 'table', name: 't', pos: at(24, 1) }],
      where: { kind: 'binary', op: '>', left: colRef('a', at(32, 1)), right: { kind: 'literal', literal: 'number', value: '1', pos: at(36, 1) }, pos: at(32, 5) },
    };
    expect(await bindToTable({ env, text }, q).toArray()).toEqual([{ b: 3 }, { b: 4 }]);
  });

  it('an unknown column points at its token', () => {
    const env = TableEnvironment.create();
    env.registerTable('t', env.fromRecords([{ alpha: 1 }]));
    const text = 'SELECT alpa FROM t';
    const q: Query = { kind: 'select', distinct: false, pos: at(1, 6), items: [{ kind: 'expr', expr: colRef('alpa', at(8, 4)), pos: at(8, 4) }], from: [{ kind: 'table', name: 't', pos: at(18, 1) }] };
    expect(() => bindToTable({ env, text }, q)).toThrow('line 1, column 8: column "alpa" not found; did you mean "alpha"?\n  1 | SELECT alpa FROM t\n    |        ^^^^');
  });

  it('a WITH RECURSIVE CTE that does not read itself is a plain CTE (DuckDB)', () => {
    const env = TableEnvironment.create();
    const body: Query = { kind: 'values', rows: [[{ kind: 'literal', literal: 'number', value: '1', pos: at(1, 1) }]], pos: at(1, 1) };
    const q: Query = { kind: 'with', recursive: true, ctes: [{ name: 'r', query: body, pos: at(16, 1) }], body, pos: at(1, 4) };
    const t = bindToTable({ env, text: 'WITH RECURSIVE r AS (VALUES (1)) VALUES (1)' }, q);
    expect(t.plan.kind).toBe('Values');
  });
});
