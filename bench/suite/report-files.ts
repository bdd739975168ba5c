/**
 * Writes the suite's files: suite-sf<sf>.json (the SuiteReport, numbers to
 * microseconds), suite-sf<sf>.md, and the charts suite-sf<sf>-ratios.svg
 * (eddy / DuckDB per query) and suite-sf<sf>-cache.svg (cached vs recomputed
 * speed-ups). No timestamps in file names: a rerun replaces its files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suiteMarkdown } from './report-md.js';
import type { SuiteReport } from './results.js';
import { cacheChart, ratioChart } from './charts.js';
import { baseNameOf } from './names.js';

/** The base name of a run's files. */
export const baseName = baseNameOf;

/** Writes every file into `dir`; returns their paths. */
export function writeSuiteFiles(rep: SuiteReport, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const base = join(dir, baseName(rep.sf));
  const round = (_k: string, v: unknown): unknown => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1000) / 1000 : v);
  const files: [string, string][] = [
    [`${base}.json`, `${JSON.stringify(rep, round, 2)}\n`],
    [`${base}.md`, suiteMarkdown(rep)],
    [`${base}-ratios.svg`, ratioChart(rep)],
  ];
  const cache = cacheChart(rep);
  if (cache) files.push([`${base}-cache.svg`, cache]);
  for (const [p, text] of files) writeFileSync(p, text);
  return files.map(([p]) => p);
}
