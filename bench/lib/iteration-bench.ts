/**
 * What the parts of `npm run bench:iteration` share: their options, the
 * machine's load, medians, peak RSS, and running a measurement in a fresh
 * child process (so peak RSS belongs to that measurement alone).
 *
 * Decision: a part is a module exporting `run(options)` that returns a
 * Markdown section; bench/iteration.ts picks parts by name (`--part`), so
 * a new part is one file and one line in its table.
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { median } from './timing.js';

export { median };

/** Options every part gets. */
export interface IterationBenchOptions {
  /** Small sizes, one or two runs: a smoke test of the benchmark itself. */
  readonly quick: boolean;
  /** Timed runs per measurement (medians are reported). */
  readonly runs: number;
  /** `--name value` of the command line (a part's own settings), or `dflt`. */
  arg(name: string, dflt: number): number;
}

/** A part of the benchmark. */
export interface IterationBenchPart {
  run(options: IterationBenchOptions): Promise<string>;
}

/** The 1-, 5- and 15-minute load averages, as text. */
export function load(): string {
  return loadavg().map((x) => x.toFixed(1)).join(' / ');
}

/** Peak resident set size of this process so far, in MiB. */
export function peakRssMiB(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/** MiB, formatted. */
export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/**
 * Runs `bench/iteration.ts --child <name> <args>` in a fresh Node process
 * and returns the JSON it prints last on stdout.
 */
export function runChild<T>(name: string, args: readonly string[]): T {
  const script = new URL('../iteration.ts', import.meta.url).pathname;
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, '--child', name, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`child ${name} failed (${r.status ?? r.signal}):\n${r.stderr}`);
  const lines = r.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!) as T;
}

/** Runs `fns` round-robin `runs` times (interleaved, so load changes hit every variant alike); returns each one's results. */
export async function interleave<K extends string, T>(runs: number, fns: Record<K, () => Promise<T>>): Promise<Record<K, T[]>> {
  const keys = Object.keys(fns) as K[];
  const out = Object.fromEntries(keys.map((k) => [k, [] as T[]])) as Record<K, T[]>;
  for (let r = 0; r < runs; r++) for (const k of keys) out[k].push(await fns[k]());
  return out;
}
