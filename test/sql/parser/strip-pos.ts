/** Test helper: a deep copy of an AST without `pos` fields, for shape comparisons. */
export function stripPos<T>(value: T): unknown {
  if (Array.isArray(value)) return value.map(stripPos);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== 'pos') out[k] = stripPos(v);
    return out;
  }
  return value;
}
