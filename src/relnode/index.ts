/** The relnode layer: pure data — types, schemas, RexNode, RelNode, digest, explain. */
export * from './types.js';
export * from './rex.js';
export * from './functions.js';
export * from './rel.js';
export * from './explain.js';
export * from './digest.js';
export * from './errors.js';
export * from './source-span.js';
