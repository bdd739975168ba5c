/**
 * The import graph of src/ (DESIGN.md "Layers"): every import is seen —
 * static, `export ... from`, side-effect (`import './x.js'`), dynamic
 * (`import('./x.js')`), multi-line, and the package root src/index.ts — and
 * two rules hold: a file imports only its own layer or lower ones, and no
 * value imports form a cycle between files (type-only imports are erased at
 * run time and do not count).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/** DESIGN.md's layers, lowest first. A module may import only its own layer or lower ones. */
const LAYERS = ['relnode', 'exec', 'io', 'cache', 'iteration', 'ml', 'planner', 'sql', 'api', 'cli'] as const;
const SRC = resolve(__dirname, '../../src');
/** The package root re-exports the API: it sits with src/api, and only the CLI may import it. */
const ROOT = join(SRC, 'index.ts');

/**
 * Value-import cycles accepted for now, each the sorted list of its files with a reason beside it.
 * None today: the binder's query/select/from/subquery cycle went when subqueries became bound
 * first and decorrelated by planner rules (nested queries are bound through BindContext.bindQuery).
 */
const KNOWN_CYCLES: readonly (readonly string[])[] = [];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

function layerOf(path: string): number {
  if (path === ROOT) return LAYERS.indexOf('api');
  const top = relative(SRC, path).split(sep)[0]!;
  return LAYERS.indexOf(top as (typeof LAYERS)[number]);
}

/** One import of a file. */
export interface ImportRef {
  readonly spec: string;
  /** Erased at run time: `import type`, `export type`, or only `type` specifiers. */
  readonly typeOnly: boolean;
}

/** Every relative import of a source file: static, `export ... from`, side-effect and dynamic; comments are skipped. */
export function importsOf(text: string): ImportRef[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const out: ImportRef[] = [];
  const re = /\b(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"](\.[^'"]+)['"]|\bimport\s*['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    if (m[4] !== undefined) {
      const clause = m[3] ?? '';
      const braces = /^\{([\s\S]*)\}$/.exec(clause.trim());
      const onlyTypes = braces !== null && braces[1]!.split(',').map((x) => x.trim()).filter(Boolean).every((x) => x.startsWith('type '));
      out.push({ spec: m[4], typeOnly: m[2] !== undefined || onlyTypes });
    } else {
      out.push({ spec: (m[5] ?? m[6])!, typeOnly: false });
    }
  }
  return out;
}

function resolveSpec(from: string, spec: string): string {
  return resolve(dirname(from), spec).replace(/\.js$/, '.ts');
}

/** The value-import graph of src/: file → files it imports at run time. */
function valueGraph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const f of files(SRC)) g.set(f, importsOf(readFileSync(f, 'utf8')).filter((i) => !i.typeOnly).map((i) => resolveSpec(f, i.spec)));
  return g;
}

/** Strongly connected components with more than one file (Tarjan), each as sorted paths relative to src/. */
export function cyclesOf(g: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const strong = (v: string): void => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!g.has(w)) continue;
      if (!index.has(w)) { strong(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const comp: string[] = [];
      for (;;) { const w = stack.pop()!; on.delete(w); comp.push(w); if (w === v) break; }
      if (comp.length > 1) out.push(comp.map((p) => relative(SRC, p).split(sep).join('/')).sort());
    }
  };
  for (const v of g.keys()) if (!index.has(v)) strong(v);
  return out;
}

describe('import graph', () => {
  it('lower layers never import higher ones (the package root included)', () => {
    const violations: string[] = [];
    for (const f of files(SRC)) {
      const from = layerOf(f);
      expect(from, `${relative(SRC, f)} is in no layer`).toBeGreaterThanOrEqual(0);
      for (const { spec } of importsOf(readFileSync(f, 'utf8'))) {
        const target = resolveSpec(f, spec);
        const to = layerOf(target);
        const isRootImport = target === ROOT && f !== ROOT;
        if (to > from || (isRootImport && LAYERS[from] !== 'cli')) violations.push(`${relative(SRC, f)} (${LAYERS[from]}) imports ${relative(SRC, target)} (${target === ROOT ? 'package root' : LAYERS[to]})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('the package root needs no side-effect import (SQL works without one)', () => {
    const root = readFileSync(ROOT, 'utf8');
    expect(root).not.toMatch(/^\s*import\s+['"]/m);
  });

  it('no value-import cycles between files, except the known ones listed above', () => {
    const cycles = cyclesOf(valueGraph()).map((c) => c.join(' <-> '));
    expect(cycles.sort()).toEqual(KNOWN_CYCLES.map((c) => [...c].sort().join(' <-> ')).sort());
  });

  it('sees every kind of import (the check itself works)', () => {
    const text = [
      "import { x } from '../planner/lower.js';",
      "import type { Y } from './y.js';",
      "import { type A, type B } from './ab.js';",
      "import { type C, d } from './cd.js';",
      "import './side-effect.js';",
      "export * from './all.js';",
      "export { e } from './e.js';",
      "export type { F } from './f.js';",
      'import {\n  g,\n  h,\n} from "./multi.js";',
      "// import { no } from './comment.js';",
      "const m = await import('../api/table.js');",
    ].join('\n');
    expect(importsOf(text)).toEqual([
      { spec: '../planner/lower.js', typeOnly: false },
      { spec: './y.js', typeOnly: true },
      { spec: './ab.js', typeOnly: true },
      { spec: './cd.js', typeOnly: false },
      { spec: './side-effect.js', typeOnly: false },
      { spec: './all.js', typeOnly: false },
      { spec: './e.js', typeOnly: false },
      { spec: './f.js', typeOnly: true },
      { spec: './multi.js', typeOnly: false },
      { spec: '../api/table.js', typeOnly: false },
    ]);
    expect(layerOf(join(SRC, 'exec', 'runtime.ts'))).toBeLessThan(layerOf(join(SRC, 'planner', 'lower.ts')));
    expect(layerOf(join(SRC, 'sql', 'parse.ts'))).toBeLessThan(layerOf(join(SRC, 'api', 'table.ts')));
  });

  it('finds cycles (the check itself works)', () => {
    const a = join(SRC, 'a.ts'); const b = join(SRC, 'b.ts'); const c = join(SRC, 'c.ts'); const d = join(SRC, 'd.ts');
    expect(cyclesOf(new Map([[a, [b]], [b, [c]], [c, [a]], [d, [a]]]))).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(cyclesOf(new Map([[a, [b]], [b, []]]))).toEqual([]);
  });
});
