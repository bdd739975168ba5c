/**
 * The group arrays of a KeyTable (hash.ts, hash-probe.ts): each group's key words (W int32 words per
 * gid, in gid order: for output, rehashing and sorted runs) and whether its key is kept apart
 * (hash-null-keys.ts). They grow by doubling, jump to a planner's expected count, or are sized once
 * for a join build's known row count; the arrays come from and go back to the thread's pool
 * (buffer-pool.ts). Split from the probing loops (hash-probe.ts) so each file holds one concept.
 */
import { EXPECT_AFTER } from './hash-slots.js';
import { giveArray, takeArray } from './buffer-pool.js';

/** Groups 0 … size − 1 and their key words. */
export class GroupArrays {
  /** Number of groups (distinct keys). */
  size = 0;
  /** Words of each group, W per gid (group-ordered: for output and rehashing). */
  protected groupWords: Int32Array;
  /** Per gid: 1 when the key is kept apart (it lives in `nulls`, not in `slots`: hash-null-keys.ts). */
  protected groupApart: Uint8Array;
  /** A planner's estimate of the groups (expectKeys): the group arrays jump to it once EXPECT_AFTER groups exist. */
  protected expectedGroups = 0;

  /** @param W words per key */
  constructor(readonly W: number) {
    this.groupWords = new Int32Array(16 * Math.max(1, W));
    this.groupApart = new Uint8Array(16);
  }

  /** Appends a group with the words at `words[base..base+W)`; returns its gid. */
  protected newGroup(words: Int32Array | null, base: number, W: number): number {
    const gid = this.size++;
    if ((gid + 1) * this.W > this.groupWords.length || gid + 1 > this.groupApart.length) this.growGroups(gid + 1);
    if (words !== null) for (let w = 0; w < W; w++) this.groupWords[gid * W + w] = words[base + w]!;
    return gid;
  }

  /** Room for at least `groups` groups in the group arrays (growing as `newGroup` does). */
  protected ensureGroups(groups: number): void {
    if (groups * this.W > this.groupWords.length || groups > this.groupApart.length) this.growGroups(groups);
  }

  /**
   * Room for `groups` groups in all in the group arrays, allocated once at exactly that size (a join
   * build knows its row count: doubling up to 145K groups allocated 3.4 MB of group arrays for TPC-H
   * Q3's build, 0.7 MB of which stay).
   */
  protected reserveGroups(groups: number): void {
    if (groups * this.W > this.groupWords.length) {
      const next = takeArray(Int32Array, groups * this.W) ?? new Int32Array(groups * this.W);
      next.set(this.groupWords.subarray(0, this.size * this.W));
      giveArray(this.groupWords);
      this.groupWords = next;
    }
    if (groups > this.groupApart.length) {
      const next = takeArray(Uint8Array, groups) ?? new Uint8Array(groups);
      next.set(this.groupApart.subarray(0, this.size));
      giveArray(this.groupApart);
      this.groupApart = next;
    }
  }

  /**
   * Room for at least `groups` groups in the group arrays: doubling, or once EXPECT_AFTER groups
   * exist, one jump to an expected count above that (no doublings of a big table's arrays). The
   * arrays come from and go back to the thread's pool (buffer-pool.ts): the outgrown ones are dead.
   */
  private growGroups(groups: number): void {
    let cap = Math.max(2 * this.groupApart.length, groups);
    if (groups > EXPECT_AFTER && this.expectedGroups > cap) cap = this.expectedGroups;
    if (groups * this.W > this.groupWords.length) {
      const next = takeArray(Int32Array, cap * this.W) ?? new Int32Array(cap * this.W);
      next.set(this.groupWords);
      giveArray(this.groupWords);
      this.groupWords = next;
    }
    if (groups > this.groupApart.length) {
      const next = takeArray(Uint8Array, cap) ?? new Uint8Array(cap);
      next.set(this.groupApart);
      giveArray(this.groupApart);
      this.groupApart = next;
    }
  }
}
