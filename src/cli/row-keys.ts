/**
 * Keys of JSON row objects when a result has several columns of one name
 * (`SELECT a.name, b.name FROM p a JOIN p b ...`): every column is kept.
 * The rule is the one `toArray()` follows: the first column of a name keeps
 * it, later ones get `_1`, `_2`, ... skipping any name already taken by
 * another column or an earlier key, so no key is ever written twice.
 */

/** One unique key per column name, in order (see the header for the rule). */
export function uniqueKeys(names: readonly string[]): string[] {
  const taken = new Set(names);
  const seen = new Set<string>();
  const next = new Map<string, number>();
  return names.map((name) => {
    if (!seen.has(name)) {
      seen.add(name);
      return name;
    }
    let n = next.get(name) ?? 1;
    while (taken.has(`${name}_${n}`)) n++;
    next.set(name, n + 1);
    const key = `${name}_${n}`;
    taken.add(key);
    return key;
  });
}
