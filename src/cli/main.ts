#!/usr/bin/env node
/**
 * The `eddy` executable: the SQL shell (`npm start`, `bin/eddy.js`).
 * Argument handling and modes live in run.ts; this file wires the process:
 * its streams, exit code, a closed stdout pipe, terminating signals, errors
 * that escape, and the working directory under `npm start`.
 */
import { constants } from 'node:os';
import { describeError } from './errors.js';
import { runCli } from './run.js';

// `npm start` runs eddy in the package folder; npm keeps the folder the user typed it in as INIT_CWD.
// Relative paths (-f, .read, .open, read_csv(...), COPY) mean that folder, as with a plain `eddy`.
if (process.env.npm_lifecycle_event === 'start' && process.env.INIT_CWD && process.env.INIT_CWD !== process.cwd()) {
  try {
    process.chdir(process.env.INIT_CWD);
  } catch {
    // The folder is gone or unreadable: stay in the package folder.
  }
}

process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0); // `eddy ... | head`: the reader left
});

const stopOnStray = (e: unknown): void => {
  process.stderr.write(`${describeError(e)}\n`);
  if (!process.stdin.isTTY) process.exit(1);
};
// SIGTERM, SIGHUP and a SIGINT from outside (Ctrl-C typed at the REPL is a key, handled by repl.ts) end
// the shell with the conventional status 128 + n. process.exit runs the cache's exit hook, which
// removes this process's spill directories synchronously (src/cache/spill-dirs.ts).
for (const sig of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
  process.on(sig, () => process.exit(128 + (constants.signals[sig] ?? 0)));
}

process.on('uncaughtException', stopOnStray);
process.on('unhandledRejection', stopOnStray);

runCli(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }, { onForceExit: () => process.exit(130) })
  .then((code) => { process.exitCode = code; })
  .catch((e: unknown) => { process.stderr.write(`${describeError(e)}\n`); process.exitCode = 1; });
