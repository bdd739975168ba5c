/**
 * The calls of the edge sweep (edge-sweep.test.ts), generated from the function registry: every
 * scalar function's every signature, called with edge values of its parameter types (NULL, 0, ±1,
 * the type's min and max, NaN and the infinities, the empty and a 10,000-character string, the
 * first and last dates and timestamps eddy and DuckDB both accept), every cast between the scalar
 * types with extreme values, and the arithmetic operators. The SQL text is the same for both
 * engines: literals that DuckDB would type otherwise (0.5 is a DECIMAL there) are cast.
 */
import { FUNCTION_REGISTRY, type FunctionEntry } from '../../src/relnode/function-registry.js';

/** One call: the SQL expression and the name the user wrote (errors must name it). */
export interface SweepCall {
  readonly expr: string;
  readonly name: string;
}

const LONG = `'${'x'.repeat(10_000)}'`;
const I = (s: string): string => `CAST(${s} AS INTEGER)`;
const B = (s: string): string => `CAST(${s} AS BIGINT)`;
const D = (s: string): string => `CAST(${s} AS DOUBLE)`;

/** Edge values per SQL type (SQL literal text). */
export const EDGES: Readonly<Record<string, readonly string[]>> = {
  INTEGER: ['CAST(NULL AS INTEGER)', I('0'), I('-1'), I('1'), I('2147483647'), I('-2147483648'), I('10000')],
  BIGINT: ['CAST(NULL AS BIGINT)', B('0'), B('-1'), B('1'), B('9223372036854775807'), B("'-9223372036854775808'"), B('4294967296')],
  DOUBLE: ['CAST(NULL AS DOUBLE)', D('0'), D('-1'), D('0.5'), D('1e308'), D('-1e308'), D("'NaN'"), D("'Infinity'"), D("'-Infinity'"), D('5e-324'), D("'-0.0'")],
  VARCHAR: ['CAST(NULL AS VARCHAR)', "''", "'a'", "'Ab1 é%_'", LONG],
  DATE: ['CAST(NULL AS DATE)', "DATE '0001-01-01'", "DATE '9999-12-31'", "DATE '1970-01-01'", "DATE '2020-02-29'", "DATE '5881580-07-10'", "DATE '5877642-06-25 (BC)'"],
  TIMESTAMP: ['CAST(NULL AS TIMESTAMP)', "TIMESTAMP '0001-01-01 00:00:00'", "TIMESTAMP '9999-12-31 23:59:59.999'", "TIMESTAMP '1969-12-31 23:59:59.999'", "TIMESTAMP '2262-04-11 23:47:16.854'", "TIMESTAMP '275760-09-13 00:00:00'", "TIMESTAMP '271822-04-20 00:00:00 (BC)'"],
  BOOLEAN: ['CAST(NULL AS BOOLEAN)', 'true', 'false'],
};

/** Values of a parameter that names a date part. */
const PARTS = ['CAST(NULL AS VARCHAR)', "'year'", "'month'", "'day'", "'week'", "'quarter'", "'dow'", "'isodow'", "'doy'", "'hour'", "'minute'", "'second'", "'millisecond'", "'microsecond'", "'epoch'", "'decade'", "'century'", "'millennium'", "'era'", "'isoyear'", "'yearweek'", "'nonsense'", "''"];

/** Untyped numeric parameters (`abs(x)`): a few values of each numeric type. */
const NUMERIC = [...EDGES['INTEGER']!.slice(0, 6), ...EDGES['BIGINT']!.slice(4, 6), ...EDGES['DOUBLE']!.slice(3, 10)];
/** Parameters of any type (`coalesce(a, b, ...)`): one non-NULL value of each. */
const ANY = ['NULL', I('-1'), B('9223372036854775807'), D('1e308'), "'a'", "DATE '9999-12-31'", "TIMESTAMP '0001-01-01 00:00:00'", 'true'];

/** The values a parameter written as `name TYPE|TYPE` in a signature takes. */
function paramValues(fn: string, param: string): readonly string[] {
  const [name, types] = param.trim().split(/\s+/, 2) as [string, string | undefined];
  if (name === 'part' || (fn.startsWith('date_') && name === 'part')) return PARTS;
  if (types === undefined) return /^(a|b)$/.test(name) && /concat|coalesce|nullif|ifnull|greatest|least/.test(fn) ? ANY : NUMERIC;
  const out = new Set<string>();
  for (const t of types.split('|')) {
    const vs = EDGES[t];
    if (vs === undefined) throw new Error(`edge sweep: no edge values for type ${t} in ${fn}(${param})`);
    for (const v of vs) out.add(v);
  }
  return [...out];
}

/** A signature's parameter lists: `f(a X[, b Y])` gives `[a X]` and `[a X, b Y]`; `args...` repeats the last one once more. */
function paramLists(sig: string): string[][] | undefined {
  const m = /^(\w+)\((.*)\)$/.exec(sig);
  if (m === null) return undefined;
  const body = m[2]!;
  const opt = /\[, ([^\]]+)\]/.exec(body);
  const split = (s: string): string[] => s.split(',').map((p) => p.trim()).filter((p) => p !== '' && p !== '...');
  const expand = (ps: string[]): string[] => ps.map((p) => (p.endsWith('...') ? p.slice(0, -3) : p));
  if (opt === null) return [expand(split(body))];
  const base = split(body.replace(opt[0], ''));
  return [expand(base), expand([...base, opt[1]!])];
}

/** Product of the value lists when small, else each parameter varied alone (the others at their first non-NULL value) plus the diagonal. */
function combos(lists: readonly (readonly string[])[], cap = 400): string[][] {
  const total = lists.reduce((n, l) => n * l.length, 1);
  if (total <= cap) {
    let acc: string[][] = [[]];
    for (const l of lists) acc = acc.flatMap((a) => l.map((v) => [...a, v]));
    return acc;
  }
  const base = lists.map((l) => l[1] ?? l[0]!);
  const out: string[][] = [];
  lists.forEach((l, i) => { for (const v of l) out.push(base.map((b, j) => (j === i ? v : b))); });
  const longest = Math.max(...lists.map((l) => l.length));
  for (let k = 0; k < longest; k++) out.push(lists.map((l) => l[k % l.length]!));
  // Pairs of extremes: each parameter's last values together (huge counts with long strings).
  for (let k = 2; k < longest; k++) out.push(lists.map((l) => l[l.length - 1 - (k % Math.min(3, l.length))]!));
  return out;
}

/** Functions the sweep does not call, with why. */
const SKIP: Readonly<Record<string, string>> = {
  random: 'non-deterministic',
  uuid: 'non-deterministic',
  now: 'the current time: differs between the engines by the time between the calls',
  current_date: 'the current date (no parentheses; covered by now)',
  version: 'names the engine',
  current_database: 'names the engine',
  current_schema: 'names the engine',
  try_cast: 'TRY_CAST(x AS type): with every cast of castCalls',
  typeof: "type names are eddy's (INTEGER where DuckDB says TINYINT)",
};

function entryCalls(e: FunctionEntry): SweepCall[] {
  if (SKIP[e.name] !== undefined) return [];
  const out: SweepCall[] = [];
  for (const sig of e.signatures) {
    const lists = paramLists(sig);
    if (lists === undefined) continue;
    const name = /^(\w+)\(/.exec(sig)![1]!;
    for (const params of lists) {
      if (params.length === 0) { out.push({ expr: `${name}()`, name }); continue; }
      for (const args of combos(params.map((p) => paramValues(name, p)))) out.push({ expr: `${name}(${args.join(', ')})`, name });
    }
  }
  return out;
}

/** Every scalar function call of the sweep. */
export function functionCalls(): SweepCall[] {
  return FUNCTION_REGISTRY.filter((e) => e.kind === 'scalar').flatMap(entryCalls);
}

/** The skipped functions, with reasons (reported by the test). */
export const SKIPPED = SKIP;

/** Casts between every pair of scalar types, of every edge value. */
export function castCalls(): SweepCall[] {
  const out: SweepCall[] = [];
  for (const from of Object.keys(EDGES)) {
    for (const to of Object.keys(EDGES)) {
      for (const v of EDGES[from]!) {
        if (v.startsWith('CAST(NULL') || from === to) continue;
        out.push({ expr: `CAST(${v} AS ${to})`, name: 'CAST' }, { expr: `TRY_CAST(${v} AS ${to})`, name: 'TRY_CAST' });
      }
    }
  }
  // Text that looks like a value at the edge of each type.
  const texts = ["'2147483648'", "'-2147483649'", "'9223372036854775808'", "'1e309'", "'-1e309'", "'nan'", "'inf'", "'5881580-07-11'", "'0000-01-01'", "'10000-01-01 00:00:00'", "' 12 '", "'1.5'", "'0x10'", "'1_000'"];
  for (const t of texts) for (const to of ['INTEGER', 'BIGINT', 'DOUBLE', 'DATE', 'TIMESTAMP', 'BOOLEAN']) out.push({ expr: `CAST(${t} AS ${to})`, name: 'CAST' });
  return out;
}

/** The arithmetic operators over the numeric edges, and date/timestamp arithmetic at the extremes. */
export function operatorCalls(): SweepCall[] {
  const out: SweepCall[] = [];
  const nums = [...EDGES['INTEGER']!, ...EDGES['BIGINT']!.slice(1), ...EDGES['DOUBLE']!.slice(1)];
  for (const op of ['+', '-', '*', '/', '%', '//', '^']) {
    for (const a of nums) for (const b of nums) out.push({ expr: `(${a} ${op} ${b})`, name: op });
  }
  for (const a of nums) out.push({ expr: `(-${a})`, name: '-' });
  for (const d of [...EDGES['DATE']!, ...EDGES['TIMESTAMP']!]) {
    for (const n of [I('1'), I('-1'), I('2147483647'), I('-2147483648')]) {
      out.push({ expr: `(${d} + ${n})`, name: '+' }, { expr: `(${d} - ${n})`, name: '-' });
    }
    for (const iv of ["INTERVAL 1 DAY", "INTERVAL 1 MONTH", "INTERVAL 10000 YEAR", "INTERVAL 1 MILLISECOND"]) {
      out.push({ expr: `(${d} + ${iv})`, name: '+' }, { expr: `(${d} - ${iv})`, name: '-' });
    }
    for (const e of [...EDGES['DATE']!.slice(1), ...EDGES['TIMESTAMP']!.slice(1)]) out.push({ expr: `(${d} - ${e})`, name: '-' });
  }
  return out;
}
