/**
 * vitest globalSetup: the run's temporary files go to a folder of their own,
 * and tests must leave nothing behind in it.
 *
 * Before any worker starts, TMPDIR points at a fresh `eddy-test-run-*`
 * folder, so `os.tmpdir()` in every test, worker and child process (the CLI
 * tests spawn eddy) resolves there. After the run, any entry with one of
 * eddy's prefixes (`eddy-`: test folders, `eddy-cache-` spill folders) fails
 * the run with its name; other tools' entries (tsx's compile cache) are
 * ignored. The folder is removed either way, so /tmp stays clean even when
 * a test leaks. A per-run folder, rather than a before/after snapshot of
 * /tmp, is immune to other processes using /tmp at the same time.
 *
 * It also brings the shell's bundle (build/cli, scripts/cli-bundle.mjs) up to
 * date once, so the tests that spawn `bin/eddy.js` run the current sources
 * and none of them pays (or races for) the build, and points multi-core
 * workers at the bundle's worker entry (`EDDY_SHIP_WORKER`).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ensureCliBundle } from '../scripts/cli-bundle.mjs';

/** Prefixes of what eddy and its tests create in the temporary folder. */
export const EDDY_TEMP_PREFIXES: readonly string[] = ['eddy-'];

/** Entries of `dir` that eddy or its tests made. */
export function eddyLeftovers(dir: string): string[] {
  return readdirSync(dir).filter((n) => EDDY_TEMP_PREFIXES.some((p) => n.startsWith(p))).sort();
}

export default async function setup(): Promise<() => void> {
  const main = await ensureCliBundle();
  // Multi-core tests start their workers from the bundle's worker entry (~0.3 s CPU each) instead of
  // compiling the TypeScript sources through tsx in every worker (~2 s each); test/workers/tsx-entry
  // keeps the tsx path covered.
  process.env['EDDY_SHIP_WORKER'] = join(dirname(main), 'ship-worker.js');
  // Both projects of vitest.config.ts name this setup, and vitest runs it once per project in one process:
  // the second call keeps the first one's folder (a nested one was removed by whichever teardown ran first,
  // and the other then failed the run: their order is not fixed).
  if (process.env['EDDY_TEST_RUN_DIR'] !== undefined) return () => {};
  const previous = process.env['TMPDIR'];
  const runDir = mkdtempSync(join(tmpdir(), 'eddy-test-run-'));
  process.env['TMPDIR'] = runDir;
  process.env['EDDY_TEST_RUN_DIR'] = runDir;
  return () => {
    delete process.env['EDDY_TEST_RUN_DIR'];
    let left: string[] = [];
    try {
      left = eddyLeftovers(runDir);
    } finally {
      rmSync(runDir, { recursive: true, force: true });
      if (previous === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = previous;
    }
    if (left.length > 0) {
      // vitest only logs an error thrown here, so the exit code is set as well.
      process.exitCode = 1;
      throw new Error(`tests left ${left.length} temporary entr${left.length === 1 ? 'y' : 'ies'} behind (removed now): ${left.join(', ')}; ` +
        'make each test remove what it creates (test/helpers/temp-dir.ts), also on failure');
    }
  };
}
