/** The public Table API. */
export { TableEnvironment, type EnvironmentOptions, type SchemaSpec } from './environment.js';
export { StreamEnvironment } from './streams.js';
export { MlFunctions, type KMeansOptions, type SgdTrainingOptions } from './ml.js';
export { onTrainingRound, trainingsStarted, type TrainingRound } from '../ml/index.js';
export { onIterationRound, type IterationRound } from '../iteration/table/progress.js';
export { DataStream, ConnectedStreams, type TransformOptions } from '../iteration/stream/data-stream.js';
export type { FromRowsOptions, FromAsyncIterableOptions, StreamEnvironmentOptions } from '../iteration/stream/environment.js';
export { OutputTag, type ProcessOperator, type CoProcessOperator, type ProcessContext, type Collector, type ListState, type ProcessFactory } from '../iteration/stream/process.js';
export type { ListStateProvider } from '../iteration/stream/adapter.js';
export { Table, GroupedTable, type ActionOptions, type ExplainOptions, type JoinOn, type SampleOptions } from './table.js';
export type { PivotOptions, PivotValue, UnpivotOptions } from './pivot.js';
export { PreparedStatement, type ParameterValue } from './prepared.js';
export * from './expr.js';
export * from './expr-aggregates.js';
export {
  window, WindowSpec, WindowFunction, rowNumber, rank, denseRank, percentRank, cumeDist, ntile, lag, lead, firstValue, lastValue, nthValue,
  unboundedPreceding, unboundedFollowing, currentRow, preceding, following, type Bound,
} from './window.js';
export type { Row, ScalarValue } from './result.js';
export { uniqueRowKeys } from './result.js';
export type { SqlResult, SqlOptions } from './sql-statements.js';
export type { CacheServiceManager, CacheHooks } from '../cache/manager.js';
export type { CacheServiceInstance, EvictionEvent } from '../cache/instance.js';
export type { CacheOptions, CacheServiceOptions, StorageLevel } from '../cache/storage.js';
export type { CacheEntryInfo, CacheStats, CacheEvent, CacheTier } from '../cache/report.js';
export type { BlockReadInfo } from '../cache/source.js';
export { CacheLostError } from '../cache/errors.js';
export type { ArrowTableLike } from '../io/foreign-arrow.js';
