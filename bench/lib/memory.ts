/**
 * Peak memory of one eddy query, measured in a fresh child process so that
 * earlier queries' peaks (and the parent's DuckDB and Arquero state) cannot
 * hide it. The child generates the data, registers it, collects garbage and
 * reads its resident size (the baseline, "data loaded"); then it resets the
 * kernel's peak-RSS counter (`echo 5 > /proc/self/clear_refs`, Linux), so the
 * spike of data generation does not mask the query's, runs the query once
 * and reads the new peak (VmHWM from /proc/self/status; not
 * `process.resourceUsage().maxRSS`, which in a spawned child also carries the
 * parent's resident size at fork time). Reported: peak − baseline.
 * Where the reset is impossible the peak includes data generation and the
 * result says so (`peakReset: false`).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateTpch, TPCH_TABLES } from '../../src/io/tpch/index.js';
import type { BenchQuery } from './queries.js';
import { collectGarbage, gcExposed } from './timing.js';

/** One query's memory measurement (MB = 1e6 bytes). */
export interface MemoryResult {
  /** Resident size with the data loaded and registered, after GC. */
  readonly baselineMb: number;
  /** Peak resident size while the query ran. */
  readonly peakMb: number;
  /** peak − baseline. */
  readonly deltaMb: number;
  /** Whether the peak counter was reset after loading (else the peak may be the generator's). */
  readonly peakReset: boolean;
  /** Whether the baseline was taken after forced full GCs. */
  readonly gcExposed: boolean;
  /** Query wall time in the child (cold: first run in a fresh process), ms. */
  readonly coldMs: number;
  /** Set when the query failed. */
  readonly error?: string;
}

export function statusKb(field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch { return undefined; }
}

export function resetPeak(): boolean {
  try { writeFileSync('/proc/self/clear_refs', '5'); return true; } catch { return false; }
}

/**
 * In a child process with its data loaded: collects garbage, reads the
 * resident size (baseline), resets the peak counter, runs `work` once cold
 * and prints peak − baseline as one JSON line (MemoryResult).
 */
export async function measureAndPrint(work: () => Promise<unknown>): Promise<void> {
  collectGarbage();
  await new Promise((r) => setTimeout(r, 50));
  collectGarbage();
  const baselineMb = process.memoryUsage.rss() / 1e6;
  const peakReset = resetPeak();
  let error: string | undefined;
  const t0 = performance.now();
  try {
    await work();
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  const coldMs = performance.now() - t0;
  // VmHWM, not maxRSS, where /proc exists: getrusage's maxrss also keeps the peak of the
  // pre-exec (forked) image, i.e. the parent's resident size at spawn, which the reset cannot lower.
  const peakKb = statusKb('VmHWM') ?? process.resourceUsage().maxRSS;
  const peakMb = (peakKb * 1024) / 1e6; // both in KiB
  const out: MemoryResult = { baselineMb, peakMb, deltaMb: peakMb - baselineMb, peakReset, gcExposed: gcExposed(), coldMs, ...(error ? { error } : {}) };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

/** The child's side: measure `query` at `sf` and print one JSON line. */
export async function runMemoryChild(query: BenchQuery, sf: number, parallelism: number): Promise<void> {
  const { TableEnvironment } = await import('../../src/api/environment.js');
  const tables = generateTpch(sf);
  const env = TableEnvironment.create({ parallelism });
  // All eight tables, as in the parent: the baseline is "TPC-H at this SF loaded".
  for (const name of TPCH_TABLES) env.registerTable(name, tables[name]);
  await measureAndPrint(() => query.tpch.build(env).collect());
}

/** The parent's side: spawns a fresh `node --expose-gc --import tsx bench/core.ts --mem-child <id>` and parses its line. */
export async function measureMemory(queryId: string, sf: number, parallelism: number): Promise<MemoryResult> {
  const script = fileURLToPath(new URL('../core.ts', import.meta.url));
  const args = ['--expose-gc', '--import', 'tsx', script, '--mem-child', queryId, '--sf', String(sf), '--parallelism', String(parallelism)];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as MemoryResult);
      } catch {
        reject(new Error(`memory child for ${queryId} exited with ${code}: ${err.trim().slice(-2000) || out.trim().slice(-2000)}`));
      }
    });
  });
}
