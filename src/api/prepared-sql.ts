/**
 * SQL's prepared statements (DuckDB's syntax): `PREPARE name AS query`,
 * `EXECUTE name(value, ...)`, `DEALLOCATE [PREPARE] name`. Each environment
 * keeps its named statements (PreparedStatement, prepared.ts) in a map held
 * here, so the environment itself needs no field for them. EXECUTE takes
 * constant values: literals, negated numbers, `DATE '...'` / `TIMESTAMP
 * '...'` (as Dates) and NULL, passed to the statement as values.
 */
import type { Expr, Statement } from '../sql/ast.js';
import type { SqlContext } from '../sql/binder/index.js';
import { sqlError } from '../sql/binder/context.js';
import { parseDateDays, parseTimestampMs } from '../exec/kernels/datetime.js';
import { PreparedStatement, type ParameterValue, type PreparedHost } from './prepared.js';

const named = new WeakMap<PreparedHost, Map<string, PreparedStatement>>();

function statementsOf(env: PreparedHost): Map<string, PreparedStatement> {
  let m = named.get(env);
  if (m === undefined) named.set(env, (m = new Map()));
  return m;
}

/** `PREPARE name AS query`: replaces a statement of that name, as DuckDB does. */
export function prepareNamed(env: PreparedHost, text: string, st: Extract<Statement, { kind: 'prepare' }>): void {
  const q = st.query.pos;
  statementsOf(env).set(st.name.toLowerCase(), new PreparedStatement(env, text.slice(q.offset, q.offset + q.length)));
}

/** `EXECUTE name(values)`: the statement of that name, and the values. */
export function executeNamed(env: PreparedHost, sql: SqlContext, st: Extract<Statement, { kind: 'execute' }>): { statement: PreparedStatement; values: ParameterValue[] } {
  const statement = statementsOf(env).get(st.name.toLowerCase());
  if (statement === undefined) {
    const have = [...statementsOf(env).keys()];
    throw sqlError(sql, st.pos, `prepared statement "${st.name}" does not exist (${have.length === 0 ? 'none prepared: PREPARE name AS query' : `prepared: ${have.join(', ')}`})`);
  }
  return { statement, values: st.args.map((a) => constantValue(sql, a)) };
}

/** `DEALLOCATE name`: false when there was none. */
export function deallocateNamed(env: PreparedHost, st: Extract<Statement, { kind: 'deallocate' }>): boolean {
  return statementsOf(env).delete(st.name.toLowerCase());
}

/** An EXECUTE argument as a JavaScript value. */
function constantValue(sql: SqlContext, e: Expr): ParameterValue {
  if (e.kind === 'unary' && e.op === '-' && e.arg.kind === 'literal' && e.arg.literal === 'number') {
    const v = constantValue(sql, e.arg);
    return typeof v === 'bigint' ? -v : -(v as number);
  }
  if (e.kind === 'literal') {
    const v = e.value;
    switch (e.literal) {
      case 'null': return null;
      case 'boolean': return String(v).toLowerCase() === 'true';
      case 'string': return v ?? '';
      case 'number': {
        const t = (v ?? '').replace(/_/g, '');
        if (/^\d+$/.test(t) && !Number.isSafeInteger(Number(t))) return BigInt(t);
        return Number(t);
      }
      case 'date': {
        const days = parseDateDays(v ?? '');
        if (days === null) throw sqlError(sql, e.pos, `invalid DATE literal '${v}'`);
        return new Date(days * 86_400_000);
      }
      case 'timestamp': {
        const ms = parseTimestampMs(v ?? '');
        if (ms === null) throw sqlError(sql, e.pos, `invalid TIMESTAMP literal '${v}'`);
        return new Date(ms);
      }
      case 'parameter': break;
    }
  }
  throw sqlError(sql, e.pos, 'EXECUTE takes constant values (numbers, strings, TRUE/FALSE, NULL, DATE \'...\')');
}
