/**
 * In-process CPU profiling of the timed eddy runs (`--profile`): the V8
 * sampling profiler through node:inspector, positions mapped back to the
 * TypeScript sources through the source maps tsx registers, and a summary of
 * the hottest functions (self and inclusive time) as file:line. The raw
 * profile is written too, for Chrome DevTools / speedscope.
 */
import { Session } from 'node:inspector/promises';
import { findSourceMap } from 'node:module';
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

interface CallFrame { functionName: string; url: string; lineNumber: number; columnNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
/** A V8 CPU profile. */
export interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

/** A running profiler; stop() returns the profile. */
export interface Profiler { stop(): Promise<CpuProfile> }

/** Starts sampling (interval in µs). */
export async function startProfiler(intervalUs = 200): Promise<Profiler> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      return profile as unknown as CpuProfile;
    },
  };
}

const root = fileURLToPath(new URL('../../', import.meta.url));

function location(f: CallFrame): string {
  if (!f.url) return '(no url: native or eval)';
  const sm = f.url.startsWith('file:') ? findSourceMap(f.url) ?? findSourceMap(fileURLToPath(f.url)) : undefined;
  let file = f.url;
  let line = f.lineNumber + 1;
  if (sm) {
    const e = sm.findEntry(f.lineNumber, f.columnNumber) as { originalSource?: string; originalLine?: number };
    if (e.originalSource !== undefined && e.originalLine !== undefined) { file = e.originalSource; line = e.originalLine + 1; }
  }
  if (file.startsWith('file:')) file = relative(root, fileURLToPath(file));
  return `${file}:${line}`;
}

/** One row of the summary. */
export interface HotSpot { readonly fn: string; readonly at: string; readonly selfMs: number; readonly totalMs: number; readonly selfPct: number }

/** The hottest functions by self time (and their inclusive time). */
export function summarize(p: CpuProfile, top = 25): HotSpot[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Code from new Function (compiled kernels) has no URL: name it by its caller's location.
  const key = (n: ProfileNode): string => {
    const f = n.callFrame;
    if (!f.url && !f.functionName.startsWith('(')) {
      const up = parent.get(n.id);
      const caller = up === undefined ? undefined : byId.get(up)!.callFrame;
      return `${f.functionName || '(generated code)'}@generated, called from ${caller?.url ? location(caller) : '?'}`;
    }
    return `${f.functionName || '(anonymous)'}@${location(f)}`;
  };
  // Samples inside the inspector (stopping the profiler) are not the workload's.
  const inInspector = (id: number): boolean => {
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) if (byId.get(cur)!.callFrame.url.startsWith('node:inspector')) return true;
    return false;
  };
  const selfBy = new Map<string, number>();
  const totalBy = new Map<string, number>();
  for (const [id, us] of self) {
    if (inInspector(id)) continue;
    const n = byId.get(id)!;
    selfBy.set(key(n), (selfBy.get(key(n)) ?? 0) + us);
    // Inclusive: credit every distinct function on the stack once.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = key(byId.get(cur)!);
      if (seen.has(k)) continue;
      seen.add(k);
      totalBy.set(k, (totalBy.get(k) ?? 0) + us);
    }
  }
  const all = [...selfBy.values()].reduce((a, b) => a + b, 0);
  return [...selfBy.entries()]
    .filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(program)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, us]) => {
      const at = k.lastIndexOf('@');
      return { fn: k.slice(0, at), at: k.slice(at + 1), selfMs: us / 1000, totalMs: (totalBy.get(k) ?? us) / 1000, selfPct: (100 * us) / all };
    });
}

/** Writes the raw profile and returns the summary as text. */
export function saveProfile(p: CpuProfile, path: string, top = 25): string {
  writeFileSync(path, JSON.stringify(p));
  const rows = summarize(p, top);
  const lines = [`self ms  self %  total ms  function  (location)`];
  for (const r of rows) lines.push(`${r.selfMs.toFixed(1).padStart(7)}  ${r.selfPct.toFixed(1).padStart(5)}%  ${r.totalMs.toFixed(1).padStart(8)}  ${r.fn}  (${r.at})`);
  return lines.join('\n');
}
