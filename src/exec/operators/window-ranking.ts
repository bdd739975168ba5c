/**
 * Ranking and navigation window functions, a partition at a time, as DuckDB
 * computes them: row_number, rank, dense_rank, percent_rank ((rank − 1) /
 * (rows − 1), 0 for one row), cume_dist (rows up to the last peer / rows),
 * ntile (bucket sizes differ by at most one, the larger first), lag / lead
 * (by row position, ignoring the frame; a default for positions outside the
 * partition), first_value / last_value / nth_value (over the frame, NULLs
 * respected). Ranks see peers (equal ORDER BY keys); without ORDER BY every
 * row of a partition is a peer of every other.
 */
import { Type, type Data } from 'apache-arrow';
import { InternalError } from '../../relnode/errors.js';
import type { WindowCall } from '../../relnode/window.js';
import { concatData, decodeDictionary } from '../batch-concat.js';
import type { Frames, Peers } from './window-frames.js';
import { GatherOutput, NumberOutput, type WindowOutput } from './window-output.js';

/** Evaluates one ranking or navigation call partition by partition. */
export interface WindowRanker {
  readonly output: WindowOutput;
  partition(ps: number, pe: number, peers: Peers, frames: Frames): void;
}

/** The ranker of `call`; `args` are its sorted argument columns (value, then lag/lead's default). */
export function windowRanker(call: WindowCall, n: number, args: readonly Data[]): WindowRanker {
  switch (call.fn) {
    case 'row_number': case 'rank': case 'dense_rank': case 'percent_rank': case 'cume_dist': case 'ntile':
      return new RankFn(call.fn, n, call.param ?? 1);
    case 'lag': case 'lead': return new ShiftFn(call.fn === 'lag' ? -(call.param ?? 1) : call.param ?? 1, n, args[0]!, args[1]);
    case 'first_value': case 'last_value': case 'nth_value': return new FrameValueFn(call.fn, call.param ?? 1, n, args[0]!);
    default: throw new InternalError(`${call.fn} is not a ranking or navigation function`);
  }
}

class RankFn implements WindowRanker {
  readonly output: NumberOutput;
  constructor(private readonly fn: 'row_number' | 'rank' | 'dense_rank' | 'percent_rank' | 'cume_dist' | 'ntile', n: number, private readonly buckets: number) {
    this.output = new NumberOutput(n, fn !== 'percent_rank' && fn !== 'cume_dist');
  }

  partition(ps: number, pe: number, peers: Peers): void {
    const out = this.output.values;
    const m = pe - ps;
    switch (this.fn) {
      case 'row_number': for (let j = 0; j < m; j++) out[ps + j] = j + 1; return;
      case 'rank': for (let i = ps; i < pe; i++) out[i] = peers.start[i]! - ps + 1; return;
      case 'dense_rank': for (let i = ps; i < pe; i++) out[i] = peers.group[i]! + 1; return;
      case 'percent_rank': for (let i = ps; i < pe; i++) out[i] = m > 1 ? (peers.start[i]! - ps) / (m - 1) : 0; return;
      case 'cume_dist': for (let i = ps; i < pe; i++) out[i] = (peers.end[i]! - ps) / m; return;
      case 'ntile': {
        const b = this.buckets;
        const size = Math.floor(m / b);
        const large = m - size * b; // buckets with size + 1 rows
        const smallStart = large * (size + 1);
        for (let j = 0; j < m; j++) {
          out[ps + j] = size === 0 ? j + 1 : j < smallStart ? 1 + Math.floor(j / (size + 1)) : 1 + large + Math.floor((j - smallStart) / size);
        }
        return;
      }
    }
  }
}

/** lag (negative shift) and lead: the row `shift` positions away in the partition, else the default (or NULL). */
class ShiftFn implements WindowRanker {
  readonly output: GatherOutput;
  private readonly n: number;
  private readonly hasDefault: boolean;
  constructor(private readonly shift: number, n: number, value: Data, dflt: Data | undefined) {
    this.n = n;
    this.hasDefault = dflt !== undefined;
    // With a default, the source is the value column then the default column: position i's default is row n + i.
    // A dictionary value column beside a plain default (or the reverse): the dictionary side is decoded.
    const same = dflt === undefined || dflt.typeId === value.typeId;
    const plain = (d: Data): Data => (same || d.typeId !== Type.Dictionary ? d : decodeDictionary(d));
    this.output = new GatherOutput(n, dflt === undefined ? value : concatData([plain(value), plain(dflt)]));
  }

  partition(ps: number, pe: number): void {
    const idx = this.output.idx;
    for (let i = ps; i < pe; i++) {
      const p = i + this.shift;
      idx[i] = p >= ps && p < pe ? p : this.hasDefault ? this.n + i : -1;
    }
  }
}

/** first_value / last_value / nth_value over the frame. */
class FrameValueFn implements WindowRanker {
  readonly output: GatherOutput;
  constructor(private readonly fn: 'first_value' | 'last_value' | 'nth_value', private readonly nth: number, n: number, value: Data) {
    this.output = new GatherOutput(n, value);
  }

  partition(ps: number, pe: number, _peers: Peers, f: Frames): void {
    const idx = this.output.idx;
    for (let i = ps; i < pe; i++) {
      const s = f.start[i]!; const e = f.end[i]!;
      let p: number;
      if (this.fn === 'first_value') p = s;
      else if (this.fn === 'last_value') p = e - 1;
      else p = s + this.nth - 1;
      idx[i] = e > s && p >= s && p < e ? p : -1;
    }
  }
}
