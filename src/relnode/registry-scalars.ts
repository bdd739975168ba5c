/**
 * Scalar entries of the function registry (function-registry.ts): strings,
 * regular expressions, math, dates and times, conditionals. Semantics are
 * DuckDB's; results use eddy's types (INTEGER where DuckDB says TINYINT,
 * DOUBLE where it says DECIMAL).
 */
import { entry, type FunctionEntry } from './registry-entry.js';

const sc = (category: string, name: string, id: string | null, sig: string | readonly string[], returns: string, desc: string, aliases: readonly string[] = []): FunctionEntry =>
  entry('scalar', category, name, id === null ? { special: name } : { scalar: id }, sig, returns, desc, aliases);

const str = (name: string, sig: string | readonly string[], returns: string, desc: string, aliases: readonly string[] = [], id = name): FunctionEntry => sc('string', name, id, sig, returns, desc, aliases);
const math = (name: string, sig: string | readonly string[], returns: string, desc: string, aliases: readonly string[] = [], id = name): FunctionEntry => sc('math', name, id, sig, returns, desc, aliases);
const date = (name: string, sig: string | readonly string[], returns: string, desc: string, aliases: readonly string[] = [], id: string | null = name): FunctionEntry => sc('date', name, id, sig, returns, desc, aliases);
const trig = (name: string, desc: string): FunctionEntry => math(name, `${name}(x DOUBLE)`, 'DOUBLE', desc);

export const SCALAR_ENTRIES: readonly FunctionEntry[] = [
  // strings
  str('upper', 'upper(s VARCHAR)', 'VARCHAR', 'Upper case (per code point).', ['ucase']),
  str('lower', 'lower(s VARCHAR)', 'VARCHAR', 'Lower case (per code point).', ['lcase']),
  str('length', 'length(s VARCHAR)', 'INTEGER', 'Number of characters (code points).', ['len', 'char_length', 'character_length']),
  str('substring', ['substring(s VARCHAR, start INTEGER)', 'substring(s VARCHAR, start INTEGER, length INTEGER)'], 'VARCHAR', 'Characters from 1-based `start` (negative: from the end), `length` of them.', ['substr']),
  sc('string', 'trim', null, ['trim(s VARCHAR)', 'trim(s VARCHAR, characters VARCHAR)'], 'VARCHAR', 'Removes leading and trailing spaces, or any of `characters`.'),
  str('ltrim', ['ltrim(s VARCHAR)', 'ltrim(s VARCHAR, characters VARCHAR)'], 'VARCHAR', 'Removes leading spaces, or any of `characters`.'),
  str('rtrim', ['rtrim(s VARCHAR)', 'rtrim(s VARCHAR, characters VARCHAR)'], 'VARCHAR', 'Removes trailing spaces, or any of `characters`.'),
  str('concat', 'concat(a, b, ...)', 'VARCHAR', 'Concatenates its arguments as text; NULL arguments count as empty strings (`a || b` is NULL if either is).'),
  str('replace', 'replace(s VARCHAR, from VARCHAR, to VARCHAR)', 'VARCHAR', 'Replaces every occurrence of `from` with `to`.'),
  str('split_part', 'split_part(s VARCHAR, separator VARCHAR, index INTEGER)', 'VARCHAR', 'The `index`-th (1-based; negative from the end) part of `s` split at `separator`; empty when out of range.'),
  str('starts_with', 'starts_with(s VARCHAR, prefix VARCHAR)', 'BOOLEAN', 'True when `s` begins with `prefix`.'),
  str('ends_with', 'ends_with(s VARCHAR, suffix VARCHAR)', 'BOOLEAN', 'True when `s` ends with `suffix`.', ['suffix']),
  str('contains', 'contains(s VARCHAR, search VARCHAR)', 'BOOLEAN', 'True when `search` occurs in `s`.'),
  str('strpos', 'strpos(s VARCHAR, search VARCHAR)', 'BIGINT', '1-based character position of the first `search` in `s`, 0 if absent. Also written `position(search IN s)`.', ['instr']),
  str('lpad', 'lpad(s VARCHAR, n INTEGER, pad VARCHAR)', 'VARCHAR', 'Pads `s` on the left with `pad` to `n` characters (truncates to `n` if longer).'),
  str('rpad', 'rpad(s VARCHAR, n INTEGER, pad VARCHAR)', 'VARCHAR', 'Pads `s` on the right with `pad` to `n` characters (truncates to `n` if longer).'),
  str('repeat', 'repeat(s VARCHAR, n INTEGER)', 'VARCHAR', '`s` repeated `n` times (empty for n ≤ 0).'),
  str('reverse', 'reverse(s VARCHAR)', 'VARCHAR', 'The characters (code points) of `s` in reverse order.'),
  str('left', 'left(s VARCHAR, n INTEGER)', 'VARCHAR', 'The first `n` characters (n < 0: all but the last -n).'),
  str('right', 'right(s VARCHAR, n INTEGER)', 'VARCHAR', 'The last `n` characters (n < 0: all but the first -n).'),
  str('ascii', 'ascii(s VARCHAR)', 'INTEGER', 'The code point of the first character.', ['ord']),
  str('chr', 'chr(code INTEGER)', 'VARCHAR', 'The character of a Unicode code point.'),
  // regular expressions
  sc('regex', 'regexp_matches', 'regexp_matches', 'regexp_matches(s VARCHAR, pattern VARCHAR[, options VARCHAR])', 'BOOLEAN', 'True when `pattern` matches somewhere in `s`. RE2 syntax, matched in linear time; backreferences and lookaround are rejected. Options: c, i, s, m.'),
  sc('regex', 'regexp_full_match', 'regexp_full_match', 'regexp_full_match(s VARCHAR, pattern VARCHAR[, options VARCHAR])', 'BOOLEAN', 'True when `pattern` matches all of `s`.'),
  sc('regex', 'regexp_replace', 'regexp_replace', 'regexp_replace(s VARCHAR, pattern VARCHAR, replacement VARCHAR[, options VARCHAR])', 'VARCHAR', 'Replaces the first match (every match with option g); `\\1`..`\\9` in `replacement` insert groups, `\\0` the match.'),
  sc('regex', 'regexp_extract', 'regexp_extract', 'regexp_extract(s VARCHAR, pattern VARCHAR[, group INTEGER])', 'VARCHAR', 'The first match (or its capture `group`); empty when nothing matches.'),
  // math
  math('abs', 'abs(x)', 'the type of x', 'Absolute value.'),
  math('round', ['round(x)', 'round(x, digits INTEGER)'], 'the type of x', 'Rounds half away from zero to `digits` decimals.'),
  math('floor', 'floor(x)', 'the type of x', 'Largest integer ≤ x.'),
  math('ceil', 'ceil(x)', 'the type of x', 'Smallest integer ≥ x.', ['ceiling']),
  math('trunc', 'trunc(x)', 'the type of x', 'Rounds toward zero.'),
  math('sign', 'sign(x)', 'INTEGER', '-1, 0 or 1.'),
  math('mod', 'mod(a, b)', 'the common numeric type', 'Remainder of a / b with the sign of a (`a % b`); NULL when b = 0.'),
  math('sqrt', 'sqrt(x)', 'DOUBLE', 'Square root (error for x < 0).'),
  math('cbrt', 'cbrt(x DOUBLE)', 'DOUBLE', 'Cube root.'),
  math('power', 'power(x, y)', 'DOUBLE', 'x raised to y.', ['pow']),
  math('exp', 'exp(x)', 'DOUBLE', 'e raised to x.'),
  math('ln', 'ln(x)', 'DOUBLE', 'Natural logarithm (error for x ≤ 0).'),
  math('log10', 'log10(x DOUBLE)', 'DOUBLE', 'Base-10 logarithm (error for x ≤ 0).'),
  math('log2', 'log2(x DOUBLE)', 'DOUBLE', 'Base-2 logarithm (error for x ≤ 0).'),
  sc('math', 'log', null, ['log(x DOUBLE)', 'log(base DOUBLE, x DOUBLE)'], 'DOUBLE', 'Base-10 logarithm, or the logarithm to `base`.'),
  math('pi', 'pi()', 'DOUBLE', 'π.'),
  trig('sin', 'Sine (radians).'), trig('cos', 'Cosine.'), trig('tan', 'Tangent.'), trig('cot', 'Cotangent.'),
  trig('asin', 'Arcsine (error outside [-1, 1]).'), trig('acos', 'Arccosine (error outside [-1, 1]).'), trig('atan', 'Arctangent.'),
  math('atan2', 'atan2(y DOUBLE, x DOUBLE)', 'DOUBLE', 'Arctangent of y / x, in the right quadrant.'),
  trig('degrees', 'Radians to degrees.'), trig('radians', 'Degrees to radians.'),
  math('isnan', 'isnan(x DOUBLE)', 'BOOLEAN', 'True for NaN.'),
  math('isinf', 'isinf(x DOUBLE)', 'BOOLEAN', 'True for ±infinity.'),
  math('greatest', 'greatest(a, b, ...)', 'the common type of the arguments', 'The largest argument; NULL arguments are ignored (NULL only if all are).'),
  math('least', 'least(a, b, ...)', 'the common type of the arguments', 'The smallest argument; NULL arguments are ignored (NULL only if all are).'),
  math('random', 'random()', 'DOUBLE', 'A uniform random number in [0, 1), per row (never cached).'),
  // dates and times
  date('date_part', ['date_part(part VARCHAR, x DATE|TIMESTAMP)', 'extract(part FROM x)'], 'BIGINT (DOUBLE for epoch)', 'A part of a date or timestamp: year, quarter, month, week (ISO), day, dow (0 = Sunday), isodow, doy, isoyear, yearweek, decade, century, millennium, hour, minute, second, millisecond, microsecond, epoch (seconds).', ['datepart', 'extract'], null),
  date('year', 'year(x DATE|TIMESTAMP)', 'INTEGER', 'The year.'),
  date('month', 'month(x DATE|TIMESTAMP)', 'INTEGER', 'The month (1-12).'),
  date('day', 'day(x DATE|TIMESTAMP)', 'INTEGER', 'The day of the month.', ['dayofmonth']),
  date('quarter', 'quarter(x DATE|TIMESTAMP)', 'BIGINT', 'The quarter (1-4).', [], null),
  date('dayofweek', 'dayofweek(x DATE|TIMESTAMP)', 'BIGINT', 'Day of the week, 0 = Sunday.', ['weekday'], null),
  date('isodow', 'isodow(x DATE|TIMESTAMP)', 'BIGINT', 'ISO day of the week, 1 = Monday … 7 = Sunday.', [], null),
  date('dayofyear', 'dayofyear(x DATE|TIMESTAMP)', 'BIGINT', 'Day of the year (1-366).', [], null),
  date('week', 'week(x DATE|TIMESTAMP)', 'BIGINT', 'ISO week number.', ['weekofyear'], null),
  date('hour', 'hour(x TIMESTAMP)', 'BIGINT', 'The hour.', [], null),
  date('minute', 'minute(x TIMESTAMP)', 'BIGINT', 'The minute.', [], null),
  date('second', 'second(x TIMESTAMP)', 'BIGINT', 'The second.', [], null),
  date('epoch', 'epoch(x DATE|TIMESTAMP)', 'DOUBLE', 'Seconds since 1970-01-01 00:00:00 UTC.'),
  date('date_trunc', 'date_trunc(part VARCHAR, x DATE|TIMESTAMP)', 'TIMESTAMP', 'Truncates to the start of the part: millennium, century, decade, year, quarter, month, week (Monday), day, hour, minute, second.', ['datetrunc']),
  date('date_diff', 'date_diff(part VARCHAR, start DATE|TIMESTAMP, end DATE|TIMESTAMP)', 'BIGINT', 'The number of part boundaries crossed from `start` to `end` (year, quarter, month, week, day, hour, minute, second, millisecond, ...).', ['datediff']),
  date('date_add', 'date_add(d DATE, days INTEGER)', 'DATE', 'The date `days` days later (a DATE; `d + INTERVAL n DAY` is the same day as a TIMESTAMP).'),
  date('last_day', 'last_day(x DATE|TIMESTAMP)', 'DATE', 'The last day of the month.'),
  date('dayname', 'dayname(x DATE|TIMESTAMP)', 'VARCHAR', 'English name of the weekday.'),
  date('monthname', 'monthname(x DATE|TIMESTAMP)', 'VARCHAR', 'English name of the month.'),
  date('strftime', 'strftime(x DATE|TIMESTAMP, format VARCHAR)', 'VARCHAR', 'Formats with C specifiers: %Y %y %m %d %H %I %M %S %f %g %p %j %a %A %b %B %w %u %V %G %z %Z %% (and %-d etc. without padding).'),
  date('strptime', 'strptime(s VARCHAR, format VARCHAR)', 'TIMESTAMP', 'Parses with strftime specifiers; an error when `s` does not match.'),
  date('try_strptime', 'try_strptime(s VARCHAR, format VARCHAR)', 'TIMESTAMP', 'As strptime, NULL when `s` does not match.'),
  date('make_date', 'make_date(year BIGINT, month BIGINT, day BIGINT)', 'DATE', 'The date of a year, month and day (error when invalid).'),
  date('make_timestamp', 'make_timestamp(year, month, day, hour, minute, seconds DOUBLE)', 'TIMESTAMP', 'The timestamp of its parts (millisecond precision).'),
  date('current_date', 'current_date', 'DATE', 'Today (UTC), fixed for the query.', ['today']),
  date('now', ['now()', 'current_timestamp'], 'TIMESTAMP', 'The current time (UTC, milliseconds), fixed for the query.', ['current_timestamp', 'get_current_timestamp']),
  // conditionals
  sc('conditional', 'coalesce', 'coalesce', 'coalesce(a, b, ...)', 'the common type of the arguments', 'The first non-NULL argument.'),
  sc('conditional', 'ifnull', null, 'ifnull(a, b)', 'the common type of a and b', 'a if it is not NULL, else b (coalesce of two).', ['nvl']),
  sc('conditional', 'nullif', 'nullif', 'nullif(a, b)', 'the type of a', 'NULL if a = b, else a.'),
  sc('conditional', 'if', null, 'if(condition BOOLEAN, then, else)', 'the common type of then and else', '`then` when the condition is true, else `else` (CASE WHEN ... THEN ... ELSE ... END).'),
  sc('conditional', 'try_cast', null, 'TRY_CAST(x AS type)', 'type', 'As CAST, but NULL where the value cannot be converted.'),
  sc('conditional', 'typeof', null, 'typeof(x)', 'VARCHAR', "The name of x's SQL type (`'INTEGER'`, `'VARCHAR'`, ...), decided when the query is bound."),
  sc('conditional', 'version', null, 'version()', 'VARCHAR', "eddy's version, as `'v0.1.0'` (DuckDB's form)."),
];
