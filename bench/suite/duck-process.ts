/**
 * The suite's DuckDB in a process of its own (why: ./duck-session.ts): starts ./duck-server.ts
 * with `node --import tsx` (from the repository root, so the loader resolves wherever the suite
 * runs from), loads the tables there, and forwards requests over the IPC channel. A query's
 * `usage` is measured in that process, so the suite reports DuckDB's wall time, CPU, system CPU,
 * faults and threads as it would with DuckDB alone; the round trip (well under a millisecond)
 * is outside the measurement.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { DataSet } from './data.js';
import type { DuckQueryValue, DuckReply, DuckRequest, DuckRequestBody } from './duck-protocol.js';
import type { DuckSession } from './duck-session.js';

const SERVER = fileURLToPath(new URL('./duck-server.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

/** Starts DuckDB's process and loads `data`'s Parquet files into it. */
export async function openDuckProcess(data: DataSet): Promise<DuckSession> {
  const child: ChildProcess = fork(SERVER, [], { cwd: ROOT, execArgv: ['--import', 'tsx'], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let failure: Error | undefined;
  const ready = new Promise<void>((resolve, reject) => { pending.set(0, { resolve: () => resolve(), reject }); });
  const failAll = (e: Error): void => { failure = e; for (const p of pending.values()) p.reject(e); pending.clear(); };
  child.on('message', (m: DuckReply) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.ok) p.resolve(m.value); else p.reject(new Error(m.error));
  });
  child.on('error', (e) => failAll(e));
  child.on('exit', (code, sig) => failAll(new Error(`DuckDB's process exited (${sig ?? code})`)));
  const request = (r: DuckRequestBody): Promise<unknown> => {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise((resolve, reject) => { pending.set(id, { resolve, reject }); child.send({ ...r, id } as DuckRequest); });
  };
  const close = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((r) => { child.once('exit', () => r()); });
    child.disconnect();
    await gone;
  };
  try {
    await ready;
    await request({ op: 'load', data });
  } catch (e) {
    await close().catch(() => {});
    throw e;
  }
  return {
    where: 'own process',
    pid: child.pid!,
    exec: async (sql) => (await request({ op: 'exec', sql })) as number,
    rows: async (sql) => (await request({ op: 'rows', sql })) as unknown[][],
    query: async (sql, signal) => {
      const stop = (): void => { if (child.connected) child.send({ op: 'interrupt' }); };
      signal?.addEventListener('abort', stop, { once: true });
      try {
        const v = (await request({ op: 'query', sql })) as DuckQueryValue;
        return { answer: () => v.plain, usage: v.usage };
      } finally { signal?.removeEventListener('abort', stop); }
    },
    close,
  };
}
