/**
 * A worker thread loads only the lower layers (docs/multi-core.md): the import graph of its
 * entry, src/planner/ship-worker.ts, reaches no file of src/sql, src/api or src/cli (the SQL
 * parser's start-up cost stays on the calling thread), and src/exec/workers imports nothing
 * above exec.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Relative imports of a file (static, dynamic and re-exports; type-only imports included, which is stricter). */
function importsOf(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of code.matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)) out.push(resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')));
  return out;
}

function graph(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...importsOf(f));
  }
  return seen;
}

describe('worker isolation', () => {
  it('the worker entry reaches no sql, api or cli file', () => {
    const files = [...graph(join(SRC, 'planner', 'ship-worker.ts'))].map((f) => f.slice(SRC.length));
    expect(files.length).toBeGreaterThan(20);
    expect(files.filter((f) => /^(sql|api|cli)\//.test(f))).toEqual([]);
  });

  it('src/exec/workers imports only relnode and exec', () => {
    const dir = join(SRC, 'exec', 'workers');
    for (const f of readdirSync(dir)) {
      for (const i of importsOf(join(dir, f))) expect(i.slice(SRC.length)).toMatch(/^(relnode|exec)\//);
    }
  });
});
