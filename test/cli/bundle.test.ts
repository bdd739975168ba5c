/**
 * The shell's start-up bundle (scripts/cli-bundle.mjs) is never stale: on a
 * small stand-in checkout, an edited, added or removed source file makes
 * `ensureCliBundle` build again, and the rebuilt bundle runs the new code.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { bundleDir, bundleIsFresh, ensureCliBundle } from '../../scripts/cli-bundle.mjs';
import { testTempDir } from '../helpers/temp-dir.js';

/** Writes `text` to `root/path`, its modification time `ageS` seconds from now. */
function put(root: string, path: string, text: string, ageS = 0): void {
  const file = join(root, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  const t = Date.now() / 1000 + ageS;
  utimesSync(file, t, t);
}

it('rebuilds when a source file is edited, added or removed, and not otherwise', async () => {
  const root = testTempDir('eddy-bundle-');
  put(root, 'src/cli/main.ts', "import { value } from '../lib/value.js';\nconsole.log(value());\n", -100);
  put(root, 'src/lib/value.ts', 'export const value = (): number => 1;\n', -100);
  put(root, 'src/planner/ship-worker.ts', 'export {};\n', -100);
  const run = (path: string): string => execFileSync(process.execPath, [path], { encoding: 'utf8' });

  expect(bundleIsFresh(root)).toBe(false);
  const main = await ensureCliBundle(root);
  expect(main).toBe(join(bundleDir(root), 'main.js'));
  expect(run(main)).toBe('1\n');
  expect(bundleIsFresh(root)).toBe(true);
  const built = statSync(main).mtimeMs;
  await ensureCliBundle(root);
  expect(statSync(main).mtimeMs).toBe(built); // fresh: not rebuilt

  put(root, 'src/lib/value.ts', 'export const value = (): number => 2;\n', -100); // edited, its time older than the folders' (a copy may keep old times)
  expect(bundleIsFresh(root)).toBe(false);
  expect(run(await ensureCliBundle(root))).toBe('2\n');

  put(root, 'src/lib/unused.ts', 'export {};\n', -200); // added, with an old time (as a copy or checkout may give it)
  expect(bundleIsFresh(root)).toBe(false);
  await ensureCliBundle(root);
  expect(bundleIsFresh(root)).toBe(true);
  rmSync(join(root, 'src/lib/unused.ts'));
  expect(bundleIsFresh(root)).toBe(false);

  await ensureCliBundle(root);
  expect(JSON.parse(readFileSync(join(bundleDir(root), 'signature.json'), 'utf8'))).toMatchObject({ entries: 6 });
}, 60_000);
