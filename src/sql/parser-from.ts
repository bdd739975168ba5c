/**
 * The FROM half of the query grammar (chevrotain rules as class properties): FROM items, joins, table
 * references (tables, subqueries, table functions, files, parenthesised joins) with their aliases, samples and
 * PIVOT / UNPIVOT suffixes, and the name lists they use. parser-query.ts builds SELECT on top of them.
 */
import { Comma, Dot, Ident, Kw, Label, LParen, RParen, StringLit } from './lexer.js';
import { PivotParser } from './parser-pivot.js';

/** FROM-clause rules over the PIVOT / UNPIVOT rules. */
export abstract class FromParser extends PivotParser {
  /** A table reference followed by any number of joins. */
  readonly fromItem = this.RULE('fromItem', () => {
    this.SUBRULE(this.tableRef, { LABEL: 'first' });
    this.MANY(() => this.SUBRULE(this.joinPart, { LABEL: 'joins' }));
  });

  readonly joinPart = this.RULE('joinPart', () => {
    this.OR([
      {
        ALT: () => {
          this.CONSUME(Kw.CROSS, { LABEL: 'cross' });
          this.CONSUME(Kw.JOIN);
          this.SUBRULE(this.tableRef, { LABEL: 'right' });
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.NATURAL, { LABEL: 'natural' });
          this.OPTION(() => this.SUBRULE(this.joinType, { LABEL: 'type' }));
          this.CONSUME2(Kw.JOIN);
          this.SUBRULE2(this.tableRef, { LABEL: 'right' });
        },
      },
      {
        ALT: () => {
          this.OPTION2(() => this.SUBRULE2(this.joinType, { LABEL: 'type' }));
          this.CONSUME3(Kw.JOIN);
          this.SUBRULE3(this.tableRef, { LABEL: 'right' });
          // Without ON/USING (DataFusion): an inner join is a cross join, an outer one joins ON TRUE.
          this.OPTION3(() => {
            this.OR2([
              { ALT: () => { this.CONSUME(Kw.ON); this.SUBRULE(this.expression, { LABEL: 'on' }); } },
              { ALT: () => { this.CONSUME(Kw.USING); this.SUBRULE(this.nameList, { LABEL: 'using' }); } },
            ]);
          });
        },
      },
    ]);
  });

  readonly joinType = this.RULE('joinType', () => {
    this.OR([
      { ALT: () => this.CONSUME(Kw.INNER, { LABEL: 'kind' }) },
      {
        ALT: () => {
          this.OR2([
            { ALT: () => this.CONSUME(Kw.LEFT, { LABEL: 'kind' }) },
            { ALT: () => this.CONSUME(Kw.RIGHT, { LABEL: 'kind' }) },
            { ALT: () => this.CONSUME(Kw.FULL, { LABEL: 'kind' }) },
          ]);
          this.OPTION(() => this.CONSUME(Kw.OUTER));
        },
      },
    ]);
  });

  /**
   * A table, `(query)`, a table function, or a parenthesised join tree; each but the last with an optional alias.
   * `LATERAL` may precede any of them; cst-to-ast.ts accepts it only before a subquery or a table function.
   */
  readonly tableRef = this.RULE('tableRef', () => {
    this.OPTION6(() => this.CONSUME(Kw.LATERAL, { LABEL: 'lateral' }));
    this.OR([
      {
        GATE: () => this.queryAhead(2, true),
        IGNORE_AMBIGUITIES: true,
        ALT: () => {
          this.CONSUME(LParen, { LABEL: 'open' });
          this.SUBRULE(this.query, { LABEL: 'query' });
          this.CONSUME(RParen, { LABEL: 'close' });
          this.OPTION({ GATE: () => !this.pivotSuffixAhead(), DEF: () => this.SUBRULE(this.tableAlias, { LABEL: 'alias' }) });
        },
      },
      {
        ALT: () => {
          this.CONSUME2(LParen, { LABEL: 'open' });
          this.SUBRULE(this.fromItem, { LABEL: 'nested' });
          this.CONSUME2(RParen, { LABEL: 'close' });
          this.OPTION4({ GATE: () => !this.pivotSuffixAhead(), DEF: () => this.SUBRULE4(this.tableAlias, { LABEL: 'alias' }) });
        },
      },
      {
        ALT: () => {
          this.CONSUME(Ident, { LABEL: 'fn' });
          this.CONSUME3(LParen);
          this.MANY_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.namedArg, { LABEL: 'args' }) });
          this.CONSUME3(RParen, { LABEL: 'close' });
          this.OPTION2({ GATE: () => !this.pivotSuffixAhead(), DEF: () => this.SUBRULE2(this.tableAlias, { LABEL: 'alias' }) });
        },
      },
      {
        ALT: () => {
          this.SUBRULE(this.qualifiedName, { LABEL: 'table' });
          this.OPTION3({ GATE: () => !this.pivotSuffixAhead(), DEF: () => this.SUBRULE3(this.tableAlias, { LABEL: 'alias' }) });
        },
      },
      {
        // DuckDB's `FROM 'data.parquet'`: a file (or glob) read by the table function its extension names.
        ALT: () => {
          this.CONSUME(StringLit, { LABEL: 'path' });
          this.OPTION5({ GATE: () => !this.pivotSuffixAhead(), DEF: () => this.SUBRULE5(this.tableAlias, { LABEL: 'alias' }) });
        },
      },
    ]);
    // `t TABLESAMPLE 10%`: a sample of this item alone, before joins (cst-sample.ts).
    this.OPTION7(() => { this.CONSUME(Kw.TABLESAMPLE); this.SUBRULE(this.sampleBody, { LABEL: 'sample' }); });
    // `t PIVOT (...)` / `t UNPIVOT (...)`: the SQL-standard forms, applied left to right (cst-pivot.ts).
    this.MANY({ GATE: () => this.pivotSuffixAhead(), DEF: () => this.SUBRULE(this.pivotSuffix, { LABEL: 'pivots' }) });
  });

  /** `[AS] alias [(col, ...)]`. */
  readonly tableAlias = this.RULE('tableAlias', () => {
    this.OR([
      { ALT: () => { this.CONSUME(Kw.AS); this.CONSUME(Label, { LABEL: 'name' }); } },
      { ALT: () => this.CONSUME(Ident, { LABEL: 'name' }) },
    ]);
    this.OPTION(() => this.SUBRULE(this.nameList, { LABEL: 'columns' }));
  });

  /** `(a, b, c)`. */
  readonly nameList = this.RULE('nameList', () => {
    this.CONSUME(LParen);
    this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.CONSUME(Ident, { LABEL: 'names' }) });
    this.CONSUME(RParen, { LABEL: 'close' });
  });

  /** `name` or `schema.name`. */
  readonly qualifiedName = this.RULE('qualifiedName', () => {
    this.CONSUME(Ident, { LABEL: 'parts' });
    this.MANY(() => { this.CONSUME(Dot); this.CONSUME(Label, { LABEL: 'parts' }); });
  });
}
