/**
 * The core benchmark's report: a Markdown table (medians, ratios, memory,
 * targets) and the same data as JSON. File names carry no timestamps.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ENGINES, type Engine } from './args.js';
import type { MemoryResult } from './memory.js';
import { ratio, type Timing } from './timing.js';

/** One engine's outcome on one query. */
export interface EngineResult {
  readonly timing?: Timing;
  /** The engine failed (at warm-up or while timed). */
  readonly error?: string;
  /** 'reference' (others are compared with it), 'ok', or 'mismatch'. */
  readonly check: 'reference' | 'ok' | 'mismatch' | 'not-run';
  /** Differences from the reference, when mismatched. */
  readonly problems?: readonly string[];
  /** Rows in the result. */
  readonly rows?: number;
}

/** One query's outcomes. */
export interface QueryResult {
  readonly id: string;
  readonly engines: Partial<Record<Engine, EngineResult>>;
  readonly memory?: MemoryResult | { readonly error: string };
}

/** The whole run. */
export interface CoreReport {
  readonly benchmark: 'core';
  readonly sf: number;
  readonly runs: number;
  readonly environment: Readonly<Record<string, string | number | boolean>>;
  readonly queries: readonly QueryResult[];
}

const LABEL: Record<Engine, string> = {
  eddy: 'eddy', duckdb: 'DuckDB', 'duckdb-1t': 'DuckDB 1 thread', arquero: 'Arquero', 'arquero-flat': 'Arquero flat', 'hand-loop': 'hand loop',
};

function ms(x: number | undefined): string {
  if (x === undefined) return '–';
  return x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0);
}

function times(x: number | undefined): string {
  return x === undefined ? '–' : `${x < 10 ? x.toFixed(2) : x.toFixed(1)}×`;
}

function median(r: EngineResult | undefined): number | undefined {
  return r?.error || r?.check === 'mismatch' ? undefined : r?.timing?.medianMs;
}

function cell(r: EngineResult | undefined): string {
  if (!r) return '–';
  if (r.error) return 'error';
  const m = ms(r.timing?.medianMs);
  return r.check === 'mismatch' ? `${m} (wrong result)` : m;
}

/** Renders the report as Markdown. */
export function toMarkdown(rep: CoreReport): string {
  const engines = ENGINES
    .filter((e) => rep.queries.some((q) => q.engines[e]));
  const vs = engines.includes('eddy') ? engines.filter((e) => e !== 'eddy') : [];
  const hasMem = rep.queries.some((q) => q.memory);
  const head = ['query', ...engines.map((e) => `${LABEL[e]} ms`), ...vs.map((e) => `eddy / ${LABEL[e]}`), ...(hasMem ? ['eddy peak Δ MB'] : [])];
  const lines = [
    `# eddy core benchmark — TPC-H SF ${rep.sf}`,
    '',
    `Median of ${rep.runs} timed runs after one warm-up (results verified against ${rep.queries.some((q) => q.engines.duckdb) ? 'DuckDB' : 'the first engine'}, 1e-6 relative). Ratios > 1 mean eddy is slower.`,
    '',
    ...busyWarning(rep),
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
  ];
  for (const q of rep.queries) {
    const eddy = median(q.engines.eddy);
    const mem = q.memory ? (q.memory.error ? 'error' : ms((q.memory as MemoryResult).deltaMb)) : '–';
    const row = [
      q.id.toUpperCase(),
      ...engines.map((e) => cell(q.engines[e])),
      ...vs.map((e) => times(ratio(eddy, median(q.engines[e])))),
      ...(hasMem ? [mem] : []),
    ];
    lines.push(`| ${row.join(' | ')} |`);
  }
  lines.push('', '## Targets (reported, not asserted)', '');
  for (const q of rep.queries) {
    const eddy = median(q.engines.eddy);
    const hand = median(q.engines['hand-loop']);
    const aqm = median(q.engines.arquero);
    if (hand !== undefined) lines.push(`- ${q.id.toUpperCase()} within 2× of the hand-written loop: ${verdict(ratio(eddy, hand), 2)}`);
    if (aqm !== undefined) lines.push(`- ${q.id.toUpperCase()} faster than Arquero: ${verdict(ratio(eddy, aqm), 1)}`);
    const m = q.memory;
    if (m && 'deltaMb' in m) lines.push(`- ${q.id.toUpperCase()} peak memory increase < 300 MB: ${m.error ? 'not measured (query failed)' : m.deltaMb < 300 ? 'yes' : 'NO'} (${ms(m.deltaMb)} MB over ${ms(m.baselineMb)} MB resident with the data loaded${m.peakReset ? '' : '; peak counter not reset, generator peak may mask it'}${m.error ? `; query failed: ${m.error}` : ''})`);
  }
  const issues = rep.queries.flatMap((q) => Object.entries(q.engines)
    .filter(([, r]) => r && (r.error || r.check === 'mismatch'))
    .map(([e, r]) => `- ${q.id.toUpperCase()} ${LABEL[e as Engine]}: ${r!.error ?? `result differs from the reference: ${r!.problems?.join('; ')}`}`));
  const memErr = rep.queries.filter((q) => q.memory && !('deltaMb' in q.memory)).map((q) => `- ${q.id.toUpperCase()} memory: ${(q.memory as { error: string }).error}`);
  if (issues.length + memErr.length > 0) lines.push('', '## Problems', '', ...issues, ...memErr);
  lines.push('', '## Setup', '');
  for (const [k, v] of Object.entries(rep.environment)) lines.push(`- ${k}: ${v}`);
  return `${lines.join('\n')}\n`;
}

/**
 * A warning when other work competed for the CPUs: a 1-minute load average
 * above half the cores before the run started (the run itself adds up to
 * one core, and DuckDB's threads more, so the load at the end is not used).
 */
function busyWarning(rep: CoreReport): string[] {
  const cores = Number(rep.environment['logical cores']);
  const load = Number(rep.environment['load average at start (1 min)'] ?? 0);
  return cores > 0 && load > cores / 2
    ? [`**Warning:** the machine was busy when the run started (1-minute load average ${load} on ${cores} cores); timings are unreliable — rerun on a quiet machine.`, '']
    : [];
}

function verdict(r: number | undefined, limit: number): string {
  if (r === undefined) return 'not measured';
  return `${r <= limit ? 'yes' : 'NO'} (${times(r)})`;
}

/** Writes the Markdown and JSON files. */
export function writeReport(rep: CoreReport, mdPath: string, jsonPath: string): void {
  mkdirSync(dirname(mdPath), { recursive: true });
  writeFileSync(mdPath, toMarkdown(rep));
  // Microsecond precision is plenty and keeps diffs readable.
  const round = (_k: string, v: unknown): unknown => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1000) / 1000 : v);
  writeFileSync(jsonPath, `${JSON.stringify(rep, round, 2)}\n`);
}
