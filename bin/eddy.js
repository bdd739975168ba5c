#!/usr/bin/env node
// The `eddy` command (`npm start` runs it too). In a checkout (src/ present) it runs
// build/cli/main.js, an esbuild bundle of the sources that scripts/cli-bundle.mjs
// rebuilds first whenever src/ changed, so it never runs a stale build and starts
// without compiling ~400 modules through tsx. If the bundle cannot be made (no
// esbuild, a read-only checkout) it runs the sources through tsx; a syntax error in
// src/ is reported as such. In an installed package (only dist/ and bin/ are
// published) it runs the compiled shell, dist/cli/main.js.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const src = new URL('../src/cli/main.ts', import.meta.url);
const dist = new URL('../dist/cli/main.js', import.meta.url);

/** The bundle's URL, or undefined when it cannot be built here. */
async function bundle() {
  try {
    const { ensureCliBundle } = await import('../scripts/cli-bundle.mjs');
    return pathToFileURL(await ensureCliBundle()).href;
  } catch (e) {
    if (Array.isArray(e?.errors) && e.errors.length > 0) {
      // esbuild could not parse the sources: tsx would fail the same way.
      for (const m of e.errors) process.stderr.write(`${m.location ? `${m.location.file}:${m.location.line}:${m.location.column}: ` : ''}${m.text}\n`);
      process.exit(1);
    }
    return undefined;
  }
}

if (existsSync(src) || !existsSync(dist)) {
  const built = existsSync(src) ? await bundle() : undefined;
  if (built !== undefined) {
    await import(built);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import(src.href);
  }
} else {
  await import(dist.href);
}
