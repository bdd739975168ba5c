/**
 * The SQL front end: installs itself into the API layer's hook when loaded
 * (the package root imports it), so `env.sql()`, `env.executeSql()` and SQL
 * text in Table methods work. Also exports the parser and executor entry
 * points for tools (the CLI).
 */
import { installSqlFrontEnd } from '../api/sql-hook.js';
import { bindToTable } from './binder/index.js';
import { executeSql } from './execute.js';
import { parseQuery } from './parse.js';
import { toExprNodes } from './to-expr-node.js';

installSqlFrontEnd({
  query: (env, text) => bindToTable({ env, text }, parseQuery(text)),
  execute: (env, text, options) => executeSql(env, text, options),
  parseExpressions: (text, list) => toExprNodes(text, list),
});

export { parseStatements, parseQuery, parseExpression, parseSelectItems, statementText } from './parse.js';
export { formatSqlError } from './error-format.js';
export { executeSql, executeStatement, KNOWN_SETTINGS } from './execute.js';
export { bindToTable } from './binder/index.js';
export { toExprNode, toExprNodes } from './to-expr-node.js';
export { lookupFunction, SQL_FUNCTION_NAMES } from './functions.js';
export type * from './ast.js';
