/**
 * Calendar dates of DATE values (days since 1970-01-01) by arithmetic —
 * Howard Hinnant's civil_from_days — because JS `Date` stops at year 275760
 * while DATE reaches year 5881580, and because the kernels need the parts
 * without allocating. One copy for the kernels (date_part, year(), ...), for
 * writers and for EXPLAIN text.
 */

/** One part (0 = year, 1 = month 1-12, 2 = day 1-31) of a day number. */
export function civilPart(days: number, part: number): number {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  if (part === 2) return doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  if (part === 1) return m;
  return yoe + era * 400 + (m <= 2 ? 1 : 0);
}

/**
 * `YYYY-MM-DD` of a day number; a year before 1 as `YYYY-MM-DD (BC)` (year 0 is 1 BC), as DuckDB writes
 * it and as DATE literals and casts read it back (EXPLAIN text is SQL a user may copy: `-0043-03-15`
 * was not).
 */
export function civilDateText(days: number): string {
  const { text, bc } = civilDay(days);
  return bc ? `${text} (BC)` : text;
}

function civilDay(days: number): { text: string; bc: boolean } {
  const y = civilPart(days, 0);
  const p2 = (n: number): string => String(n).padStart(2, '0');
  const bc = y < 1;
  return { text: `${String(bc ? 1 - y : y).padStart(4, '0')}-${p2(civilPart(days, 1))}-${p2(civilPart(days, 2))}`, bc };
}

/** `YYYY-MM-DD HH:MM:SS[.mmm]` of a TIMESTAMP value (milliseconds since the epoch, UTC); before year 1 `YYYY-MM-DD (BC) HH:MM:SS`. */
export function civilTimestampText(ms: number): string {
  const days = Math.floor(ms / 86_400_000);
  let rest = ms - days * 86_400_000;
  const p2 = (n: number): string => String(n).padStart(2, '0');
  const h = Math.floor(rest / 3_600_000); rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000); rest -= m * 60_000;
  const s = Math.floor(rest / 1000); rest -= s * 1000;
  const frac = rest === 0 ? '' : `.${String(Math.round(rest)).padStart(3, '0')}`;
  const { text, bc } = civilDay(days);
  return `${text}${bc ? ' (BC)' : ''} ${p2(h)}:${p2(m)}:${p2(s)}${frac}`;
}
