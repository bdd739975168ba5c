/**
 * Membership probes: an inner hash join that only keeps the probe rows having a match tests the
 * probe keys against the build keys' exact bitmap instead of looking them up in the key table.
 *
 * When: an inner join on one key, without residual, whose build keys are unique (each matching probe
 * row is output once) and whose build columns nothing reads above the join (TPC-H Q3's customers of one
 * segment, joined only to keep the orders that have one) outputs each probe row whose key is a build
 * key — a membership test. The join's published runtime filter (exec/runtime-filter.ts) is that test
 * when it is exact: a bitmap over the keys of every subtask's build (a probe row reaches the subtask
 * that holds its key, so the union answers for it), or empty; never a Bloom filter. The probe key must
 * be INTEGER or DATE (Int32 values): the filter keeps a BIGINT beyond ±2^53 or a non-integer row it
 * cannot test exactly, so other probe columns take the table lookup.
 *
 * Why: the bitmap has a bit per key of the build's range, the direct map (kernels/hash-direct.ts) a
 * 32-bit word, and a probe reads it at random. Q3's 150K-customer direct map is 600 KB, which the
 * orders scan streaming through the caches between probes keeps evicting: `findDirect` cost 38 ns a
 * probe row at p1 (5.6 ms a run, in-process profile of 30 runs); the 19 KB bitmap stays in L1. Rows
 * that all match (the scan's runtime filter already dropped the others) leave as the probe batch's
 * own columns, without the pairs the lookup path builds.
 *
 * Without a key table: when the published bitmap alone shows the build keys distinct (as many set bits
 * as non-NULL build keys, kernels/key-filter.ts `keysDistinct`) and the probe key's type holds Int32
 * values outside a dictionary in every batch (INTEGER, DATE), the join decides before its build and
 * builds no key table at all (`membershipBeforeTable`): nothing would read it. Every probe batch then
 * holds plain Int32 keys: tables are stored canonically (io/canonical.ts decodes dictionaries of
 * anything but VARCHAR when a table is registered). Q3's 30K customers of a
 * segment: their hash table took ~2 ms of CPU a run at p1 — and at parallelism 2 in every share, since
 * each builds the broadcast customer side itself.
 */
import type { JoinType } from '../../relnode/rel.js';
import type { SqlType } from '../../relnode/types.js';
import type { KeyFilter } from '../kernels/key-filter.js';
import type { RuntimeFilterSlot } from '../runtime-filter.js';

/**
 * `on` false makes every join look keys up in its table; `beforeTable` false makes a membership join
 * build its key table anyway and decide after it (mutable for tests and benchmarks).
 */
export const membershipTuning = { on: true, beforeTable: true };

/** What decides whether a built join probes by membership. */
export interface MembershipCase {
  readonly joinType: JoinType;
  readonly noResidual: boolean;
  /** Every build key group has one row. */
  readonly unique: boolean;
  readonly keys: number;
  /** The join publishes its build keys (not a per-epoch instance inside an iteration). */
  readonly publishes: boolean;
  readonly slot: RuntimeFilterSlot | undefined;
  /** Nothing after the build reads a build column. */
  readonly buildUnread: () => boolean;
}

/** The exact filter a built join tests its probe keys against, or null when it looks them up in its table. */
export function membershipFilter(c: MembershipCase): KeyFilter | null {
  if (!membershipTuning.on || c.joinType !== 'inner' || !c.noResidual || !c.unique || c.keys !== 1 || !c.publishes) return null;
  const f = c.slot?.filter(0);
  if (f === undefined || f.mode === 'bloom') return null;
  return c.buildUnread() ? f : null;
}

/** Probe key types whose batches hold plain Int32 values (INTEGER; DATE as days; canonical columns, io/canonical.ts). */
export function int32Keyed(t: SqlType): boolean {
  return t === 'INTEGER' || t === 'DATE';
}

/**
 * The membership filter decided before a key table is built (then none is): the published filter
 * shows the build keys distinct and the probe key is INTEGER/DATE. Null: build the table (the decision
 * then waits for it, `membershipFilter`).
 */
export function membershipBeforeTable(c: Omit<MembershipCase, 'unique'>, probeKey: SqlType): KeyFilter | null {
  if (!membershipTuning.beforeTable || !int32Keyed(probeKey)) return null;
  // The join's own conditions first; the count of the bitmap's bits last.
  const f = membershipFilter({ ...c, unique: true });
  return f !== null && f.keysDistinct() ? f : null;
}
