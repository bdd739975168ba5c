import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/** DESIGN.md's layers, lowest first. A module may import only its own layer or lower ones. */
const LAYERS = ['relnode', 'exec', 'io', 'cache', 'iteration', 'planner', 'api', 'sql', 'cli'] as const;
const SRC = resolve(__dirname, '../../src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

function layerOf(path: string): number {
  const top = relative(SRC, path).split(sep)[0]!;
  return LAYERS.indexOf(top as (typeof LAYERS)[number]);
}

/** Every relative import of a source file (static, dynamic and type-only). */
export function importsOf(text: string): string[] {
  const out: string[] = [];
  const re = /(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push((m[1] ?? m[2])!);
  return out;
}

describe('import graph', () => {
  it('lower layers never import higher ones', () => {
    const violations: string[] = [];
    for (const f of files(SRC)) {
      const from = layerOf(f);
      if (from < 0) continue; // src/index.ts: the package root may import anything
      for (const spec of importsOf(readFileSync(f, 'utf8'))) {
        const target = resolve(dirname(f), spec);
        const to = layerOf(target);
        if (to > from) violations.push(`${relative(SRC, f)} (${LAYERS[from]}) imports ${relative(SRC, target)} (${LAYERS[to]})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('detects a violation (the check itself works)', () => {
    expect(importsOf(`import { x } from '../planner/lower.js';\nimport type { Y } from './y.js';\nconst m = await import('../api/table.js');`)).toEqual(['../planner/lower.js', './y.js', '../api/table.js']);
    expect(layerOf(join(SRC, 'exec', 'runtime.ts'))).toBeLessThan(layerOf(join(SRC, 'planner', 'lower.ts')));
  });
});
