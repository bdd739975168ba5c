/**
 * CPU per full scan of a Parquet file through eddy's Parquet source (every row group, batch size
 * 65536 as the environment's default), for all columns and for a projection, with DuckDB's time
 * for the same scan as the peer. The file is decoded again on every scan (eddy keeps no decoded
 * copy of a file), so this is what every query straight over a Parquet file pays first.
 *
 * A/B: `--base <worktree>` also measures another checkout's src/io/parquet.ts; each build runs in
 * its own child processes, alternating (new, base, new, base, ...), so both see the same load.
 * CPU is the child's user + system time over the scan (GC threads included), median of all runs.
 * DuckDB's peer is `SELECT max(c) ...` per column read (its optimizer reads only referenced
 * columns; `max` makes it decode every value), threads = 1 and default, in the parent process.
 *
 *   node --expose-gc --import tsx bench/parquet-scan.ts --data /work/bench-data [--table lineitem]
 *        [--project l_returnflag,l_quantity] [--runs 5] [--warmup 2] [--rounds 3] [--base /work/wt-base]
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { collectGarbage, median } from './lib/timing.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '/work/bench-data' },
    sf: { type: 'string', default: '1' },
    table: { type: 'string', default: 'lineitem' },
    project: { type: 'string', default: 'l_returnflag,l_quantity' },
    runs: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    base: { type: 'string' },
    child: { type: 'string' },
    duckdb: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
const file = join(values.data!, `sf-${values.sf}`, `${values.table}.parquet`);
const projected = values.project!.split(',').filter((c) => c.length > 0);

interface Samples { all: number[]; proj: number[] }

/** Child: scans with the given checkout's Parquet source and prints the CPU samples as JSON. */
async function child(root: string): Promise<void> {
  const mod = (await import(pathToFileURL(join(root, 'src/io/parquet.ts')).href)) as typeof import('../src/io/parquet.js');
  const source = await mod.parquetSource(file);
  const names = source.schema.fields.map((f) => f.name);
  const proj = projected.map((c) => { const i = names.indexOf(c); if (i < 0) throw new Error(`no column ${c} in ${file}`); return i; });
  async function scan(columns: readonly number[] | undefined): Promise<number> {
    let rows = 0;
    for (let p = 0; p < source.partitions; p++) {
      for await (const b of source.scan({ partition: p, columns, batchSize: 65536 })) rows += b.numRows;
    }
    return rows;
  }
  const out: Samples = { all: [], proj: [] };
  for (const [key, cols] of [['all', undefined], ['proj', proj]] as const) {
    for (let i = 0; i < Number(values.warmup) + Number(values.runs); i++) {
      collectGarbage();
      const c0 = process.cpuUsage();
      const rows = await scan(cols);
      const c = process.cpuUsage(c0);
      if (rows !== source.numRows) throw new Error(`scanned ${rows} rows, the footer says ${source.numRows}`);
      if (i >= Number(values.warmup)) out[key].push((c.user + c.system) / 1000);
    }
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}

function runChild(root: string): Promise<Samples> {
  return new Promise((ok, fail) => {
    const args = ['--expose-gc', '--import', 'tsx', new URL(import.meta.url).pathname, '--child', root, ...process.argv.slice(2).filter((a, i, all) => a !== '--base' && all[i - 1] !== '--base')];
    const p = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    p.stdout.on('data', (d: Buffer) => { text += d.toString(); });
    p.on('close', (code) => (code === 0 ? ok(JSON.parse(text.trim().split('\n').pop()!) as Samples) : fail(new Error(`child for ${root} exited ${code}`))));
  });
}

async function duckdb(): Promise<Record<string, Samples>> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  const allCols = (await conn.runAndReadAll(`SELECT name FROM parquet_schema('${file}') WHERE num_children IS NULL`)).getRowsJS().map((r) => String(r[0]));
  const sql = (cols: readonly string[]): string => `SELECT ${cols.map((c) => `max(${c})`).join(', ')} FROM read_parquet('${file}')`;
  const out: Record<string, Samples> = {};
  for (const threads of ['1', 'default']) {
    await conn.run(threads === '1' ? 'SET threads = 1' : 'RESET threads');
    const s: Samples = { all: [], proj: [] };
    for (const [key, cols] of [['all', allCols], ['proj', projected]] as const) {
      for (let i = 0; i < Number(values.warmup) + Number(values.runs); i++) {
        const c0 = process.cpuUsage();
        await conn.runAndReadAll(sql(cols));
        const c = process.cpuUsage(c0);
        if (i >= Number(values.warmup)) s[key].push((c.user + c.system) / 1000);
      }
    }
    out[`duckdb ${threads === '1' ? '1 thread' : 'default threads'}`] = s;
  }
  conn.closeSync();
  return out;
}

if (values.child !== undefined) {
  await child(values.child);
} else {
  const builds: Record<string, string> = { new: resolve(new URL('..', import.meta.url).pathname) };
  if (values.base !== undefined) builds.base = resolve(values.base);
  const load0 = loadavg()[0]!;
  const all: Record<string, Samples> = {};
  for (let r = 0; r < Number(values.rounds); r++) {
    for (const [name, root] of Object.entries(builds)) {
      const s = await runChild(root);
      const acc = (all[name] ??= { all: [], proj: [] });
      acc.all.push(...s.all);
      acc.proj.push(...s.proj);
    }
  }
  if (values.duckdb) Object.assign(all, await duckdb());
  console.log(`${file}: CPU ms per full scan (median of ${values.rounds} x ${values.runs} runs${values.base ? ', builds alternating in child processes' : ''})`);
  console.log(`| build | all columns | ${projected.join(' + ')} |`);
  console.log('| --- | ---: | ---: |');
  for (const [name, s] of Object.entries(all)) console.log(`| ${name} | ${median(s.all).toFixed(0)} | ${median(s.proj).toFixed(0)} |`);
  console.log(`\nload average 1 min: ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end`);
}
