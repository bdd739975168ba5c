/** The messages between the suite and its DuckDB process (./duck-process.ts, ./duck-server.ts). */
import type { RunUsage } from '../lib/run-usage.js';
import type { DuckPlain } from './duck-plain.js';

/** What a request asks. */
export type DuckRequestBody = { readonly op: 'load'; readonly data: unknown } | { readonly op: 'exec' | 'rows' | 'query'; readonly sql: string };

/** A request; `id` pairs it with its reply. (`{ op: 'interrupt' }` has no id and no reply.) */
export type DuckRequest = DuckRequestBody & { readonly id: number };

/** A reply: the value (exec: ms; rows: rows; query: `DuckQueryValue`) or the error message. id 0 says the process is ready. */
export type DuckReply = { readonly id: number; readonly ok: true; readonly value: unknown } | { readonly id: number; readonly ok: false; readonly error: string };

/** What a `query` request returns. */
export interface DuckQueryValue { readonly plain: DuckPlain; readonly usage: RunUsage }
