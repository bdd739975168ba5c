/**
 * Peak memory of one TPC-H query on eddy (parallelism 1), measured as in
 * bench/lib/memory.ts but for the suite's SQL: a fresh child process
 * (`node --expose-gc --import tsx bench/suite/memory.ts <data dir> <qN>`)
 * loads the Arrow files of the data folder, registers them, collects
 * garbage, reads its resident size (baseline), resets the peak counter, runs
 * `env.sql(text).collect()` once cold and prints peak − baseline as JSON.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TPCH_TABLES } from '../../src/io/tpch/index.js';
import { measureAndPrint, type MemoryResult } from '../lib/memory.js';
import { loadQueries } from './queries.js';

const SELF = fileURLToPath(import.meta.url);

async function child(dir: string, queryId: string): Promise<void> {
  await import('../../src/sql/index.js');
  const { TableEnvironment } = await import('../../src/api/environment.js');
  const { loadArrowTables } = await import('./data.js');
  const { readFileSync } = await import('node:fs');
  const manifest = JSON.parse(readFileSync(`${dir}/manifest.json`, 'utf8'));
  const env = TableEnvironment.create({ parallelism: 1 });
  const tables = await loadArrowTables({ dir, manifest, reused: true }, env);
  for (const name of TPCH_TABLES) env.registerTable(name, tables[name]);
  const q = loadQueries([queryId])[0]!;
  await measureAndPrint(() => env.sql(q.sql).collect());
}

/** Measures `queryId` over the data folder `dir` in a child process; rejects after `timeoutMs`. */
export function measureQueryMemory(dir: string, queryId: string, timeoutMs: number): Promise<MemoryResult> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', SELF, dir, queryId], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => { c.kill('SIGKILL'); reject(new Error(`memory child for ${queryId} timed out after ${timeoutMs / 1000} s`)); }, timeoutMs);
    c.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    c.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    c.on('error', (e) => { clearTimeout(timer); reject(e); });
    c.on('close', (code) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as MemoryResult);
      } catch {
        reject(new Error(`memory child for ${queryId} exited with ${code}: ${(err.trim() || out.trim()).slice(-1000)}`));
      }
    });
  });
}

if (process.argv[1] === SELF) {
  child(process.argv[2]!, process.argv[3]!).catch((e: unknown) => { console.error(e); process.exit(1); });
}
