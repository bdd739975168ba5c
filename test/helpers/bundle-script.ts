/**
 * Child-process fixtures run as one bundled JavaScript file rather than
 * through `node --import tsx`: tsx compiles the engine's ~400 modules at every
 * start (~5 s CPU, more under load), a bundle loads in ~0.3 s. The bundle is
 * made from the current sources on each call (esbuild, well under a second),
 * with the packages included, so it runs from any folder.
 */
import { build } from 'esbuild';
import { basename, join } from 'node:path';

/** Bundles the TypeScript program `entry` into `dir` (a temporary folder); resolves to the file to run with node. */
export async function bundleScript(entry: string, dir: string): Promise<string> {
  const outfile = join(dir, basename(entry).replace(/\.ts$/, '.mjs'));
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // CommonJS packages call require() for node's modules; an ES module has none of its own.
    banner: { js: "import { createRequire as eddyCreateRequire } from 'node:module'; const require = eddyCreateRequire(import.meta.url);" },
    logLevel: 'silent',
  });
  return outfile;
}
