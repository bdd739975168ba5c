/**
 * Views: named plans (SQL `CREATE VIEW`, `CACHE TABLE name AS query`, and
 * `env.registerTable(name, derivedTable)`). A view is stored as the plan it
 * was defined with, and every use re-resolves it against the catalog as it
 * is now (as DuckDB, PostgreSQL and Spark rebind a view): each Scan of a
 * named table moves to that table's current version, so an INSERT or a
 * replacement is seen; a table that was dropped makes the view fail with an
 * error naming both, so no old data stays reachable through it. Scans of
 * information_schema move to the catalog's current state the same way.
 */
import { ValidationError } from '../relnode/errors.js';
import * as rel from '../relnode/rel.js';
import type { Catalog } from './catalog.js';

export interface ViewDef {
  readonly name: string;
  readonly plan: rel.RelNode;
  /** `CREATE VIEW name AS query` as the user wrote it, for views defined in SQL (the shell's .schema prints it). */
  readonly sql?: string;
}

/** The views of one environment (names compare case-insensitively). */
export class Views {
  private readonly defs = new Map<string, ViewDef>();
  private changes = 0;

  /** Counts definitions and removals (prepared statements re-bind when it moved). */
  get generation(): number {
    return this.changes;
  }

  /** Defines (or replaces) a view. */
  set(name: string, plan: rel.RelNode, sql?: string): void {
    this.defs.set(name.toLowerCase(), { name, plan, ...(sql !== undefined ? { sql } : {}) });
    this.changes++;
  }

  /** The SQL a view was defined with, or undefined (no such view, or defined with the Table API). */
  sql(name: string): string | undefined {
    return this.defs.get(name.toLowerCase())?.sql;
  }

  /** Removes a view; false when none had that name. */
  delete(name: string): boolean {
    const had = this.defs.delete(name.toLowerCase());
    if (had) this.changes++;
    return had;
  }

  has(name: string): boolean {
    return this.defs.has(name.toLowerCase());
  }

  /** View names, as defined (`MyView`; lookups are case-insensitive). */
  names(): string[] {
    return [...this.defs.values()].map((d) => d.name);
  }

  /** Every view's definition (name as defined, plan, SQL text if any). */
  definitions(): readonly ViewDef[] {
    return [...this.defs.values()];
  }

  clear(): void {
    this.defs.clear();
  }

  /**
   * The view's plan over the catalog's current tables; undefined when no view has the name.
   * `current` gives the scan of information_schema as it is now for a scan of an older snapshot
   * (src/api/information-schema.ts), undefined for other scans.
   */
  resolve(name: string, catalog: Catalog, current: (scan: rel.Scan) => rel.Scan | undefined = () => undefined): rel.RelNode | undefined {
    const def = this.defs.get(name.toLowerCase());
    if (def === undefined) return undefined;
    return rel.transformUp(def.plan, (n) => {
      if (n.kind !== 'Scan') return n;
      const now = current(n);
      if (now !== undefined) return now.table.version === n.table.version ? n : rel.scan(now.table, n.projection, n.pushedFilters);
      if (!n.table.id.startsWith('table:')) return n;
      if (!catalog.has(n.table.name)) {
        throw new ValidationError(`view "${def.name}" cannot be read: it depends on table "${n.table.name}", which does not exist any more (dropped after the view was created); re-create "${n.table.name}", or drop or replace the view`);
      }
      const cur = catalog.get(n.table.name).ref;
      if (cur.version === n.table.version) return n;
      const a = n.table.schema.fields;
      const b = cur.schema.fields;
      if (a.length !== b.length || a.some((f, i) => f.name !== b[i]!.name || f.type !== b[i]!.type)) {
        throw new ValidationError(`view "${def.name}" is out of date: the columns of table "${n.table.name}" changed since the view was created; recreate the view (CREATE OR REPLACE VIEW)`);
      }
      return rel.scan(cur, n.projection, n.pushedFilters);
    });
  }
}
