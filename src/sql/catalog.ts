/**
 * The catalog the SQL binder binds against. SQL sits below the API
 * (DESIGN.md "Layers"): the binder turns text into RelNode trees and asks
 * this small interface — implemented by the API's TableEnvironment — for
 * what a name means, for the session settings, and for the table functions
 * the statement runner opened ahead of time. src/sql imports nothing from
 * src/api.
 */
import type { Schema } from '../relnode/types.js';
import type { RelNode } from '../relnode/rel.js';

/** A file read by a table function in FROM (`read_csv('x.csv', header = true)`), validated by the binder. */
export type TableFunctionSpec =
  | { readonly kind: 'csv'; readonly path: string; readonly options: { header?: boolean; delimiter?: string; quote?: string; nullValue?: string; skip?: number; ignoreErrors?: boolean; schema?: Schema | Record<string, string> } }
  | { readonly kind: 'parquet' | 'arrow' | 'json'; readonly path: string };

/** What the binder needs from the environment. */
export interface SqlCatalog {
  /**
   * The current plan of a table or view (views re-resolved against the tables as they are now),
   * or undefined when no table or view has that name. Throws when a view cannot be used (a table
   * it reads was dropped).
   */
  relation(name: string): RelNode | undefined;
  /** Names of every table and view (for "did you mean" hints). */
  relationNames(): readonly string[];
  /** A session setting (`SET name = value`), undefined when not set. */
  setting(name: string): string | number | boolean | undefined;
  /**
   * A scan of the information_schema view `view` (`tables`, `columns`, ... : information-schema.ts)
   * over the tables and views as they are now. The same catalog state gives the same scan (same
   * table version, so equal digests), a changed one a new version. Absent: no information_schema.
   */
  informationSchema?(view: string): RelNode;
  /** Opens a table function's file (asynchronous: the statement runner calls it before binding). */
  openTableFunction?(spec: TableFunctionSpec): Promise<RelNode>;
}
