/**
 * The query half of the SQL grammar (chevrotain CstParser rules as class
 * properties): WITH, set operations (INTERSECT binds tighter than UNION and
 * EXCEPT), SELECT (and DuckDB's FROM-first form), VALUES, ORDER BY, LIMIT/OFFSET.
 * FROM items and joins are parser-from.ts's.
 * Statements are added by parser.ts, which builds the one parser instance.
 */
import { FromParser } from './parser-from.js';
import { Comma, Dot, Ident, Kw, Label, LParen, NumberLit, RParen, Star, StringLit } from './lexer.js';

/** Query rules over the expression rules. */
export abstract class QueryParser extends FromParser {
  // ------------------------------------------------------------------ queries

  /** `[WITH ...] set-expression [ORDER BY ...] [LIMIT ...] [OFFSET ...]`. */
  readonly query = this.RULE('query', (): void => {
    this.OPTION(() => this.SUBRULE(this.withClause, { LABEL: 'with' }));
    this.SUBRULE(this.setExpression, { LABEL: 'body' });
    this.OPTION2(() => {
      this.CONSUME(Kw.ORDER);
      this.CONSUME(Kw.BY);
      this.OR2([
        // DuckDB's ORDER BY ALL: every output column, left to right.
        { ALT: () => { this.CONSUME(Kw.ALL, { LABEL: 'orderAll' }); this.SUBRULE(this.orderDirection, { LABEL: 'allDirection' }); } },
        { ALT: () => this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.orderItem, { LABEL: 'orderBy' }) }) },
      ]);
    });
    this.OPTION3(() => {
      this.OR([
        {
          ALT: () => {
            this.CONSUME(Kw.LIMIT);
            this.SUBRULE(this.expression, { LABEL: 'limit' });
            this.OPTION4(() => { this.CONSUME(Kw.OFFSET); this.SUBRULE2(this.expression, { LABEL: 'offset' }); });
          },
        },
        {
          ALT: () => {
            this.CONSUME2(Kw.OFFSET);
            this.SUBRULE3(this.expression, { LABEL: 'offset' });
            this.OPTION5(() => { this.CONSUME2(Kw.LIMIT); this.SUBRULE4(this.expression, { LABEL: 'limit' }); });
          },
        },
      ]);
    });
  });

  /** `WITH [RECURSIVE [(RETURN | ERROR) AT RECURSION LIMIT n]] cte, ...`. */
  readonly withClause = this.RULE('withClause', () => {
    this.CONSUME(Kw.WITH);
    this.OPTION(() => {
      this.CONSUME(Kw.RECURSIVE, { LABEL: 'recursive' });
      this.OPTION2(() => this.SUBRULE(this.recursionLimit, { LABEL: 'limit' }));
    });
    this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.cte, { LABEL: 'ctes' }) });
  });

  /**
   * Materialize's `((RETURN | ERROR) AT RECURSION LIMIT n)`. The words are plain names, not
   * keywords (no new reserved words): cst-to-ast.ts checks that they spell the clause.
   */
  readonly recursionLimit = this.RULE('recursionLimit', () => {
    this.CONSUME(LParen);
    this.CONSUME(Ident, { LABEL: 'action' });
    this.CONSUME2(Ident, { LABEL: 'at' });
    this.CONSUME3(Ident, { LABEL: 'recursion' });
    this.CONSUME(Kw.LIMIT);
    this.CONSUME(NumberLit, { LABEL: 'rounds' });
    this.CONSUME(RParen, { LABEL: 'close' });
  });

  /** `name [(cols)] [USING KEY (cols)] AS [[NOT] MATERIALIZED] (query)`. */
  readonly cte = this.RULE('cte', () => {
    this.CONSUME(Ident, { LABEL: 'name' });
    this.OPTION(() => this.SUBRULE(this.nameList, { LABEL: 'columns' }));
    this.OPTION4(() => {
      this.CONSUME(Kw.USING, { LABEL: 'using' });
      this.CONSUME(Kw.KEY);
      this.SUBRULE2(this.nameList, { LABEL: 'key' });
    });
    this.CONSUME(Kw.AS);
    this.OPTION2(() => {
      this.OPTION3(() => this.CONSUME(Kw.NOT));
      this.CONSUME(Kw.MATERIALIZED);
    });
    this.CONSUME(LParen);
    this.SUBRULE(this.query, { LABEL: 'query' });
    this.CONSUME(RParen, { LABEL: 'close' });
  });

  /** UNION and EXCEPT over INTERSECT terms, left-associative. */
  readonly setExpression = this.RULE('setExpression', () => {
    this.SUBRULE(this.intersectTerm, { LABEL: 'operands' });
    this.MANY(() => {
      this.OR([{ ALT: () => this.CONSUME(Kw.UNION, { LABEL: 'ops' }) }, { ALT: () => this.CONSUME(Kw.EXCEPT, { LABEL: 'ops' }) }]);
      this.SUBRULE(this.setQuantifier, { LABEL: 'quantifiers' });
      this.SUBRULE2(this.intersectTerm, { LABEL: 'operands' });
    });
  });

  readonly intersectTerm = this.RULE('intersectTerm', () => {
    this.SUBRULE(this.queryPrimary, { LABEL: 'operands' });
    this.MANY(() => {
      this.CONSUME(Kw.INTERSECT, { LABEL: 'ops' });
      this.SUBRULE(this.setQuantifier, { LABEL: 'quantifiers' });
      this.SUBRULE2(this.queryPrimary, { LABEL: 'operands' });
    });
  });

  /** Optional ALL / DISTINCT after a set operator (an empty node when absent). */
  readonly setQuantifier = this.RULE('setQuantifier', () => {
    this.OPTION(() => {
      this.OR([{ ALT: () => this.CONSUME(Kw.ALL, { LABEL: 'all' }) }, { ALT: () => this.CONSUME(Kw.DISTINCT) }]);
    });
  });

  readonly queryPrimary = this.RULE('queryPrimary', () => {
    this.OR([
      { ALT: () => this.SUBRULE(this.selectCore, { LABEL: 'select' }) },
      { ALT: () => this.SUBRULE(this.valuesClause, { LABEL: 'values' }) },
      // `TABLE t` is `SELECT * FROM t`.
      { ALT: () => { this.CONSUME(Kw.TABLE); this.SUBRULE(this.qualifiedName, { LABEL: 'table' }); } },
      // DuckDB's simplified PIVOT / UNPIVOT statements (parser-pivot.ts), usable wherever a query is.
      { ALT: () => this.SUBRULE(this.pivotQuery, { LABEL: 'pivot' }) },
      { ALT: () => this.SUBRULE(this.unpivotQuery, { LABEL: 'unpivot' }) },
      {
        // `(a, b)` is a set, never a parenthesized expression (which a one-item set equals anyway).
        IGNORE_AMBIGUITIES: true,
        ALT: () => {
          this.CONSUME(LParen, { LABEL: 'open' });
          this.SUBRULE(this.query, { LABEL: 'query' });
          this.CONSUME(RParen, { LABEL: 'close' });
        },
      },
    ]);
  });

  readonly valuesClause = this.RULE('valuesClause', () => {
    this.CONSUME(Kw.VALUES);
    this.SUBRULE(this.valuesRow, { LABEL: 'rows' });
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE2(this.valuesRow, { LABEL: 'rows' });
    });
    this.OPTION(() => this.CONSUME2(Comma)); // DuckDB accepts a trailing comma
  });

  readonly valuesRow = this.RULE('valuesRow', () => {
    this.CONSUME(LParen);
    this.SUBRULE(this.expressionList, { LABEL: 'items' });
    this.CONSUME(RParen);
  });

  /**
   * `SELECT list [FROM items]`, or DuckDB's FROM-first form `FROM items [SELECT list]` (no SELECT: `*`), then
   * the clauses both share. cst-to-ast.ts reads `head` and `from` the same whichever came first.
   */
  readonly selectCore = this.RULE('selectCore', () => {
    this.OR7([
      {
        ALT: () => {
          this.SUBRULE(this.selectHead, { LABEL: 'head' });
          this.OPTION2(() => {
            this.CONSUME(Kw.FROM);
            this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.fromItem, { LABEL: 'from' }) });
          });
        },
      },
      {
        ALT: () => {
          this.CONSUME2(Kw.FROM, { LABEL: 'fromFirst' });
          this.AT_LEAST_ONE_SEP2({ SEP: Comma, DEF: () => this.SUBRULE2(this.fromItem, { LABEL: 'from' }) });
          this.OPTION(() => this.SUBRULE2(this.selectHead, { LABEL: 'head' }));
        },
      },
    ]);
    this.OPTION3(() => { this.CONSUME(Kw.WHERE); this.SUBRULE(this.expression, { LABEL: 'where' }); });
    this.OPTION4(() => {
      this.CONSUME(Kw.GROUP);
      this.CONSUME(Kw.BY);
      // DuckDB's GROUP BY ALL: every select item without an aggregate.
      this.OR6([
        { ALT: () => this.CONSUME2(Kw.ALL, { LABEL: 'groupAll' }) },
        { ALT: () => this.SUBRULE(this.groupingList, { LABEL: 'groupBy' }) },
      ]);
    });
    this.OPTION5(() => { this.CONSUME(Kw.HAVING); this.SUBRULE2(this.expression, { LABEL: 'having' }); });
    this.OPTION6(() => this.SUBRULE(this.windowClause, { LABEL: 'windows' }));
    this.OPTION7(() => { this.CONSUME(Kw.QUALIFY); this.SUBRULE3(this.expression, { LABEL: 'qualify' }); });
    // DuckDB's place for USING SAMPLE: after QUALIFY, though it samples the FROM clause's rows (binder/sample.ts).
    this.OPTION9(() => this.SUBRULE(this.sampleClause, { LABEL: 'sample' }));
  });

  /** `SELECT [DISTINCT [ON (exprs)] | ALL] list`. */
  readonly selectHead = this.RULE('selectHead', () => {
    this.CONSUME(Kw.SELECT);
    this.OPTION(() => {
      this.OR([
        {
          ALT: () => {
            this.CONSUME(Kw.DISTINCT, { LABEL: 'distinct' });
            // DISTINCT ON (a, b): the first row of each (a, b) in ORDER BY order (binder/distinct-on.ts).
            this.OPTION8(() => {
              this.CONSUME(Kw.ON);
              this.CONSUME(LParen);
              this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.SUBRULE4(this.expression, { LABEL: 'distinctOn' }) });
              this.CONSUME(RParen);
            });
          },
        },
        { ALT: () => this.CONSUME(Kw.ALL) },
      ]);
    });
    this.SUBRULE(this.selectList, { LABEL: 'items' });
  });

  readonly selectList = this.RULE('selectList', () => {
    this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.selectItem, { LABEL: 'items' }) });
  });

  /** `*`, `t.*`, or `expr [[AS] alias]`. */
  readonly selectItem = this.RULE('selectItem', () => {
    // One token of lookahead and a gate for `t.*`: chevrotain's 3-token analysis of this OR (every expression's
    // first three tokens) cost ~150 ms of each process's first query.
    this.OR({ MAX_LOOKAHEAD: 1, DEF: [
      {
        ALT: () => {
          this.CONSUME(Star, { LABEL: 'star' });
          this.OPTION3(() => this.SUBRULE(this.starModifiers, { LABEL: 'modifiers' }));
        },
      },
      {
        GATE: () => this.LA(2).tokenType === Dot && this.LA(3).tokenType === Star,
        IGNORE_AMBIGUITIES: true,
        ALT: () => {
          this.CONSUME(Ident, { LABEL: 'qualifier' });
          this.CONSUME(Dot);
          this.CONSUME2(Star, { LABEL: 'star' });
          this.OPTION4(() => this.SUBRULE2(this.starModifiers, { LABEL: 'modifiers' }));
        },
      },
      {
        ALT: () => {
          this.SUBRULE(this.expression, { LABEL: 'expr' });
          this.OPTION(() => {
            this.OR2([
              {
                ALT: () => {
                  this.CONSUME(Kw.AS);
                  this.OR3([{ ALT: () => this.CONSUME(Label, { LABEL: 'alias' }) }, { ALT: () => this.CONSUME(StringLit, { LABEL: 'alias' }) }]);
                },
              },
              { ALT: () => this.CONSUME2(Ident, { LABEL: 'alias' }) },
            ]);
          });
        },
      },
    ] });
  });

  readonly orderItem = this.RULE('orderItem', () => {
    this.SUBRULE(this.expression, { LABEL: 'expr' });
    this.SUBRULE(this.orderDirection, { LABEL: 'direction' });
  });

  /** `[ASC | DESC] [NULLS FIRST | LAST]` (an empty node when absent). */
  readonly orderDirection = this.RULE('orderDirection', () => {
    this.OPTION(() => {
      this.OR([{ ALT: () => this.CONSUME(Kw.ASC) }, { ALT: () => this.CONSUME(Kw.DESC, { LABEL: 'desc' }) }]);
    });
    this.OPTION2(() => {
      this.CONSUME(Kw.NULLS);
      this.OR2([{ ALT: () => this.CONSUME(Kw.FIRST, { LABEL: 'nullsFirst' }) }, { ALT: () => this.CONSUME(Kw.LAST) }]);
    });
  });
}
