/**
 * `npm run docs:sql`: writes docs/sql.md from the function registry
 * (src/relnode/function-docs.ts renders it; test/relnode/function-registry.test.ts
 * fails when the committed file is stale).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderSqlDocs } from '../src/relnode/function-docs.js';

const target = fileURLToPath(new URL('../docs/sql.md', import.meta.url));
writeFileSync(target, renderSqlDocs());
console.log(`wrote ${target}`);
