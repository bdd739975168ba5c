/**
 * The environment as the SQL binder's catalog (src/sql/catalog.ts): tables
 * and views by name (views re-resolved at every use, views.ts), session
 * settings, information_schema (information-schema.ts), and the files table functions read. SQL sits below the API; this
 * adapter is the one place the two meet.
 */
import type { RelNode } from '../relnode/rel.js';
import type { SqlCatalog, TableFunctionSpec } from '../sql/catalog.js';
import type { TableEnvironment } from './environment.js';
import type { InformationSchema } from './information-schema.js';

/** A SqlCatalog over an environment. */
export function sqlCatalogOf(env: TableEnvironment, informationSchema: InformationSchema): SqlCatalog {
  return {
    informationSchema: (view: string): RelNode => informationSchema.scan(view),
    relation: (name: string): RelNode | undefined => (env.hasTable(name) ? env.from(name).plan : undefined),
    relationNames: () => env.listTables(),
    setting: (name: string) => env.settings.get(name.toLowerCase()),
    openTableFunction: async (spec: TableFunctionSpec): Promise<RelNode> => {
      switch (spec.kind) {
        case 'csv': return (await env.fromCsv(spec.path, spec.options)).plan;
        case 'parquet': return (await env.fromParquet(spec.path)).plan;
        case 'arrow': return (await env.fromArrowFile(spec.path)).plan;
        case 'json': return (await env.fromJson(spec.path)).plan;
      }
    },
  };
}
