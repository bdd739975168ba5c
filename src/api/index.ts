/** The public Table API. */
export { TableEnvironment, type EnvironmentOptions, type SchemaSpec } from './environment.js';
export { Table, GroupedTable, type ExplainOptions, type JoinOn } from './table.js';
export * from './expr.js';
export type { Row } from './result.js';
export type { SqlResult, SqlOptions, SqlFrontEnd } from './sql-hook.js';
export { installSqlFrontEnd } from './sql-hook.js';
