/**
 * The `eddy` command line: parses arguments (commander), sets up the
 * environment with the TPC-H demo tables, then runs `-f` scripts and `-c`
 * commands, or SQL from stdin when it is not a terminal, or the REPL.
 * Returns the exit code: 0 on success, 1 on any error.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { TableEnvironment } from '../index.js';
import { EDDY_VERSION } from '../relnode/version.js';
import { describeError } from './errors.js';
import { defaultHistoryFile } from './history.js';
import { OUTPUT_MODES, type OutputMode } from './modes.js';
import { runRepl } from './repl.js';
import { runFile, runLines, runText, ScriptOutcome, streamLines } from './script.js';
import { formatMs, Session, type Outcome } from './session.js';

/** The streams the CLI uses (the process's, or test doubles). */
export interface CliIO {
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly stdout: NodeJS.WritableStream & { readonly isTTY?: boolean; readonly columns?: number };
  readonly stderr: NodeJS.WritableStream & { readonly isTTY?: boolean };
}

/** Parsed command-line options. */
export interface CliOptions {
  readonly command: string[];
  readonly file: string[];
  readonly format: OutputMode;
  readonly sf: number;
  readonly demo: boolean;
  readonly parallelism?: number;
  readonly batchSize?: number;
  readonly history: boolean;
  readonly progress: boolean;
  /** Scripts go on after a failing statement (printing its error); the exit code is still 1. */
  readonly keepGoing: boolean;
}

const version = (): string => EDDY_VERSION;

const positiveInt = (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`It must be a positive whole number.`);
  return n;
};

const scaleFactor = (v: string): number => {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0 || n > 100) throw new InvalidArgumentError('The scale factor must be a number above 0 (0.01 is tiny, 1 is 6 million lineitem rows).');
  return n;
};

/** The commander program (exported for `--help` tests). */
export function cliProgram(io: CliIO): Command {
  return new Command('eddy')
    .description('The eddy SQL shell: SQL over Apache Arrow, with the TPC-H tables built in.\nWithout -c or -f it reads SQL from stdin, or opens the REPL when stdin is a terminal.')
    .version(version(), '-V, --version')
    .argument('[script]', 'a SQL script to run (like -f)')
    .option('-c, --command <sql>', 'run SQL statements and dot commands, then exit (repeatable)', (v: string, acc: string[] = []) => [...acc, v])
    .option('-f, --file <path>', 'run a SQL script, then exit (repeatable; "-" is stdin)', (v: string, acc: string[] = []) => [...acc, v])
    .addOption(new Option('--format <mode>', 'how results print').choices(OUTPUT_MODES).default('table'))
    .option('--sf <n>', 'scale factor of the TPC-H demo tables', scaleFactor, 0.1)
    .option('--no-demo', 'start without the TPC-H demo tables')
    .option('--parallelism <n>', 'subtasks per parallel operator and worker threads (default: the cores, at most 8, or EDDY_PARALLELISM)', positiveInt)
    .option('--batch-size <n>', 'rows per record batch (default 65536)', positiveInt)
    .option('--no-history', `do not read or write the REPL history (${defaultHistoryFile()})`)
    .option('--no-progress', 'no progress line on stderr for long statements')
    .option('-k, --keep-going', 'in scripts, print an error and run the next statement instead of stopping (exit code 1 if any failed)', false)
    .addHelpText('after', '\nExamples:\n  eddy                                   the REPL with TPC-H tables at SF 0.1\n  eddy -c "SELECT count(*) FROM lineitem"\n  eddy --sf 1 -f queries.sql --format csv > out.csv\n  echo "SHOW TABLES;" | eddy\n\nIn the REPL, .help lists the dot commands. Docs: docs/repl.md')
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .exitOverride();
}

/** Runs the CLI with `argv` (without node and the script path); resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIO, hooks: { onForceExit?: () => void } = {}): Promise<number> {
  const program = cliProgram(io);
  try {
    program.parse([...argv], { from: 'user' });
  } catch (e) {
    const code = (e as { exitCode?: number }).exitCode;
    return code === undefined ? 1 : code; // commander printed the message (or --help / --version)
  }
  const raw = program.opts<Partial<CliOptions> & Omit<CliOptions, 'command' | 'file'>>();
  const opts: CliOptions = { ...raw, command: raw.command ?? [], file: [...(program.args[0] !== undefined ? [program.args[0]] : []), ...(raw.file ?? [])] };
  let env: TableEnvironment;
  try {
    env = TableEnvironment.create({ ...(opts.parallelism ? { parallelism: opts.parallelism } : {}), ...(opts.batchSize ? { batchSize: opts.batchSize } : {}) });
  } catch (e) {
    io.stderr.write(`${describeError(e)}\n`);
    return 1;
  }
  const scripted = opts.command.length > 0 || opts.file.length > 0 || io.stdin.isTTY !== true;
  const session = new Session(env, { out: io.stdout, err: io.stderr }, { mode: opts.format, timing: !scripted, progress: opts.progress });
  try {
    if (scripted) {
      if (opts.demo) env.registerTpch(opts.sf);
      return (await runScripts(session, opts, io)) === 'error' ? 1 : 0;
    }
    io.stdout.write(`eddy ${version()} — SQL on Apache Arrow. Type .help for help, Ctrl-D to exit.\n`);
    if (opts.demo) {
      const t0 = performance.now();
      io.stdout.write(`TPC-H tables (scale factor ${opts.sf})`); // finished after generating, which takes seconds at SF 1
      env.registerTpch(opts.sf);
      io.stdout.write(`, generated in ${formatMs(performance.now() - t0)}:\n  ${env.listTables().join('  ')}\n`);
    }
    await runRepl(session, { input: io.stdin, output: io.stdout, terminal: true, ...(opts.history ? { historyFile: defaultHistoryFile() } : {}), ...hooks });
    return 0;
  } catch (e) {
    session.printError(e);
    return 1;
  } finally {
    await env.close();
  }
}

/**
 * Non-interactive: files, then commands, or else stdin; stops at the first error or `.quit` —
 * with --keep-going only at `.quit`, and the outcome is 'error' when anything failed.
 */
async function runScripts(session: Session, opts: CliOptions, io: CliIO): Promise<Outcome> {
  const o = { keepGoing: opts.keepGoing };
  if (opts.command.length === 0 && opts.file.length === 0) return runLines(session, streamLines(io.stdin), undefined, o);
  const outcomes = new ScriptOutcome(opts.keepGoing);
  for (const f of opts.file) {
    let outcome: Outcome;
    try {
      outcome = f === '-' ? await runLines(session, streamLines(io.stdin), 'stdin', o) : await runFile(session, f, o);
    } catch (e) {
      session.printError(e);
      outcome = 'error';
    }
    if (outcomes.stops(outcome)) return outcome;
  }
  for (const c of opts.command) {
    const outcome = await runText(session, c, undefined, o);
    if (outcomes.stops(outcome)) return outcome;
  }
  return outcomes.end;
}
