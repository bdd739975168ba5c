/**
 * DuckDB functions that take or return a LIST, STRUCT, MAP or INTERVAL, which eddy does not have yet: an
 * unknown-function error for one of them says why instead of suggesting a name that only looks
 * alike (`list` → `last`). A table function that exists in FROM (`generate_series`, `range`,
 * `unnest` there) is named as such.
 */

/** The reason for a call of `name` that eddy cannot run, or undefined when it is not one of these. */
export function nestedTypeReason(name: string): string | undefined {
  const n = name.toLowerCase();
  if (n === 'generate_series' || n === 'range') return `${name}(...) as a value returns a LIST, which eddy does not have yet; as a table it works in FROM: SELECT * FROM ${n}(1, 3)`;
  if (n === 'age') return `${name}(...) returns an INTERVAL, which eddy does not have yet; date_diff('day', b, a) gives the difference as a number`;
  if (STRUCT.has(n)) return `${name}(...) takes or returns STRUCT or MAP values, which eddy does not have yet (see Types in docs/sql.md)`;
  if (LIST.has(n)) return `${name}(...) takes or returns LIST values, which eddy does not have yet (see Types in docs/sql.md); string_agg(x, ',') joins values into a VARCHAR`;
  return undefined;
}

const LIST = new Set([
  'array_agg', 'list', 'list_value', 'list_pack', 'array_value', 'unnest', 'string_split', 'str_split', 'string_to_array',
  'string_split_regex', 'str_split_regex', 'regexp_split_to_array', 'list_concat', 'list_cat', 'array_concat', 'array_cat',
  'list_contains', 'list_has', 'array_contains', 'array_has', 'list_position', 'array_position', 'list_extract', 'list_element',
  'array_extract', 'list_slice', 'array_slice', 'array_length', 'len', 'list_sort', 'array_sort', 'list_reverse_sort',
  'list_distinct', 'array_distinct', 'list_unique', 'list_aggregate', 'list_aggr', 'array_aggregate', 'list_transform',
  'array_transform', 'list_apply', 'list_filter', 'array_filter', 'list_reduce', 'flatten', 'array_to_string', 'list_zip',
  'list_sum', 'list_min', 'list_max', 'list_avg', 'list_count', 'list_reverse', 'array_reverse', 'list_append',
  'array_append', 'list_prepend', 'array_prepend', 'list_has_any', 'list_has_all', 'range_list', 'regexp_extract_all',
  'string_split_to_array', 'generate_subscripts',
]);

const STRUCT = new Set([
  'struct_pack', 'row', 'struct_extract', 'struct_insert', 'map', 'map_from_entries', 'map_extract', 'map_keys',
  'map_values', 'element_at', 'histogram', 'cardinality', 'map_entries',
]);
