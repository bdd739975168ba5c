/**
 * Temporary folders for tests that are removed whatever happens: a folder
 * made inside a test goes when that test finishes (passed or failed); one
 * made at module level goes after the file's last test. Every name starts
 * with `eddy-`, the prefix test/global-setup.ts checks for leftovers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

function make(prefix: string): string {
  if (!prefix.startsWith('eddy-')) throw new Error(`temp folder prefix "${prefix}" must start with "eddy-"`);
  return mkdtempSync(join(tmpdir(), prefix));
}

function remove(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A fresh folder removed when the current test finishes; call it inside a test. */
export function testTempDir(prefix: string): string {
  const dir = make(prefix);
  onTestFinished(() => remove(dir));
  return dir;
}

/** A fresh folder removed after the file's tests; call it at module level or in a describe block. */
export function fileTempDir(prefix: string): string {
  const dir = make(prefix);
  afterAll(() => remove(dir));
  return dir;
}
