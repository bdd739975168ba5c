/**
 * Cache failures. A CacheLostError is the "cache lost" signal of FLIP-36's
 * failover: a cache source found a partition gone (its instance was killed,
 * it was dropped under MEMORY_ONLY, or its spill file is missing or corrupt).
 * The engine catches it, invalidates the entry and re-runs the query from the
 * original plan.
 */
import { CacheError } from '../relnode/errors.js';

/** A cache entry's data is (partly) gone; `entryId` names the entry, `store` the materialization that was read. */
export class CacheLostError extends CacheError {
  override name = 'CacheLostError';
  constructor(readonly entryId: string, readonly detail: string, readonly store?: string) {
    super(`cache entry ${entryId} is lost: ${detail}`);
  }
}
