/**
 * information_schema over an environment's catalog: the views' columns and
 * rows are defined in src/sql/information-schema.ts; this file takes the
 * snapshot they are computed from and makes it a table scan.
 *
 * Why a scan with a version per catalog state (and not a VALUES node, or a
 * scan that reads the catalog when it runs): the rows are computed when the
 * query is bound, together with the versions of the tables the same query
 * reads, so one query sees one catalog state. The snapshot is a table of its
 * own with a fresh version from the catalog's counter, kept while the
 * catalog and the views do not change: two queries over the same state share
 * digests (a cached result over information_schema is reused), and any
 * registration, replacement, drop or view change gives a new version, so a
 * cached result over an old state never answers a query over a new one.
 * EXPLAIN shows `information_schema.tables`, not hundreds of literal rows.
 * A view over information_schema is not frozen at its definition: like the
 * tables it reads, views.ts moves its snapshot scans to the current state at
 * every use (snapshotView).
 */
import { batchFromRows } from '../exec/operators/values.js';
import { memorySource } from '../io/memory.js';
import * as rel from '../relnode/rel.js';
import { informationSchemaRows, informationSchemaSchema, INFORMATION_SCHEMA, parseTableName, type CatalogRelation } from '../sql/information-schema.js';
import type { Catalog } from './catalog.js';
import type { Views } from './views.js';

/** The id prefix of snapshot tables (`information_schema:tables`); their versions come from the catalog's counter. */
const SNAPSHOT_ID = 'information_schema:';

/** The information_schema view a scan reads (a snapshot of an older catalog state too), or undefined. */
export function snapshotView(scan: rel.Scan): string | undefined {
  return scan.table.id.startsWith(SNAPSHOT_ID) ? scan.table.id.slice(SNAPSHOT_ID.length) : undefined;
}

/** The information_schema scans of one environment, cached for the current catalog state. */
export class InformationSchema {
  private state: string | undefined;
  private readonly scans = new Map<string, rel.Scan>();
  /** Snapshot ids some query read since the last change (their cache entries go at the next change). */
  private readonly used = new Set<string>();

  /** `release(id)` drops the cache entries and marks built on snapshot table `id`. */
  constructor(private readonly catalog: Catalog, private readonly views: Views, private readonly release: (id: string) => void) {}

  /**
   * Called after any change of the tables or views: cache entries over the old snapshots can never
   * answer again, so they are released now (not left to eviction). True when there were any (the
   * caller marks named caches again). Free when information_schema was not read.
   */
  changed(): boolean {
    if (this.used.size === 0) return false;
    for (const id of this.used) this.release(id);
    this.used.clear();
    return true;
  }

  /** The scan of `information_schema.v` (also `system.information_schema.v`) as the catalog is now; undefined for other names. */
  named(name: string): rel.Scan | undefined {
    const parsed = parseTableName(name);
    return parsed.schema === 'information_schema' ? this.scan(parsed.view) : undefined;
  }

  /** For a scan of an information_schema snapshot (of any state), the scan of the current state; undefined for other scans. */
  currentOf(scan: rel.Scan): rel.Scan | undefined {
    const view = snapshotView(scan);
    return view === undefined ? undefined : this.scan(view);
  }

  /** A scan of view `view` (`tables`, `columns`, ...) over the tables and views as they are now. */
  scan(view: string): rel.Scan {
    const state = `${this.catalog.generation}.${this.views.generation}`;
    if (state !== this.state) {
      this.scans.clear();
      this.state = state;
    }
    const key = view.toLowerCase();
    let s = this.scans.get(key);
    if (s === undefined) {
      const schema = informationSchemaSchema(key);
      const rows = informationSchemaRows(key, this.relations());
      const name = `${INFORMATION_SCHEMA}.${key}`;
      const ref = this.catalog.anonymousRef(name, memorySource([batchFromRows(rows, schema)], name, schema));
      s = rel.scan({ ...ref, id: `${SNAPSHOT_ID}${key}` });
      this.scans.set(key, s);
      this.used.add(s.table.id);
    }
    return s;
  }

  /** Every table and view, sorted by name (as SHOW TABLES lists them). */
  private relations(): CatalogRelation[] {
    const tables = this.catalog.names().map((n): CatalogRelation => {
      const ref = this.catalog.get(n).ref;
      return { name: ref.name, kind: 'table', fields: ref.schema.fields };
    });
    const views = this.views.definitions().map((d): CatalogRelation => ({ name: d.name, kind: 'view', fields: d.plan.schema.fields, ...(d.sql !== undefined ? { sql: d.sql } : {}) }));
    return [...tables, ...views].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}
