/**
 * The worker thread's entry (docs/multi-core.md): it receives stage tasks, lowers the shipped
 * plan with the same lowering and runs it on the same runtime as the calling thread, at
 * parallelism 1 (ship-task.ts), and replies with its result batches (their buffers moved, not
 * copied), optionally split by the hash of key columns for the workers of the next stage.
 *
 * Decision: this module imports the planner's lowering and the layers below it, never the SQL
 * front end or the API (test/workers/isolation.test.ts checks the import graph), so a worker
 * starts quickly. It keeps no state between tasks except the loaded code, the table columns
 * it rebuilt (ship-column-cache.ts: by the coordinator's column ids, dropped when unused) and the
 * graphs it lowered (ship-graph-cache.ts: by task, dropped when unused).
 */
import { parentPort } from 'node:worker_threads';
import { transferables } from '../exec/workers/wire.js';
import type { WorkerError } from '../exec/workers/pool.js';
import { EddyError, ExecutionError } from '../relnode/errors.js';
import { ColumnCache } from './ship-column-cache.js';
import { runStageTask } from './ship-task.js';
import { StageGraphs } from './ship-graph-cache.js';
import type { StageTask } from './ship-protocol.js';

const running = new Map<number, AbortController>();

/** This worker's rebuilt table columns, kept across tasks (ship-column-cache.ts). */
const kept = new ColumnCache();
/** This worker's lowered stage graphs, kept across tasks (ship-graph-cache.ts). */
const graphs = new StageGraphs();

/** What a failed task sends back: the class name and message (the same text as on one thread) and the operator it failed in, for debugging. */
function errorOf(e: unknown): WorkerError {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
  const operator = e instanceof ExecutionError ? e.operator : undefined;
  const location = e instanceof EddyError ? e.location : undefined;
  return { name: e.name, message: e.message, ...(operator === undefined ? {} : { operator }), ...(location === undefined ? {} : { location: { line: location.line, column: location.column } }) };
}

const port = parentPort;
if (port !== null) {
  port.on('message', (m: { id: number; task?: StageTask; cancel?: boolean }) => {
    if (m.cancel) {
      running.get(m.id)?.abort();
      return;
    }
    const ac = new AbortController();
    running.set(m.id, ac);
    runStageTask(m.task!, ac.signal, kept, graphs).then(
      (result) => {
        running.delete(m.id);
        const reply = { id: m.id, ok: true, result };
        const transfer = transferables(result.parts.flat());
        try { port.postMessage(reply, transfer); } catch { port.postMessage(reply); }
      },
      (e: unknown) => {
        running.delete(m.id);
        port.postMessage({ id: m.id, ok: false, error: errorOf(e) });
      },
    );
  });
}
