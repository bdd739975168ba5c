/**
 * `npm run test:diff -- --count N --seed S [--parallelism P] [--verbose]`:
 * random SQL queries differentially tested against DuckDB. The logic lives
 * in test/diff/random/cli.ts (type-checked with the tests).
 */
import { main } from '../test/diff/random/cli.js';

process.exitCode = await main(process.argv.slice(2));
