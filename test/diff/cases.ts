/**
 * Table-driven differential cases: `diffCase(h, name, build, sql, opts)`
 * registers one vitest test comparing the Table that `build` returns with
 * DuckDB's answer to `sql`. `diffCase.fails` marks a case that fails
 * because of a known engine bug (reported, not hidden).
 */
import { it } from 'vitest';
import type { Table } from '../../src/api/table.js';
import type { CompareOptions } from '../helpers/compare.js';
import type { Harness } from './harness.js';

/** Builds the eddy side of a case. */
export type Build = (h: Harness) => Table;

/** Registers a differential test. */
export function diffCase(h: Harness, name: string, build: Build, sql: string, opts?: CompareOptions): void {
  it(name, async () => { await h.check(build(h), sql, opts); });
}

/** Registers a differential test expected to fail (known engine bug; see the bug report in the comment at the call site). */
diffCase.fails = function fails(h: Harness, name: string, build: Build, sql: string, opts?: CompareOptions): void {
  it.fails(name, async () => { await h.check(build(h), sql, opts); });
};

/** Registers a differential test expected to fail only under some harness options (a known engine bug, e.g. one that needs parallelism > 1). */
diffCase.failsIf = function failsIf(when: (h: Harness) => boolean, h: Harness, name: string, build: Build, sql: string, opts?: CompareOptions): void {
  (when(h) ? it.fails : it)(name, async () => { await h.check(build(h), sql, opts); });
};

/** True when the harness runs eddy with parallelism above 1 (hash exchanges between subtasks). */
export const parallel = (h: Harness): boolean => (h.options.env?.parallelism ?? 1) > 1;
