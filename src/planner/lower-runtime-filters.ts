/**
 * Lowering's side of runtime filters (exec/runtime-filter.ts): per job graph builder, the filters whose
 * probe-side scans are still to be lowered, and for a hash join the slot that links it with those scans.
 *
 * Decision: the registry is keyed by the builder (a WeakMap, as lower.ts keeps its other per-lowering
 * bindings) so the recursive lowering functions do not carry it; a join registers its uses only while
 * its probe side is lowered (`whileProbing`), so a scan elsewhere in the plan never takes them.
 */
import type { JobGraphBuilder } from '../exec/job.js';
import { RuntimeFilterSlot, type RuntimeFilterUse } from '../exec/runtime-filter.js';
import type * as rel from '../relnode/rel.js';
import { runtimeFilterTargets } from './runtime-filters.js';

/** Runtime filters of the builder being lowered: the scans still to lower that apply them, and the next filter id. */
export const runtimeFiltersOf = new WeakMap<JobGraphBuilder, { readonly pending: Map<rel.Scan, RuntimeFilterUse[]>; next: number }>();

/**
 * The runtime filter of a hash join, when its probe side has a scan to take it: a slot, the EXPLAIN
 * detail, and `whileProbing(lowerProbe)`, during which the probe side's scans find their uses pending.
 */
export function planRuntimeFilter(n: rel.Join, b: JobGraphBuilder, buildSide: 'left' | 'right', leftKeys: readonly number[], rightKeys: readonly number[]): { slot: RuntimeFilterSlot; detail: string; whileProbing: (lowerProbe: () => number) => number } | undefined {
  const reg = runtimeFiltersOf.get(b);
  if (reg === undefined) return undefined;
  const targets = runtimeFilterTargets(n, buildSide, leftKeys, rightKeys);
  if (targets.length === 0) return undefined;
  const slot = new RuntimeFilterSlot(reg.next++, leftKeys.length, 1);
  const uses = targets.map((t) => ({ scan: t.scan, use: { slot, key: t.key, column: t.column } }));
  const detail = `runtime_filter=rf${slot.id}(${targets.map((t) => `${t.scan.table.name}.${t.scan.schema.fields[t.column]!.name}`).join(', ')})`;
  const whileProbing = (lowerProbe: () => number): number => {
    for (const { scan, use } of uses) reg.pending.set(scan, [...(reg.pending.get(scan) ?? []), use]);
    try {
      return lowerProbe();
    } finally {
      for (const { scan, use } of uses) {
        const rest = (reg.pending.get(scan) ?? []).filter((x) => x !== use);
        if (rest.length > 0) reg.pending.set(scan, rest); else reg.pending.delete(scan);
      }
    }
  };
  return { slot, detail, whileProbing };
}
