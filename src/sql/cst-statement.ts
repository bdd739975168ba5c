/**
 * CST → AST for statements (the rules of parser.ts). Every Statement's pos
 * spans its whole text (without the `;`), so `statementText` can slice it.
 * `CREATE EXTERNAL TABLE name [(cols)] STORED AS CSV ... LOCATION 'path'`
 * (DataFusion) becomes CREATE TABLE name AS SELECT ... FROM read_csv('path').
 * `PRAGMA name [= value]` (DuckDB) becomes SET (value true when absent).
 */
import type { CstNode } from 'chevrotain';
import type { ColumnDef, Expr, FromItem, Pos, Query, SelectItem, Statement } from './ast.js';
import { astError, has, maybeNode, nameOf, node, nodePos, nodes, stringOf, token } from './cst-access.js';
import { listItems, typeText, type AstContext } from './cst-expr.js';
import { names, qualifiedName, tableName, toQuery } from './cst-to-ast.js';
import { copyStatement, deleteStatement, inspectStatement, updateStatement } from './cst-dml.js';
import { Kw, NumberLit, StringLit } from './lexer.js';

/** Converts a `statement` CST node. */
export function toStatement(cx: AstContext, n: CstNode): Statement {
  const pos = nodePos(n);
  const c = n.children;
  if (c.query) return { kind: 'query', query: toQuery(cx, node(n, 'query')), pos };
  if (c.create) return create(cx, node(n, 'create'), pos);
  if (c.insert) {
    const s = node(n, 'insert');
    const columns = maybeNode(s, 'columns');
    return { kind: 'insert', table: tableName(node(s, 'table')), ...(columns ? { columns: names(columns) } : {}), source: toQuery(cx, node(s, 'source')), pos };
  }
  if (c.drop) {
    const s = node(n, 'drop');
    const t = token(s, 'object').tokenType;
    const object = t === Kw.TABLE ? 'table' : t === Kw.VIEW ? 'view' : 'index';
    return { kind: 'drop', object, name: tableName(node(s, 'name')), ifExists: has(s, 'ifExists'), pos };
  }
  if (c.showTables) return { kind: 'showTables', pos };
  if (c.prepare) return { kind: 'prepare', name: nameOf(token(n, 'preparedName')), query: toQuery(cx, node(n, 'prepared')), pos };
  if (c.execute) {
    const args = maybeNode(n, 'args');
    return { kind: 'execute', name: nameOf(token(n, 'preparedName')), args: args === undefined ? [] : listItems(cx, args), pos };
  }
  if (c.deallocate) return { kind: 'deallocate', name: nameOf(token(n, 'preparedName')), pos };
  if (c.showCaches) return { kind: 'showCaches', pos };
  if (c.describe) return inspectStatement(cx, 'describe', node(n, 'describe'), pos);
  if (c.summarize) return inspectStatement(cx, 'summarize', node(n, 'summarize'), pos);
  if (c.update) return updateStatement(cx, node(n, 'update'), pos);
  if (c.delete) return deleteStatement(cx, node(n, 'delete'), pos);
  if (c.copy) return copyStatement(cx, node(n, 'copy'), pos);
  if (c.explain) return { kind: 'explain', analyze: has(n, 'analyze'), statement: toStatement(cx, node(n, 'explained')), pos };
  if (c.set) {
    const s = node(n, 'set');
    const v = maybeNode(s, 'value');
    return { kind: 'set', name: qualifiedName(node(s, 'name')), value: v === undefined ? true : settingValue(v), pos };
  }
  if (c.cache) {
    const s = node(n, 'cache');
    const q = maybeNode(s, 'query');
    const opts = maybeNode(s, 'options');
    return {
      kind: 'cache',
      lazy: has(s, 'lazy'),
      name: tableName(node(s, 'name')),
      options: opts === undefined ? {} : optionRecord(opts),
      ...(q === undefined ? {} : { query: toQuery(cx, q) }),
      pos,
    };
  }
  if (c.uncache) return { kind: 'uncache', name: tableName(node(n, 'name')), ifExists: has(n, 'ifExists'), pos };
  return { kind: 'clearCache', pos };
}

function create(cx: AstContext, s: CstNode, pos: Pos): Statement {
  const name = tableName(node(s, 'name'));
  const orReplace = has(s, 'orReplace');
  const ifNotExists = has(node(s, 'ifNotExists'), 'present');
  if (has(s, 'index')) return { kind: 'createIndex', name, table: tableName(node(s, 'on')), pos };
  if (has(s, 'view')) {
    const columns = maybeNode(s, 'columns');
    return { kind: 'createView', name, ...(columns ? { columns: names(columns) } : {}), query: toQuery(cx, node(s, 'query')), orReplace, ifNotExists, pos };
  }
  if (has(s, 'external')) return external(cx, s, name, orReplace, ifNotExists, pos);
  const q = maybeNode(s, 'query');
  const elements = maybeNode(s, 'elements');
  if (q !== undefined) {
    if (elements === undefined) return { kind: 'createTableAs', name, query: toQuery(cx, q), orReplace, ifNotExists, pos };
    // CREATE TABLE t (a INT, b TEXT) AS query: the query's columns, renamed and cast to the declared ones.
    const columns = columnDefs(cx, elements);
    const source: FromItem = { kind: 'subquery', query: toQuery(cx, q), alias: name, columnAliases: columns.map((c) => c.name), pos };
    return { kind: 'createTableAs', name, query: castColumns(columns, source, pos), orReplace, ifNotExists, pos };
  }
  if (elements === undefined) throw astError(cx.text, pos, `CREATE TABLE ${name} needs a column list (name type, ...) or AS followed by a query`);
  return { kind: 'createTable', name, columns: columnDefs(cx, elements), orReplace, ifNotExists, pos };
}

/** `SELECT CAST(c AS type) AS c, ... FROM source` (or `SELECT *` when no columns are declared). */
function castColumns(columns: readonly ColumnDef[], source: FromItem, pos: Pos): Query {
  const items: SelectItem[] =
    columns.length === 0
      ? [{ kind: 'star', pos }]
      : columns.map((c) => ({ kind: 'expr', expr: { kind: 'cast', arg: { kind: 'column', name: c.name, pos }, type: c.type, pos }, alias: c.name, pos }));
  return { kind: 'select', distinct: false, items, from: [source], pos };
}

/** Column definitions; PRIMARY KEY columns (inline or in a table constraint) are NOT NULL. */
function columnDefs(cx: AstContext, n: CstNode): ColumnDef[] {
  const keys = new Set(nodes(n, 'primaryKey').filter((k) => !has(k, 'UNIQUE')).flatMap((k) => names(k).map((x) => x.toLowerCase())));
  const cols = nodes(n, 'columns').map((c): ColumnDef => {
    const name = nameOf(token(c, 'name'));
    const notNull = has(c, 'notNull') || has(c, 'primaryKey') || keys.has(name.toLowerCase());
    return { name, type: typeText(node(c, 'type')), notNull, pos: nodePos(c) };
  });
  for (const k of nodes(n, 'primaryKey')) {
    for (const [i, key] of names(k).entries()) {
      if (!cols.some((c) => c.name.toLowerCase() === key.toLowerCase())) {
        throw astError(cx.text, nodePos(k), `key column "${key}" (number ${i + 1}) is not a column of the table`);
      }
    }
  }
  return cols;
}

const FILE_FUNCTIONS: ReadonlyMap<string, string> = new Map([['csv', 'read_csv'], ['parquet', 'read_parquet'], ['arrow', 'read_arrow']]);

/** CREATE EXTERNAL TABLE → CREATE TABLE name AS SELECT [CAST(c AS type) AS c, ...| *] FROM read_xxx('path', ...) [AS name(cols)]. */
function external(cx: AstContext, s: CstNode, name: string, orReplace: boolean, ifNotExists: boolean, pos: Pos): Statement {
  const format = token(s, 'format').image.toLowerCase();
  const fn = FILE_FUNCTIONS.get(format);
  if (fn === undefined) throw astError(cx.text, nodePos(s), `STORED AS ${format.toUpperCase()} is not supported; use CSV, PARQUET or ARROW`);
  const lit = (literal: 'boolean' | 'string', value: string): Expr => ({ kind: 'literal', literal, value, pos });
  const options: { name: string; value: Expr }[] = [];
  if (has(s, 'withHeader')) options.push({ name: 'header', value: lit('boolean', 'true') });
  const opts = maybeNode(s, 'options');
  for (const [key, value] of Object.entries(opts === undefined ? {} : optionRecord(opts))) {
    const k = key.toLowerCase().replace(/^format\./, '');
    if (k === 'has_header' || k === 'header') options.push({ name: 'header', value: lit('boolean', String(value.toLowerCase() === 'true')) });
    else if (k === 'delimiter' || k === 'delim') options.push({ name: 'delim', value: lit('string', value) });
    else options.push({ name: k, value: lit('string', value) });
  }
  const elements = maybeNode(s, 'elements');
  const columns = elements === undefined ? [] : columnDefs(cx, elements);
  const source: FromItem = {
    kind: 'tableFunction',
    name: fn,
    args: [lit('string', stringOf(token(s, 'location')))],
    options,
    ...(columns.length > 0 ? { alias: name, columnAliases: columns.map((c) => c.name) } : {}),
    pos,
  };
  return { kind: 'createTableAs', name, query: castColumns(columns, source, pos), orReplace, ifNotExists, pos };
}

/** A SET / OPTIONS value: string, number, boolean, or a bare word as a string. */
function settingValue(n: CstNode): string | number | boolean {
  const t = token(n, 'value');
  if (t.tokenType === StringLit) return stringOf(t);
  if (t.tokenType === NumberLit) return Number(t.image) * (has(n, 'minus') ? -1 : 1);
  if (t.tokenType === Kw.TRUE) return true;
  if (t.tokenType === Kw.FALSE) return false;
  return nameOf(t);
}

/** OPTIONS ('k' = 'v', k2 'v2') as strings, in a null-prototype object (a key `__proto__` is an option like any other). */
function optionRecord(n: CstNode): Record<string, string> {
  const values = nodes(n, 'values');
  const out = Object.create(null) as Record<string, string>;
  (n.children.keys ?? []).forEach((k, i) => {
    const key = 'image' in k ? stringOf(k) : qualifiedName(k);
    const v = settingValue(values[i]!);
    out[key] = String(v);
  });
  return out;
}
