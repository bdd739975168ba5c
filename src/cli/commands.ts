/**
 * The shell's dot commands (`.help`, `.tables`, `.schema`, `.mode`, ...):
 * one table of name, usage, help text and handler. They work the same in the
 * REPL, in scripts and on stdin.
 */
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, extname } from 'node:path';
import { closest } from '../sql/binder/suggest.js';
import { isReserved } from '../sql/lexer.js';
import type { Table } from '../api/table.js';
import { ShellError } from './errors.js';
import { isOutputMode, OUTPUT_MODES } from './modes.js';
import { runFile } from './script.js';
import type { Outcome, Session } from './session.js';

interface DotCommand {
  readonly name: string;
  readonly usage: string;
  readonly help: string;
  run(session: Session, args: string[]): Promise<Outcome> | Outcome;
}

const onOff = (value: string | undefined, what: string, current: boolean): boolean => {
  if (value === undefined) return current;
  if (/^(on|true|1)$/i.test(value)) return true;
  if (/^(off|false|0)$/i.test(value)) return false;
  throw new ShellError(`${what} takes on or off, got "${value}"`);
};

const COMMANDS: readonly DotCommand[] = [
  { name: '.help', usage: '', help: 'show this help', run: (s) => help(s) },
  { name: '.tables', usage: '', help: 'list tables and views', run: (s) => tables(s) },
  { name: '.schema', usage: '[TABLE]', help: 'show CREATE statements of all tables, or of one', run: (s, a) => schema(s, a[0]) },
  { name: '.mode', usage: `[${OUTPUT_MODES.join('|')}]`, help: 'how results print (default table)', run: (s, a) => mode(s, a[0]) },
  {
    name: '.timing', usage: '[on|off]', help: 'print the elapsed time after each result', async run(s, a): Promise<Outcome> {
      s.timing = onOff(a[0], '.timing', s.timing);
      if (a[0] === undefined) await s.write(`timing is ${s.timing ? 'on' : 'off'}\n`);
      return 'ok';
    },
  },
  // DuckDB's and SQLite's name for it (hidden from .help, like .exit).
  { name: '.timer', usage: '[on|off]', help: '', run: (s, a) => COMMANDS.find((c) => c.name === '.timing')!.run(s, a) },
  {
    name: '.maxrows', usage: '[N]', help: 'rows a table shows before truncating (default 40)', async run(s, a): Promise<Outcome> {
      if (a[0] === undefined) { await s.write(`maxrows is ${s.maxRows}\n`); return 'ok'; }
      const n = Number(a[0]);
      if (!Number.isInteger(n) || n < 2) throw new ShellError(`.maxrows takes a whole number of at least 2, got "${a[0]}"`);
      s.maxRows = n;
      return 'ok';
    },
  },
  { name: '.read', usage: 'FILE', help: 'run the SQL script in FILE', run: (s, a) => read(s, a) },
  { name: '.open', usage: 'FILE [AS name]', help: 'register a .csv/.tsv/.parquet/.arrow/.json/.ndjson file as a table', run: (s, a) => open(s, a) },
  { name: '.caches', usage: '', help: 'list cached tables (SHOW CACHES)', run: (s) => caches(s) },
  { name: '.quit', usage: '', help: 'exit (also .exit, or Ctrl-D)', run: () => 'quit' },
  { name: '.exit', usage: '', help: '', run: () => 'quit' },
];

/** Names of the dot commands, for completion. */
export const DOT_COMMAND_NAMES: readonly string[] = COMMANDS.map((c) => c.name);

/** Splits a dot command line into words; '…' and "…" quote words with spaces. */
export function commandWords(line: string): string[] {
  const words: string[] = [];
  const re = /'((?:[^']|'')*)'|"((?:[^"]|"")*)"|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) words.push(m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2] !== undefined ? m[2].replace(/""/g, '"') : m[3]!);
  return words;
}

/** Runs one dot command line. Mistakes throw ShellError (printed by the session). */
export async function runDotCommand(session: Session, line: string): Promise<Outcome> {
  const [name = '', ...args] = commandWords(line);
  const cmd = COMMANDS.find((c) => c.name === name.toLowerCase());
  if (!cmd) {
    const guess = closest(name, DOT_COMMAND_NAMES);
    throw new ShellError(`unknown command "${name}"${guess ? `; did you mean ${guess}?` : ''} (.help lists the commands)`);
  }
  return cmd.run(session, args);
}

async function help(s: Session): Promise<Outcome> {
  const shown = COMMANDS.filter((c) => c.help);
  const left = shown.map((c) => `${c.name}${c.usage ? ` ${c.usage}` : ''}`);
  const w = Math.max(...left.map((l) => l.length));
  await s.write([
    'Enter SQL statements ending in ";" (they may span lines). Tab completes keywords, tables and columns;',
    'Ctrl-C cancels a running query, Ctrl-D exits.',
    '',
    ...shown.map((c, i) => `  ${left[i]!.padEnd(w)}  ${c.help}`),
    '',
    'SQL: SELECT ..., WITH ..., VALUES, CREATE TABLE [AS], CREATE VIEW, INSERT INTO, UPDATE, DELETE, DROP,',
    'PIVOT t ON col USING agg(x) GROUP BY g, UNPIVOT t ON a, b INTO NAME n VALUE v,',
    'SHOW TABLES, DESCRIBE t | (query), SUMMARIZE t | (query), EXPLAIN [ANALYZE], SET,',
    'COPY t | (query) TO \'f.csv\' (FORMAT csv | json | parquet), COPY t FROM \'f.csv\',',
    'read_csv(\'f.csv\') / read_parquet(\'dir/*.parquet\') / read_json / read_arrow in FROM.',
    '',
  ].join('\n'));
  return 'ok';
}

async function tables(s: Session): Promise<Outcome> {
  const names = s.env.listTables();
  if (names.length === 0) { await s.write('no tables (.open FILE or CREATE TABLE adds one)\n'); return 'ok'; }
  const labels = names.map((n) => (s.env.isView(n) ? `${n} (view)` : n));
  const w = Math.max(...labels.map((l) => l.length)) + 2;
  const perLine = Math.max(1, Math.floor(((s.io.out.isTTY ? s.io.out.columns : undefined) ?? 80) / w));
  const lines: string[] = [];
  for (let i = 0; i < labels.length; i += perLine) lines.push(labels.slice(i, i + perLine).map((l) => l.padEnd(w)).join('').trimEnd());
  await s.write(`${lines.join('\n')}\n`);
  return 'ok';
}

function tableOrError(s: Session, name: string): Table {
  if (!s.env.hasTable(name)) {
    const guess = closest(name, s.env.listTables());
    throw new ShellError(`no table "${name}"${guess ? `; did you mean "${guess}"?` : ''} (.tables lists them)`);
  }
  return s.env.from(name);
}

/** A name as SQL: bare when it is a plain identifier and not a reserved word, else double-quoted. */
export function sqlName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !isReserved(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

/**
 * `.schema`: statements that re-create the catalog — CREATE TABLE with quoted
 * names where needed, a SQL view's own CREATE VIEW text; a view built with the
 * Table API has no SQL text, so its columns print as a comment.
 */
async function schema(s: Session, name: string | undefined): Promise<Outcome> {
  const names = name === undefined ? s.env.listTables() : [name];
  const out: string[] = [];
  for (const n of names) {
    const fields = tableOrError(s, n).schema.fields;
    if (s.env.isView(n)) {
      const text = s.env.viewSql(n);
      if (text !== undefined) { out.push(`${text.trim()};`); continue; }
      out.push(`-- view ${sqlName(n)} was defined with the Table API; its columns:`, ...fields.map((f) => `--   ${sqlName(f.name)} ${f.type}`));
      continue;
    }
    const cols = fields.map((f) => `  ${sqlName(f.name)} ${f.type}${f.nullable ? '' : ' NOT NULL'}`).join(',\n');
    out.push(`CREATE TABLE ${sqlName(n)} (\n${cols}\n);`);
  }
  await s.write(out.length ? `${out.join('\n')}\n` : 'no tables\n');
  return 'ok';
}

async function mode(s: Session, m: string | undefined): Promise<Outcome> {
  if (m === undefined) { await s.write(`mode is ${s.mode}\n`); return 'ok'; }
  const lower = m.toLowerCase();
  if (!isOutputMode(lower)) throw new ShellError(`unknown mode "${m}"; use one of ${OUTPUT_MODES.join(', ')}`);
  s.mode = lower;
  return 'ok';
}

function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? homedir() + path.slice(1) : path;
}

async function read(s: Session, args: string[]): Promise<Outcome> {
  if (args.length !== 1) throw new ShellError('usage: .read FILE');
  if (s.readDepth >= 16) throw new ShellError('.read is nested more than 16 deep (does a script read itself?)');
  s.readDepth++;
  try {
    const outcome = await runFile(s, expandHome(args[0]!));
    return outcome;
  } finally {
    s.readDepth--;
  }
}

/** The table name `.open` derives from a file name: its base name, made an identifier. */
export function tableNameFor(path: string): string {
  const file = basename(path);
  const known = /\.(csv|tsv|tab|parquet|pq|arrow|arrows|feather|ipc|json|ndjson|jsonl)$/i;
  const base = known.test(file) ? file.replace(known, '') : file.replace(/\.[^.]*$/, '');
  const name = base.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(name) ? name : `t_${name}`;
}

async function open(s: Session, args: string[]): Promise<Outcome> {
  if (args.length !== 1 && !(args.length === 3 && args[1]!.toLowerCase() === 'as')) throw new ShellError('usage: .open FILE [AS name]');
  const path = expandHome(args[0]!);
  const name = args[2] ?? tableNameFor(path);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new ShellError(`"${name}" is not a valid table name: use letters, digits and _ (not starting with a digit)`);
  const ext = extname(path).toLowerCase();
  const env = s.env;
  try {
    if ((await stat(path)).isDirectory()) throw new ShellError(`cannot open ${args[0]}: it is a directory`);
  } catch (e) {
    if (e instanceof ShellError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new ShellError(`cannot open ${args[0]}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (e as Error).message}`);
  }
  let t: Table;
  switch (ext) {
    case '.csv': t = await env.fromCsv(path); break;
    case '.tsv': case '.tab': t = await env.fromCsv(path, { delimiter: '\t' }); break;
    case '.parquet': case '.pq': t = await env.fromParquet(path); break;
    case '.arrow': case '.arrows': case '.feather': case '.ipc': t = await env.fromArrowFile(path); break;
    case '.json': case '.ndjson': case '.jsonl': t = await env.fromJson(path); break;
    default: throw new ShellError(`cannot tell the format of "${args[0]}" from its extension; use a .csv, .tsv, .parquet, .arrow or .json/.ndjson file`);
  }
  const replaced = env.hasTable(name);
  env.registerTable(name, t);
  const cols = t.schema.fields.length;
  await s.status(`${replaced ? 'replaced' : 'created'} table ${name} from ${args[0]} (${cols} column${cols === 1 ? '' : 's'})`);
  return 'ok';
}

/** Cache events `.caches` lists after the table (commits are not news). */
const CACHES_EVENTS = 10;

async function caches(s: Session): Promise<Outcome> {
  await s.printResult(await s.env.executeSql('SHOW CACHES'), -1);
  // Drops, losses and invalidations are what SHOW CACHES cannot show once an entry is gone.
  const events = s.env.cacheManager.events().filter((e) => e.kind !== 'committed').slice(-CACHES_EVENTS);
  if (events.length > 0) {
    await s.status('recent cache events:');
    for (const e of events) await s.status(`  ${e.kind} ${e.entryId} at ${e.at.toISOString().slice(11, 19)}: ${e.detail}`);
  }
  return 'ok';
}
