/**
 * The engine the runner drives, and its eddy implementation: one
 * TableEnvironment per file, each record through `env.executeSql`, Arrow
 * results turned into runner rows (dates and timestamps as ISO text).
 */
import { Type, type DataType, type Table as ArrowTable } from 'apache-arrow';
import type { ColumnKind, Value } from './render.js';

/** What one SQL record produced. */
export type EngineResult =
  | { readonly kind: 'rows'; readonly names: readonly string[]; readonly kinds: readonly ColumnKind[]; readonly rows: readonly (readonly Value[])[] }
  | { readonly kind: 'status'; readonly message: string; readonly rowsAffected?: number };

/** A SQL engine under test. */
export interface SltEngine {
  /** Runs one record's SQL (possibly several `;`-separated statements) and returns the last result. */
  execute(sql: string, signal: AbortSignal): Promise<EngineResult>;
  /** Releases the engine. */
  close(): Promise<void>;
}

/** Creates a fresh engine for each file. */
export type EngineFactory = () => Promise<SltEngine>;

/** The coarse kind of an Arrow column type. */
export function arrowColumnKind(t: DataType): ColumnKind {
  switch (t.typeId) {
    case Type.Int: return 'integer';
    case Type.Float: case Type.Decimal: return 'float';
    case Type.Utf8: case Type.LargeUtf8: return 'text';
    case Type.Dictionary: return arrowColumnKind((t as unknown as { dictionary: DataType }).dictionary);
    case Type.Bool: return 'boolean';
    case Type.Date: return 'date';
    case Type.Timestamp: return 'timestamp';
    case Type.Null: return 'null';
    default: return 'other';
  }
}

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

/** A DATE (epoch ms at UTC midnight) as `YYYY-MM-DD`. */
export function isoDate(ms: number): string {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const year = y < 0 ? `-${pad(-y, 4)}` : pad(y, 4);
  return `${year}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** A TIMESTAMP (epoch ms) as `YYYY-MM-DD HH:MM:SS[.mmm]` (DuckDB's rendering). */
export function isoTimestamp(ms: number): string {
  const d = new Date(ms);
  const frac = d.getUTCMilliseconds();
  return `${isoDate(ms)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac ? `.${pad(frac, 3)}` : ''}`;
}

/** Converts an Arrow result table to runner rows. */
export function arrowToRows(table: ArrowTable): EngineResult & { kind: 'rows' } {
  const names = table.schema.fields.map((f) => f.name);
  const kinds = table.schema.fields.map((f) => arrowColumnKind(f.type));
  const rows: Value[][] = [];
  for (const batch of table.batches) {
    const cols = names.map((_, i) => batch.getChildAt(i)!);
    for (let r = 0; r < batch.numRows; r++) {
      const row: Value[] = [];
      for (let c = 0; c < cols.length; c++) row.push(toValue(cols[c]!.get(r), kinds[c]!));
      rows.push(row);
    }
  }
  return { kind: 'rows', names, kinds, rows };
}

function toValue(v: unknown, kind: ColumnKind): Value {
  if (v === null || v === undefined) return null;
  switch (kind) {
    case 'date': return isoDate(v instanceof Date ? v.getTime() : Number(v));
    case 'timestamp': return isoTimestamp(v instanceof Date ? v.getTime() : Number(v));
    default:
      if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'string' || typeof v === 'boolean') return v;
      return String(v);
  }
}

/** The eddy SQL surface the adapter needs (a TableEnvironment). */
export interface EddyEnvironment {
  executeSql(text: string, options?: { signal?: AbortSignal }): Promise<{ kind: 'rows'; table: ArrowTable } | { kind: 'status'; message: string; rowsAffected?: number }>;
  close(): Promise<void>;
}

/** Wraps a TableEnvironment as a runner engine. */
export function eddyEngine(env: EddyEnvironment): SltEngine {
  return {
    async execute(sql, signal) {
      const r = await env.executeSql(sql, { signal });
      if (r.kind === 'rows') return arrowToRows(r.table);
      return r.rowsAffected === undefined ? { kind: 'status', message: r.message } : { kind: 'status', message: r.message, rowsAffected: r.rowsAffected };
    },
    close: () => env.close(),
  };
}

/** The default factory: a fresh eddy TableEnvironment (loaded from the package root, which installs the SQL front end). */
export const eddyFactory: EngineFactory = async () => {
  const { TableEnvironment } = await import('../../src/index.js');
  await import('../../src/sql/index.js'); // installs the SQL front end (the package root loads it too)
  // Parallelism 1, whatever the machine's cores: the EXPLAIN outputs in test/slt are p1's plans.
  return eddyEngine(TableEnvironment.create({ parallelism: 1 }) as unknown as EddyEnvironment);
};

/**
 * A factory for the "cache everything" runs: every deterministic subtree of
 * every query is cached (C8: answers must not change), under a small memory
 * budget so that entries also spill to disk and read back.
 */
export const eddyCachedFactory: EngineFactory = async () => {
  const { TableEnvironment } = await import('../../src/index.js');
  await import('../../src/sql/index.js');
  return eddyEngine(TableEnvironment.create({ cache: { cacheAllSubtrees: true, memoryBudgetBytes: 256 * 1024 } }) as unknown as EddyEnvironment);
};
