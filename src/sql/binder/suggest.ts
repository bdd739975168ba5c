/**
 * "Did you mean" suggestions: the closest name by edit distance. One helper
 * for every layer that names what exists (binder scopes, the API's column
 * resolver and catalog, the shell's dot commands).
 */

/** Edit distance between two strings. */
function distance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0]!;
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j]!;
      dp[j] = Math.min(dp[j]! + 1, dp[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length]!;
}

/** The closest name to `name` among `names` (for suggestions), if reasonably close. */
export function closest(name: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  const lower = name.toLowerCase();
  for (const n of names) {
    const l = n.toLowerCase();
    // One name inside the other counts as close only when they are of comparable length (`n_nam` in
    // `n_name`), not a short name inside a long one (`era` in `generate_series`).
    const contained = (l.includes(lower) || lower.includes(l)) && 3 * Math.min(l.length, lower.length) >= 2 * Math.max(l.length, lower.length);
    const d = contained ? Math.min(1, distance(lower, l)) : distance(lower, l);
    if (d < bestD) { bestD = d; best = n; }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(name.length / 2)) ? best : undefined;
}
