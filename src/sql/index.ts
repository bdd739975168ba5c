/**
 * The SQL front end: parser (text → AST) and binder (AST → RelNode against a
 * SqlCatalog the API implements). It sits below src/api and imports nothing
 * from it; the API calls these entry points directly (no hook, no
 * side-effect import).
 */
export { parseStatements, parseQuery, parseExpression, parseSelectItems, statementText } from './parse.js';
export { formatSqlError } from './error-format.js';
export { bindToRel, openTableFunctions, tableFunctionsIn, type SqlContext } from './binder/index.js';
export { parseTextItems, bindTextItem, textItemName, textItemHasAggregate, type TextItem, type TextBinding } from './binder/text.js';
export type { SqlCatalog, TableFunctionSpec } from './catalog.js';
export { closest } from './binder/suggest.js';
export { lookupFunction, SQL_FUNCTION_NAMES } from './functions.js';
export type * from './ast.js';
