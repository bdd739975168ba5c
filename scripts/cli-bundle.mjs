/**
 * The shell's start-up bundle: `src/cli/main.ts` (and the multi-core worker
 * entry `src/planner/ship-worker.ts`) bundled by esbuild into
 * `build/cli/main.js` / `build/cli/ship-worker.js` (gitignored).
 *
 * Why: running the sources through tsx compiles ~400 modules through its ESM
 * hooks at every start (~4 s CPU for `-c "SELECT 1"`). One file of plain
 * JavaScript, packages included, takes ~0.7 s; with packages left external,
 * node's loading of their ~1,000 small ES modules (lodash-es, arrow) took
 * ~1.4 s. The bundle lives two folders deep in the checkout: run.ts reads
 * `../../package.json` and ship-run.ts starts `./ship-worker.js` relative to
 * the running module.
 *
 * Never stale: the bundle records a signature of its inputs (a hash of every
 * path, size and modification time under src/, plus tsconfig.json,
 * package.json, the lock files — the installed packages are bundled too —
 * and this file; ~10 ms for ~430 entries); `ensureCliBundle` rebuilds
 * whenever the signature differs.
 * Files are written under temporary names and renamed, the signature last, so
 * processes starting at the same time never load a half-written bundle.
 *
 * Plain JavaScript (not TypeScript) so bin/eddy.js and npm's `prepare` step
 * can run it without tsx. `node scripts/cli-bundle.mjs` builds if stale
 * (`--force`: always; `--soft`: a failure does not fail the command).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The checkout this script belongs to. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

const SIGNATURE = 'signature.json';

/** Where the bundle of the checkout at `root` lives; `main.js` is the shell's entry. */
export function bundleDir(root = ROOT) {
  return join(root, 'build', 'cli');
}

/**
 * The inputs' signature: a hash of the path, size and modification time of
 * every file and folder under `root/src` and of the build configuration
 * files, and the number of entries. Any edit, addition, removal or rename
 * changes it, whatever times a checkout or copy gives the files.
 */
export function sourceSignature(root = ROOT) {
  const hash = createHash('sha1');
  let entries = 0;
  const add = (path) => {
    let st;
    try { st = statSync(path); } catch { hash.update(`${path}\0-\n`); return undefined; }
    hash.update(`${path}\0${st.size}\0${st.mtimeMs}\n`);
    return st;
  };
  const visit = (dir) => {
    add(dir);
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, e.name);
      entries++;
      if (e.isDirectory()) visit(path);
      else add(path);
    }
  };
  visit(join(root, 'src'));
  for (const f of ['tsconfig.json', 'package.json', 'package-lock.json', 'node_modules/.package-lock.json', 'scripts/cli-bundle.mjs']) add(join(root, f));
  return { hash: hash.digest('hex'), entries };
}

/** Whether the bundle at `root` exists and was built from the sources as they are now. */
export function bundleIsFresh(root = ROOT) {
  let recorded;
  try {
    recorded = readFileSync(join(bundleDir(root), SIGNATURE), 'utf8');
  } catch {
    return false;
  }
  return recorded === JSON.stringify(sourceSignature(root));
}

/** Bundles the sources at `root` now (esbuild), whatever the signature says. */
export async function buildCliBundle(root = ROOT) {
  const signature = JSON.stringify(sourceSignature(root)); // taken first: an edit during the build means stale
  const { build } = await import('esbuild');
  const out = bundleDir(root);
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/cli/main.ts', 'src/planner/ship-worker.ts'],
    entryNames: '[name]',
    outdir: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // CommonJS packages (commander) call require() for node's modules; an ES module has none of its own.
    banner: { js: "import { createRequire as eddyCreateRequire } from 'node:module'; const require = eddyCreateRequire(import.meta.url);" },
    sourcemap: 'linked',
    write: false,
    logLevel: 'silent',
  });
  mkdirSync(out, { recursive: true });
  // The worker before the shell that starts it; the signature last.
  const files = [...result.outputFiles].sort((a, b) => Number(a.path.endsWith('main.js')) - Number(b.path.endsWith('main.js')));
  for (const f of files) writeAtomically(f.path, f.contents);
  writeAtomically(join(out, SIGNATURE), signature);
  return join(out, 'main.js');
}

/** The path of an up-to-date bundle of `root`'s shell, building it first if the sources changed. */
export async function ensureCliBundle(root = ROOT) {
  if (bundleIsFresh(root)) return join(bundleDir(root), 'main.js');
  return buildCliBundle(root);
}

function writeAtomically(path, contents) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, contents);
  renameSync(tmp, path);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const force = process.argv.includes('--force');
  const started = performance.now();
  const fresh = !force && bundleIsFresh();
  try {
    const path = fresh ? join(bundleDir(), 'main.js') : await buildCliBundle();
    console.log(`${fresh ? 'up to date' : 'built'}: ${path} (${Math.round(performance.now() - started)} ms)`);
  } catch (e) {
    console.error(`could not bundle the shell: ${e instanceof Error ? e.message : String(e)}`);
    // --soft (npm's prepare step): a failure must not fail `npm ci`; bin/eddy.js tries again at start.
    if (!process.argv.includes('--soft')) process.exitCode = 1;
  }
}
