/**
 * Entry ids: the short name of a cached result (`c` + 16 hex digits of its
 * digest's hash) that plans, EXPLAIN, SHOW CACHES and events use, kept stable
 * while anything of its digest is remembered.
 *
 * Why a registry and not just the hash: a hash is a bucket key, never proof
 * (DESIGN.md), so two digests sharing a hash must still get two ids (`-2`,
 * `-3`, ...), and an id must map back to exactly one digest. The manager
 * forgets an id only when its digest has no mark, entry or write left.
 */
import { digest as digestOf, digestHash } from '../relnode/digest.js';
import type { RelNode } from '../relnode/rel.js';

/** Ids of digests, one each, unique. */
export class EntryIds {
  private readonly digests = new Map<string, string>();
  private readonly ids = new Map<string, string>();

  /** The id of a subtree: its digest hash, made unique should two digests share a hash. */
  idFor(n: RelNode): string {
    const d = digestOf(n);
    const known = this.ids.get(d);
    if (known !== undefined) return known;
    let id = `c${digestHash(n)}`;
    for (let k = 2; this.digests.has(id); k++) id = `c${digestHash(n)}-${k}`;
    this.digests.set(id, d);
    this.ids.set(d, id);
    return id;
  }

  /** The digest an id was given to. */
  digestOf(id: string): string | undefined {
    return this.digests.get(id);
  }

  /** Forgets a digest's id (the caller checked nothing of it is left). */
  forget(d: string): void {
    const id = this.ids.get(d);
    if (id !== undefined) { this.ids.delete(d); this.digests.delete(id); }
  }

  /** Digests with an id now. */
  get size(): number {
    return this.ids.size;
  }
}
