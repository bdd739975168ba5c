#!/usr/bin/env node
// The `eddy` command. In a checkout (src/ present) it runs the TypeScript sources
// through tsx, so it never runs a stale build; in an installed package (only
// dist/ is published) it runs the compiled shell, dist/cli/main.js.
import { existsSync } from 'node:fs';

const src = new URL('../src/cli/main.ts', import.meta.url);
const dist = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(src) || !existsSync(dist)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(src.href);
} else {
  await import(dist.href);
}
