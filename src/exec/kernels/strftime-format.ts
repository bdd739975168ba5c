/**
 * strftime / strptime format specifiers, DuckDB's (C's) names: %Y %y %m %d
 * %H %I %M %S %f (microseconds) %g (milliseconds) %p %j %a %A %b %B %w %u
 * %V %G %-m %-d %-H %-M %-S %-I %-j (no padding) %z %Z (UTC: +00, UTC) %%.
 * Other specifiers are an error naming the specifier. strptime is a linear
 * scan over the format (no backtracking); it returns null when the text does
 * not match.
 */
import { ExecutionError } from '../../relnode/errors.js';
import { MS_PER_DAY } from '../../relnode/types.js';
import { civilFromDays, daysFromCivil, daysInMonth } from './datetime.js';

export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const pad = (v: number, w: number): string => (v < 0 ? '-' + String(-v).padStart(w, '0') : String(v).padStart(w, '0'));

function isoWeek(days: number): [number, number] {
  const isodow = (((days + 4) % 7) + 7) % 7 || 7;
  const thursday = days + 4 - isodow;
  const [y] = civilFromDays(thursday);
  return [y, Math.floor((thursday - daysFromCivil(y, 1, 1)) / 7) + 1];
}

/** Formats a timestamp (ms) with a strftime format. */
export function formatStrftime(fmt: string, ms: number): string {
  const days = Math.floor(ms / MS_PER_DAY);
  const tod = ms - days * MS_PER_DAY;
  const [y, m, d] = civilFromDays(days);
  const h = Math.floor(tod / 3_600_000), mi = Math.floor(tod / 60_000) % 60, s = Math.floor(tod / 1000) % 60, frac = tod % 1000;
  const dw = (((days + 4) % 7) + 7) % 7;
  const doy = days - daysFromCivil(y, 1, 1) + 1;
  const h12 = h % 12 === 0 ? 12 : h % 12;
  let out = '';
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i]!;
    if (c !== '%') { out += c; continue; }
    let spec = fmt[++i];
    const noPad = spec === '-';
    if (noPad) spec = fmt[++i];
    const num = (v: number, w: number): string => (noPad ? String(v) : pad(v, w));
    switch (spec) {
      case 'Y': out += noPad ? String(y) : pad(y, 4); break;
      case 'y': out += num(((y % 100) + 100) % 100, 2); break;
      case 'm': out += num(m, 2); break;
      case 'd': out += num(d, 2); break;
      case 'H': out += num(h, 2); break;
      case 'I': out += num(h12, 2); break;
      case 'M': out += num(mi, 2); break;
      case 'S': out += num(s, 2); break;
      case 'f': out += pad(frac * 1000, 6); break;
      case 'g': out += pad(frac, 3); break;
      case 'p': out += h < 12 ? 'AM' : 'PM'; break;
      case 'j': out += num(doy, 3); break;
      case 'a': out += DAY_NAMES[dw]!.slice(0, 3); break;
      case 'A': out += DAY_NAMES[dw]!; break;
      case 'b': case 'h': out += MONTH_NAMES[m - 1]!.slice(0, 3); break;
      case 'B': out += MONTH_NAMES[m - 1]!; break;
      case 'w': out += String(dw); break;
      case 'u': out += String(dw || 7); break;
      case 'V': out += num(isoWeek(days)[1], 2); break;
      case 'G': out += pad(isoWeek(days)[0], 4); break;
      case 'z': out += '+00'; break;
      case 'Z': out += 'UTC'; break;
      case '%': out += '%'; break;
      default: throw new ExecutionError(`strftime: unsupported format specifier "%${spec ?? ''}" in '${fmt}'`);
    }
  }
  return out;
}

/** Parses text with a strptime format into ms, or null when it does not match. */
export function parseStrptime(text: string, fmt: string): number | null {
  let p = 0;
  let y = 1900, m = 1, d = 1, h = 0, mi = 0, s = 0, frac = 0, pm: boolean | null = null, doy = -1;
  const digits = (max: number): number | null => {
    let q = p, neg = false;
    if (text[q] === '-' || text[q] === '+') { neg = text[q] === '-'; q++; }
    const start = q;
    while (q < text.length && q - start < max && text.charCodeAt(q) >= 48 && text.charCodeAt(q) <= 57) q++;
    if (q === start) return null;
    const v = Number(text.slice(start, q));
    p = q;
    return neg ? -v : v;
  };
  const name = (names: readonly string[], abbrev: boolean): number | null => {
    const rest = text.slice(p).toLowerCase();
    for (let k = 0; k < names.length; k++) {
      const full = names[k]!.toLowerCase();
      if (!abbrev && rest.startsWith(full)) { p += full.length; return k; }
      if (rest.startsWith(full.slice(0, 3))) { p += rest.startsWith(full) ? full.length : 3; return k; }
    }
    return null;
  };
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i]!;
    if (c !== '%') {
      if (c === ' ') { while (text[p] === ' ') p++; continue; }
      if (text[p] !== c) return null;
      p++;
      continue;
    }
    let spec = fmt[++i];
    if (spec === '-') spec = fmt[++i];
    let v: number | null;
    switch (spec) {
      case 'Y': v = digits(9); if (v === null) return null; y = v; break;
      case 'y': v = digits(2); if (v === null) return null; y = v < 69 ? 2000 + v : 1900 + v; break;
      case 'm': v = digits(2); if (v === null) return null; m = v; break;
      case 'd': v = digits(2); if (v === null) return null; d = v; break;
      case 'H': case 'I': v = digits(2); if (v === null) return null; h = v; break;
      case 'M': v = digits(2); if (v === null) return null; mi = v; break;
      case 'S': v = digits(2); if (v === null) return null; s = v; break;
      case 'f': case 'g': {
        const start = p;
        while (p < text.length && p - start < (spec === 'f' ? 6 : 3) && text.charCodeAt(p) >= 48 && text.charCodeAt(p) <= 57) p++;
        if (p === start) return null;
        frac = Number(text.slice(start, p).padEnd(3, '0').slice(0, 3));
        break;
      }
      case 'p': {
        const t = text.slice(p, p + 2).toUpperCase();
        if (t !== 'AM' && t !== 'PM') return null;
        pm = t === 'PM'; p += 2; break;
      }
      case 'j': v = digits(3); if (v === null) return null; doy = v; break;
      case 'a': case 'A': if (name(DAY_NAMES, spec === 'a') === null) return null; break;
      case 'b': case 'h': case 'B': { const k = name(MONTH_NAMES, spec !== 'B'); if (k === null) return null; m = k + 1; break; }
      case 'z': if (!/^(Z|[+-]00(:?00)?)/.test(text.slice(p))) return null; p += /^(Z|[+-]00(:?00)?)/.exec(text.slice(p))![0].length; break;
      case 'Z': if (!text.startsWith('UTC', p)) return null; p += 3; break;
      case '%': if (text[p] !== '%') return null; p++; break;
      default: throw new ExecutionError(`strptime: unsupported format specifier "%${spec ?? ''}" in '${fmt}'`);
    }
  }
  if (p !== text.length) return null;
  if (pm !== null) { if (h < 1 || h > 12) return null; h = (h % 12) + (pm ? 12 : 0); }
  if (m < 1 || m > 12 || h > 23 || mi > 59 || s > 59) return null;
  let days: number;
  if (doy >= 0) days = daysFromCivil(y, 1, 1) + doy - 1;
  else {
    if (d < 1 || d > daysInMonth(y, m)) return null;
    days = daysFromCivil(y, m, d);
  }
  return days * MS_PER_DAY + h * 3_600_000 + mi * 60_000 + s * 1000 + frac;
}
