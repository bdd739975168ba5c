/**
 * Counts the bytes of typed arrays and ArrayBuffers allocated while it is on, by allocation site
 * (bench/query-bytes.ts). V8 starts mark-compacts on "external memory" pressure, and an ArrayBuffer's
 * backing store is external: the heap sampling profiler does not see those bytes, so this wraps the
 * constructors instead.
 *
 * Why a wrapper and not a profiler: each global typed-array constructor is replaced by a subclass whose
 * constructor records the new buffer's size and (for pieces of 1 KB or more) the first frames in src/.
 * `instanceof` against a wrapped constructor is delegated to the original (Symbol.hasInstance), so
 * Node's Buffers and arrays made before the install still pass the checks. Install it before any
 * eddy module is imported (the modules read the globals at call time, arrow's type table at load).
 * It slows allocation down: time nothing while it is installed.
 */

/** Bytes and allocations counted at one site. */
export interface SiteCount { bytes: number; count: number }

const NAMES = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'] as const;

let on = false;
let total = 0;
let small = 0;
const sites = new Map<string, SiteCount>();
/** Stack frames under src/ kept per site (1: the allocating function; more: its callers too). */
let depth = 2;

/** The first `depth` frames of the stack in the project's src/ (file:line function), joined by " < ". */
function siteOf(): string {
  const stack = new Error().stack ?? '';
  const frames: string[] = [];
  for (const line of stack.split('\n')) {
    const m = /at (?:(\S+) \()?.*\/src\/([^:)]+):(\d+)/.exec(line);
    if (m === null) continue;
    frames.push(`${m[2]}:${m[3]} ${m[1] ?? ''}`.trim());
    if (frames.length >= depth) break;
  }
  return frames.length === 0 ? '(outside src)' : frames.join(' < ');
}

function record(bytes: number): void {
  if (!on || bytes === 0) return;
  total += bytes;
  if (bytes < 1024) { small += bytes; return; }
  on = false; // the stack capture itself must not count
  const s = siteOf();
  on = true;
  const c = sites.get(s);
  if (c === undefined) sites.set(s, { bytes, count: 1 });
  else { c.bytes += bytes; c.count++; }
}

/** Replaces the global constructors (once per process). `frames`: src/ frames kept per site. */
export function installTypedArrayCounter(frames = 2): void {
  depth = frames;
  const g = globalThis as unknown as Record<string, unknown>;
  if (g.__eddyTypedArrayCounter === true) return;
  g.__eddyTypedArrayCounter = true;
  Error.stackTraceLimit = 40;
  for (const name of NAMES) {
    const Orig = g[name] as new (...a: unknown[]) => ArrayBufferView;
    const Wrapped = class extends (Orig as unknown as new (...a: unknown[]) => object) {
      constructor(...args: unknown[]) {
        super(...args);
        const a = args[0];
        // A view over an existing buffer allocates nothing; a length or a source array allocates a buffer.
        if (!(a instanceof ArrayBuffer) && !(typeof SharedArrayBuffer !== 'undefined' && a instanceof SharedArrayBuffer)) {
          record((this as unknown as ArrayBufferView).byteLength);
        }
      }
      static override [Symbol.hasInstance](x: unknown): boolean { return x instanceof Orig; }
    };
    g[name] = Wrapped;
  }
  for (const name of ['ArrayBuffer', 'SharedArrayBuffer']) {
    const Orig = g[name] as (new (...a: unknown[]) => ArrayBuffer) | undefined;
    if (Orig === undefined) continue;
    g[name] = class extends Orig {
      constructor(...args: unknown[]) {
        super(...args);
        record(this.byteLength);
      }
      static override [Symbol.hasInstance](x: unknown): boolean { return x instanceof Orig; }
    };
  }
}

/** Starts counting from zero. */
export function startCounting(): void {
  total = 0;
  small = 0;
  sites.clear();
  on = true;
}

/** Stops counting; the bytes counted since `startCounting`, in all and by site (largest first). */
export function stopCounting(): { total: number; small: number; sites: [string, SiteCount][] } {
  on = false;
  return { total, small, sites: [...sites].sort((a, b) => b[1].bytes - a[1].bytes) };
}
