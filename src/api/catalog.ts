/**
 * The table catalog of an environment: names → versioned table references.
 * Every registration takes a fresh version from one counter, so a replaced
 * (or dropped and re-created) table never shares a digest with its old data.
 */
import { ValidationError } from '../relnode/errors.js';
import { nodeRexes, visit, type RelNode, type TableRef } from '../relnode/rel.js';
import { rexVisit } from '../relnode/rex.js';
import type { TableSource } from '../io/source.js';
import { closest } from '../sql/binder/suggest.js';

/** A catalog entry. */
export interface CatalogEntry {
  readonly ref: TableRef;
  readonly source: TableSource;
}

/** Registered tables (names compare case-insensitively, as in SQL). */
export class Catalog {
  private readonly tables = new Map<string, CatalogEntry>();
  private version = 0;
  private anonymous = 0;
  /** Versions of tables that were dropped (not replaced): Tables built on them fail instead of reading old data. */
  private readonly droppedVersions = new Set<number>();
  /** Called with a table's id (`table:orders`) after it was registered, replaced or dropped (the cache releases entries built on it). */
  onChange: ((tableId: string) => void) | undefined;

  private changes = 0;

  /** Counts registrations and drops (prepared statements re-bind when it moved). */
  get generation(): number {
    return this.changes;
  }

  /** Registers (or replaces) a named table; returns its new reference. */
  register(name: string, source: TableSource): TableRef {
    if (!/^[A-Za-z_][A-Za-z0-9_$]*$/.test(name)) throw new ValidationError(`invalid table name "${name}": use letters, digits and _ (not starting with a digit)`);
    const ref: TableRef = { id: `table:${name.toLowerCase()}`, name, version: ++this.version, schema: source.schema, handle: source };
    this.tables.set(name.toLowerCase(), { ref, source });
    this.changes++;
    this.onChange?.(ref.id);
    return ref;
  }

  /** A reference for an unregistered source (fromArrow, fromCsv, ...). */
  anonymousRef(label: string, source: TableSource): TableRef {
    const n = ++this.anonymous;
    return { id: `anon:${n}`, name: label, version: ++this.version, schema: source.schema, handle: source };
  }

  /** The current entry of a name, or a ValidationError naming the tables that exist. */
  get(name: string): CatalogEntry {
    const e = this.tables.get(name.toLowerCase());
    if (e) return e;
    const names = this.names();
    const hint = closest(name, names);
    throw new ValidationError(`table "${name}" not found${hint ? `; did you mean "${hint}"?` : ''} (tables: ${names.join(', ') || 'none registered'})`);
  }

  has(name: string): boolean {
    return this.tables.has(name.toLowerCase());
  }

  /** Removes a table; returns false if it did not exist. */
  drop(name: string): boolean {
    const e = this.tables.get(name.toLowerCase());
    if (e === undefined) return false;
    this.tables.delete(name.toLowerCase());
    this.droppedVersions.add(e.ref.version);
    this.changes++;
    this.onChange?.(e.ref.id);
    return true;
  }

  /**
   * Throws when `plan` scans a table version that was dropped: a Table built
   * before `DROP TABLE` fails like the SQL name would, instead of reading the
   * dropped data (a replaced table's old Tables keep their version, docs/caching.md).
   */
  checkNotDropped(plan: RelNode): void {
    if (this.droppedVersions.size === 0) return; // nothing dropped yet: no walk (it was ~3% of a 10-row query)
    const walk = (root: RelNode): void => visit(root, (n) => {
      if (n.kind === 'Scan' && this.droppedVersions.has(n.table.version)) {
        const now = this.has(n.table.name) ? `; "${n.table.name}" was created again since: build the Table again from it` : '';
        throw new ValidationError(`table "${n.table.name}" was dropped (DROP TABLE) after this Table was built from it${now}`);
      }
      for (const e of nodeRexes(n)) rexVisit(e, (x) => { if (x.kind === 'Subquery') walk(x.rel); });
    });
    walk(plan);
  }

  /** Registered names, sorted. */
  names(): string[] {
    return [...this.tables.values()].map((e) => e.ref.name).sort();
  }

  clear(): void {
    this.tables.clear();
  }
}
