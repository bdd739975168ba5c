#!/usr/bin/env node
/**
 * The `eddy` executable: the SQL shell (`npm start`, `bin/eddy.js`).
 * Argument handling and modes live in run.ts; this file wires the process:
 * its streams, exit code, a closed stdout pipe, and errors that escape.
 */
import { describeError } from './errors.js';
import { runCli } from './run.js';

process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0); // `eddy ... | head`: the reader left
});

const stopOnStray = (e: unknown): void => {
  process.stderr.write(`${describeError(e)}\n`);
  if (!process.stdin.isTTY) process.exit(1);
};
process.on('uncaughtException', stopOnStray);
process.on('unhandledRejection', stopOnStray);

runCli(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }, { onForceExit: () => process.exit(130) })
  .then((code) => { process.exitCode = code; })
  .catch((e: unknown) => { process.stderr.write(`${describeError(e)}\n`); process.exitCode = 1; });
