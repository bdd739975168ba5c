/**
 * The bounded fuzz job of `npm test` (issue #11): a few hundred mutated
 * statements and corrupted CSV / NDJSON files per run, seeded (a fixed seed
 * plus one that changes daily, printed on failure), with no crash, internal
 * error, unclear message or hang. `npm run test:fuzz` runs longer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableEnvironment } from '../../src/index.js';
import type { Catalog } from '../diff/random/catalog.js';
import { formatReport, fuzzEnvironment, fuzzFiles, fuzzStatements, newReport, type FuzzFailure } from './fuzz/fuzz.js';

let env: TableEnvironment;
let catalog: Catalog;
beforeAll(async () => { ({ env, catalog } = await fuzzEnvironment()); });
afterAll(async () => { await env.close(); });

const DAILY = Math.floor(Date.now() / 86_400_000);
const show = (fs: readonly FuzzFailure[]): string => fs.slice(0, 5).map((f) => `${f.outcome}: ${f.input}\n  -> ${f.message}`).join('\n');

describe('fuzz (bounded)', () => {
  for (const seed of [1, DAILY]) {
    it(`seed ${seed}: 150 mutated statements end in an answer or a clear error`, async () => {
      const r = newReport();
      await fuzzStatements(env, catalog, r, seed, 150, 5000);
      expect(r.failures, `${formatReport(r)}\n${show(r.failures)}`).toEqual([]);
    });
    it(`seed ${seed}: 50 corrupted CSV and 50 NDJSON files read or fail clearly`, async () => {
      const r = newReport();
      await fuzzFiles(env, r, seed, 50, 5000);
      expect(r.failures, `${formatReport(r)}\n${show(r.failures)}`).toEqual([]);
    });
  }
});
