/**
 * chevrotain 13 targets Node 22 and calls `Object.groupBy` (ES2024) while it
 * validates a grammar; Node 20 lacks it. This installs the standard
 * behaviour when missing, before the parser is built. Remove it once the
 * project requires Node 22.
 */
type GroupBy = <T>(items: Iterable<T>, key: (item: T, index: number) => PropertyKey) => Partial<Record<PropertyKey, T[]>>;

const objectWithGroupBy = Object as unknown as { groupBy?: GroupBy };
if (typeof objectWithGroupBy.groupBy !== 'function') {
  Object.defineProperty(Object, 'groupBy', {
    configurable: true,
    writable: true,
    value: <T>(items: Iterable<T>, key: (item: T, index: number) => PropertyKey) => {
      const groups: Partial<Record<PropertyKey, T[]>> = Object.create(null);
      let i = 0;
      for (const item of items) (groups[key(item, i++)] ??= []).push(item);
      return groups;
    },
  });
}

/** Marker export so importers can name what they rely on. */
export const chevrotainCompat = true;
