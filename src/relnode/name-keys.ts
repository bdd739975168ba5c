/**
 * User names (columns, tables, settings, functions) as keys of objects.
 *
 * Decision: eddy never uses a plain object as a map of user names — its
 * catalogs, settings and function tables are Maps. Where an object keyed by
 * user names crosses the API (records passed to `fromRecords`, rows parsed
 * from JSON, row objects returned by `toArray()`), it is read and written
 * through these two functions, so a column named `__proto__`, `constructor`,
 * `toString`, `hasOwnProperty` or `valueOf` is a column like any other:
 * reading only sees the object's own properties (never Object.prototype),
 * and writing always creates an own, enumerable, writable property (a plain
 * `row['__proto__'] = v` would set the prototype instead and the column
 * would vanish).
 */

/** The object's own property `key`, or undefined (never an inherited one such as Object.prototype.constructor). */
export function ownValue(obj: object, key: string): unknown {
  return Object.hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

/** True when reading `key` from a plain object could reach Object.prototype (`constructor`, `__proto__`, ...). */
export function isPrototypeKey(key: string): boolean {
  return key in Object.prototype;
}

/** Sets `obj[key] = value` as an own enumerable property, also for `__proto__`. */
export function setOwn(obj: object, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else (obj as Record<string, unknown>)[key] = value;
}
