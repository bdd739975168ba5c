/**
 * Grammar of DuckDB's PIVOT and UNPIVOT, below the FROM and query rules (parser-from.ts, parser-query.ts), which use them in two places:
 *
 * - the simplified statements as a query body: `PIVOT t [ON col [IN (v, ...)], ...] [USING agg [AS name], ...]
 *   [GROUP BY col, ...]` and `UNPIVOT t ON col [AS name], ... [INTO NAME n VALUE v, ...]`;
 * - the SQL-standard forms as a suffix of a FROM item: `t PIVOT (agg [AS name], ... FOR col IN (v, ...) ...
 *   [GROUP BY col, ...])` and `t UNPIVOT [INCLUDE | EXCLUDE NULLS] (v FOR n IN (col [AS 'name'], ...))`.
 *
 * PIVOT and UNPIVOT are non-reserved keywords (lexer.ts); NAME, VALUE, INCLUDE and EXCLUDE stay identifiers
 * that cst-pivot.ts checks. An ON / FOR item is an `||`-level expression (`arith`), so its IN list is the
 * pivot's, not an IN predicate. cst-pivot.ts builds the AST; binder/pivot.ts and binder/unpivot.ts plan it.
 */
import type { CstNode, ParserMethod } from 'chevrotain';
import { Comma, Ident, Kw, Label, LParen, RParen, StringLit } from './lexer.js';
import { SelectPartsParser } from './parser-select-parts.js';

/** PIVOT / UNPIVOT rules over the expression and select-part rules. */
export abstract class PivotParser extends SelectPartsParser {
  /** A FROM item (table, subquery, table function, parenthesised join), defined in parser-from.ts. */
  abstract readonly tableRef: ParserMethod<[], CstNode>;

  /** True when LA(1).. starts a PIVOT / UNPIVOT suffix of a FROM item (so the word is not read as an alias). */
  protected pivotSuffixAhead(): boolean {
    const t = this.LA(1).tokenType;
    if (t === Kw.PIVOT || t === Kw.PIVOT_WIDER) return this.LA(2).tokenType === LParen;
    if (t !== Kw.UNPIVOT && t !== Kw.PIVOT_LONGER) return false;
    return this.LA(2).tokenType === LParen || (/^(include|exclude)$/i.test(this.LA(2).image) && this.LA(3).tokenType === Kw.NULLS);
  }

  /** `PIVOT source [ON item, ...] [USING agg [AS name], ...] [GROUP BY name, ...]` (DuckDB's simplified PIVOT). */
  readonly pivotQuery = this.RULE('pivotQuery', () => {
    this.OR([{ ALT: () => this.CONSUME(Kw.PIVOT, { LABEL: 'word' }) }, { ALT: () => this.CONSUME(Kw.PIVOT_WIDER, { LABEL: 'word' }) }]);
    this.SUBRULE(this.tableRef, { LABEL: 'source' });
    this.OPTION(() => {
      this.CONSUME(Kw.ON);
      this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.pivotOn, { LABEL: 'on' }) });
    });
    this.OPTION2(() => {
      this.CONSUME(Kw.USING);
      this.AT_LEAST_ONE_SEP2({ SEP: Comma, DEF: () => this.SUBRULE(this.pivotAggregate, { LABEL: 'using' }) });
    });
    this.OPTION3(() => this.SUBRULE(this.pivotGroupBy, { LABEL: 'groupBy' }));
  });

  /** `expr [IN (value [AS name], ...)]`: one pivoted expression and, optionally, the values that become columns. */
  readonly pivotOn = this.RULE('pivotOn', () => {
    this.SUBRULE(this.arith, { LABEL: 'expr' });
    this.OPTION(() => {
      this.CONSUME(Kw.IN);
      this.CONSUME(LParen);
      this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.pivotValue, { LABEL: 'values' }) });
      this.CONSUME(RParen, { LABEL: 'close' });
    });
  });

  /** `value [AS name]` in a pivot's IN list. */
  readonly pivotValue = this.RULE('pivotValue', () => {
    this.SUBRULE(this.arith, { LABEL: 'value' });
    this.OPTION(() => this.SUBRULE(this.pivotAlias, { LABEL: 'alias' }));
  });

  /** `agg(...) [[AS] name]`: one aggregate of USING (or of the standard form's list, where FOR is never a name). */
  readonly pivotAggregate = this.RULE('pivotAggregate', () => {
    this.SUBRULE(this.expression, { LABEL: 'expr' });
    this.OPTION({
      GATE: () => this.LA(1).tokenType !== Kw.FOR,
      DEF: () => this.OR([
        { ALT: () => this.SUBRULE(this.pivotAlias, { LABEL: 'alias' }) },
        { ALT: () => this.CONSUME(Ident, { LABEL: 'bareAlias' }) },
      ]),
    });
  });

  /** `AS name` or `AS 'name'`. */
  readonly pivotAlias = this.RULE('pivotAlias', () => {
    this.CONSUME(Kw.AS);
    this.OR([{ ALT: () => this.CONSUME(Label, { LABEL: 'name' }) }, { ALT: () => this.CONSUME(StringLit, { LABEL: 'name' }) }]);
  });

  /** `GROUP BY name, ...` of a pivot (column names only, as in DuckDB). */
  readonly pivotGroupBy = this.RULE('pivotGroupBy', () => {
    this.CONSUME(Kw.GROUP);
    this.CONSUME(Kw.BY);
    this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.CONSUME(Ident, { LABEL: 'names' }) });
  });

  /** `UNPIVOT source ON item, ... [INTO NAME n VALUE v, ...]` (DuckDB's simplified UNPIVOT). */
  readonly unpivotQuery = this.RULE('unpivotQuery', () => {
    this.OR([{ ALT: () => this.CONSUME(Kw.UNPIVOT, { LABEL: 'word' }) }, { ALT: () => this.CONSUME(Kw.PIVOT_LONGER, { LABEL: 'word' }) }]);
    this.SUBRULE(this.tableRef, { LABEL: 'source' });
    this.CONSUME(Kw.ON);
    this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.unpivotItem, { LABEL: 'on' }) });
    this.OPTION(() => {
      this.CONSUME(Kw.INTO, { LABEL: 'into' });
      this.CONSUME(Ident, { LABEL: 'nameWord' });
      this.CONSUME2(Ident, { LABEL: 'name' });
      this.CONSUME3(Ident, { LABEL: 'valueWord' });
      this.AT_LEAST_ONE_SEP2({ SEP: Comma, DEF: () => this.CONSUME4(Ident, { LABEL: 'values' }) });
    });
  });

  /** `col [AS name]`, or `(col, col) [AS name]` when several value columns are stacked at once. */
  readonly unpivotItem = this.RULE('unpivotItem', () => {
    this.OR([
      {
        // `(a, b)` is a group of columns; a parenthesised single expression is a group of one.
        IGNORE_AMBIGUITIES: true,
        ALT: () => {
          this.CONSUME(LParen, { LABEL: 'open' });
          this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.expression, { LABEL: 'exprs' }) });
          this.CONSUME(RParen);
        },
      },
      { ALT: () => this.SUBRULE2(this.arith, { LABEL: 'exprs' }) },
    ]);
    this.OPTION(() => this.SUBRULE(this.pivotAlias, { LABEL: 'alias' }));
  });

  /**
   * A FROM item's standard-form suffix: `PIVOT (agg [AS name], ... FOR item ... [GROUP BY name, ...])` or
   * `UNPIVOT [INCLUDE | EXCLUDE NULLS] (value | (value, ...) FOR name IN (item, ...))`, then an optional alias.
   */
  readonly pivotSuffix = this.RULE('pivotSuffix', () => {
    this.OR([
      {
        ALT: () => {
          this.OR2([{ ALT: () => this.CONSUME(Kw.PIVOT, { LABEL: 'pivot' }) }, { ALT: () => this.CONSUME(Kw.PIVOT_WIDER, { LABEL: 'pivot' }) }]);
          this.CONSUME(LParen);
          this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.pivotAggregate, { LABEL: 'using' }) });
          this.CONSUME(Kw.FOR);
          this.AT_LEAST_ONE(() => this.SUBRULE(this.pivotOn, { LABEL: 'on' }));
          this.OPTION(() => this.SUBRULE(this.pivotGroupBy, { LABEL: 'groupBy' }));
          this.CONSUME(RParen, { LABEL: 'close' });
        },
      },
      {
        ALT: () => {
          this.OR3([{ ALT: () => this.CONSUME(Kw.UNPIVOT, { LABEL: 'unpivot' }) }, { ALT: () => this.CONSUME(Kw.PIVOT_LONGER, { LABEL: 'unpivot' }) }]);
          this.OPTION2(() => {
            this.CONSUME(Ident, { LABEL: 'nulls' });
            this.CONSUME(Kw.NULLS);
          });
          this.CONSUME2(LParen);
          this.OR4([
            {
              ALT: () => {
                this.CONSUME3(LParen);
                this.AT_LEAST_ONE_SEP2({ SEP: Comma, DEF: () => this.CONSUME2(Ident, { LABEL: 'values' }) });
                this.CONSUME3(RParen);
              },
            },
            { ALT: () => this.CONSUME3(Ident, { LABEL: 'values' }) },
          ]);
          this.CONSUME2(Kw.FOR);
          this.CONSUME4(Ident, { LABEL: 'name' });
          this.CONSUME(Kw.IN);
          this.CONSUME4(LParen);
          this.AT_LEAST_ONE_SEP3({ SEP: Comma, DEF: () => this.SUBRULE(this.unpivotItem, { LABEL: 'items' }) });
          this.CONSUME4(RParen);
          this.CONSUME5(RParen, { LABEL: 'close' });
        },
      },
    ]);
    this.OPTION3({
      GATE: () => !this.pivotSuffixAhead(),
      DEF: () => this.OR5([
        { ALT: () => { this.CONSUME(Kw.AS); this.CONSUME(Label, { LABEL: 'alias' }); } },
        { ALT: () => this.CONSUME5(Ident, { LABEL: 'alias' }) },
      ]),
    });
  });

}
