/**
 * The child process that runs the suite's DuckDB (./duck-process.ts starts it; why a process of
 * its own: ./duck-session.ts). It loads the TPC-H tables from the Parquet files, then answers
 * requests over the IPC channel, one at a time: `exec` (statements), `rows` (small answers),
 * `query` (a timed run: the process first waits until its threads are quiet, as the suite does
 * before every run, then measures the run with ../lib/run-usage.ts — wall, process CPU, system
 * CPU, minor faults, other threads — and normalises the answer after the measurement), and
 * `interrupt` (aborts the running query). It exits when the channel closes.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { quiesce } from '../lib/quiesce.js';
import { startUsage } from '../lib/run-usage.js';
import type { DataSet } from './data.js';
import { loadDuckDbTables } from './data.js';
import { duckPlain } from './duck-plain.js';
import type { DuckReply, DuckRequest } from './duck-protocol.js';

const send = (m: DuckReply): void => { process.send!(m); };
const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
let queue: Promise<void> = Promise.resolve();

async function handle(m: DuckRequest): Promise<unknown> {
  switch (m.op) {
    case 'load': await loadDuckDbTables(m.data as DataSet, con); return undefined;
    case 'exec': { const t0 = performance.now(); await con.run(m.sql); return performance.now() - t0; }
    case 'rows': return (await con.runAndReadAll(m.sql)).getRowsJS();
    case 'query': {
      await quiesce();
      const end = startUsage();
      const reader = await con.runAndReadAll(m.sql);
      const usage = end();
      return { plain: duckPlain(reader), usage };
    }
  }
}

process.on('message', (m: DuckRequest | { op: 'interrupt' }) => {
  if (m.op === 'interrupt') { con.interrupt(); return; }
  queue = queue.then(async () => {
    try { send({ id: m.id, ok: true, value: await handle(m) }); } catch (e) { send({ id: m.id, ok: false, error: message(e) }); }
  });
});
process.on('disconnect', () => { con.closeSync(); instance.closeSync(); process.exit(0); });
send({ id: 0, ok: true, value: 'ready' });
