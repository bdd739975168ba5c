/**
 * The cache manager's recent events (commits, losses, invalidations, dropped blocks), bounded:
 * SHOW CACHES and the REPL's cache notes read the last ones; a long-running environment must not
 * keep every event it ever had. A write that loses several blocks reports the first only.
 */
import type { CacheEvent } from './report.js';

/** Events kept, and writes remembered as having reported a dropped block. */
export const MAX_EVENTS = 200;

/** A bounded log of cache events, oldest first. */
export class CacheEventLog {
  private readonly log: CacheEvent[] = [];
  /** Writes (stores) that already reported a dropped block. */
  private readonly droppedStores = new Set<string>();

  /** Appends an event (the oldest goes beyond MAX_EVENTS). */
  push(kind: CacheEvent['kind'], entryId: string, detail: string): void {
    this.log.push({ at: new Date(), kind, entryId, detail });
    if (this.log.length > MAX_EVENTS) this.log.shift();
  }

  /** True the first time `store` reports a dropped block (remembered for the last MAX_EVENTS stores). */
  firstDropOf(store: string): boolean {
    if (this.droppedStores.has(store)) return false;
    this.droppedStores.add(store);
    if (this.droppedStores.size > MAX_EVENTS) this.droppedStores.delete(this.droppedStores.values().next().value!);
    return true;
  }

  /** The events, oldest first. */
  events(): readonly CacheEvent[] {
    return this.log;
  }
}
