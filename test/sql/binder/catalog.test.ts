/**
 * The binder below the API: it binds against any SqlCatalog — here a
 * hand-made one with no TableEnvironment — and reads session settings from
 * it (issue 7, "SQL below the API").
 */
import { describe, expect, it } from 'vitest';
import * as rel from '../../../src/relnode/rel.js';
import { field, schemaOf } from '../../../src/relnode/types.js';
import type { SqlCatalog } from '../../../src/sql/catalog.js';
import { bindToRel } from '../../../src/sql/binder/index.js';
import { parseQuery } from '../../../src/sql/parse.js';

function catalog(settings: Record<string, boolean> = {}): SqlCatalog {
  const t = rel.values([[7, 2], [9, 4]], schemaOf([field('a', 'INTEGER', false), field('b', 'INTEGER', false)]));
  return {
    relation: (name) => (name.toLowerCase() === 't' ? t : undefined),
    relationNames: () => ['t'],
    setting: (name) => settings[name],
  };
}

const bind = (c: SqlCatalog, text: string): rel.RelNode => bindToRel({ catalog: c, text }, parseQuery(text));

describe('binding against a SqlCatalog', () => {
  it('resolves tables through the catalog and types the output', () => {
    const plan = bind(catalog(), 'SELECT a + 1 AS c, b FROM t WHERE a > 1');
    expect(plan.schema.fields.map((f) => [f.name, f.type])).toEqual([['c', 'INTEGER'], ['b', 'INTEGER']]);
  });

  it('names what exists when a table is unknown', () => {
    expect(() => bind(catalog(), 'SELECT * FROM u')).toThrow(/table "u" not found; did you mean "t"\?/);
  });

  it('reads integer_division from the catalog', () => {
    const top = (c: SqlCatalog): unknown => {
      const p = bind(c, 'SELECT a / b AS q FROM t');
      return p.kind === 'Project' && p.exprs[0]!.kind === 'Call' ? [p.exprs[0]!.op, p.exprs[0]!.type] : p.kind;
    };
    expect(top(catalog())).toEqual(['divide', 'DOUBLE']);
    expect(top(catalog({ integer_division: true }))).toEqual(['int_divide', 'INTEGER']);
  });

  it('table functions need a catalog that opens files', async () => {
    const { openTableFunctions } = await import('../../../src/sql/binder/index.js');
    const text = "SELECT * FROM read_csv('x.csv')";
    await expect(openTableFunctions({ catalog: catalog(), text }, parseQuery(text))).rejects.toThrow(/this catalog does not open files/);
  });
});
