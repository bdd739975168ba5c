/**
 * The expression half of the SQL grammar (chevrotain CST rules as class
 * properties). Precedence, loosest first: OR < AND < NOT < comparison / IS /
 * BETWEEN / IN / LIKE < `||` < `+ -` < `* / %` < unary `- +` < `::` < primary.
 * AND/OR and the arithmetic operators are each one flat rule (fewer rule
 * calls per operand: parsing is ~2x faster); cst-expr.ts applies their
 * precedence when it builds the AST.
 * The query and statement rules live in parser.ts, which extends this class
 * and supplies the `query` rule used by subqueries.
 */
import { EOF, tokenMatcher, type CstNode, type ParserMethod } from 'chevrotain';
import {
  Comma, Concat, Dot, DoubleColon, Eq, Gt, GtEq, Ident, Kw, Label, LParen, Lt, LtEq, Minus, NotEq, NumberedParam, NumberLit, Percent, DoubleSlash, Caret, DoubleStar, Plus, QuestionMark, QuotedIdentifier, RParen, Slash, Star, StringLit,
} from './lexer.js';
import { ExprTermsParser } from './parser-expr-terms.js';

/** Expression rules shared by every SQL entry point. */
export abstract class ExprParser extends ExprTermsParser {
  /** A full query (WITH / set operations / ORDER BY / LIMIT), defined by the subclass. */
  abstract readonly query: ParserMethod<[], CstNode>;
  /** `expr [ASC | DESC] [NULLS FIRST | LAST]`, defined by the subclass. */
  abstract readonly orderItem: ParserMethod<[], CstNode>;
  /** `OVER (...)` / `OVER name` after a call, defined in parser-window.ts. */
  abstract readonly overClause: ParserMethod<[], CstNode>;

  /**
   * True when a query starts at LA(start): SELECT, WITH, VALUES, FROM (DuckDB's FROM-first query) or a PIVOT /
   * UNPIVOT statement there, or (when `deep`) after more `(`.
   * Called with start 2 when LA(1) is the `(` that would open a subquery.
   */
  protected queryAhead(start: number, deep: boolean): boolean {
    let i = start;
    if (deep) while (this.LA(i).tokenType === LParen) i++;
    const t = this.LA(i).tokenType;
    if (t === Kw.SELECT || t === Kw.WITH || t === Kw.VALUES || t === Kw.FROM) return true;
    // PIVOT / UNPIVOT (parser-pivot.ts) are non-reserved: a query only when a table name, `(` or a file follows.
    if (t !== Kw.PIVOT && t !== Kw.PIVOT_WIDER && t !== Kw.UNPIVOT && t !== Kw.PIVOT_LONGER) return false;
    const next = this.LA(i + 1);
    return tokenMatcher(next, Ident) || next.tokenType === LParen || next.tokenType === StringLit;
  }

  /** Any expression: NOT-operands joined by AND / OR (precedence applied when building the AST). */
  readonly expression = this.RULE('expression', () => {
    this.SUBRULE(this.notExpr, { LABEL: 'operands' });
    this.MANY(() => {
      this.OR([{ ALT: () => this.CONSUME(Kw.AND, { LABEL: 'ops' }) }, { ALT: () => this.CONSUME(Kw.OR, { LABEL: 'ops' }) }]);
      this.SUBRULE2(this.notExpr, { LABEL: 'operands' });
    });
  });

  readonly notExpr = this.RULE('notExpr', () => {
    this.OR([
      { ALT: () => { this.CONSUME(Kw.NOT); this.SUBRULE(this.notExpr, { LABEL: 'arg' }); } },
      { ALT: () => this.SUBRULE(this.predicate, { LABEL: 'arg' }) },
    ]);
  });

  /** A `||` operand followed by comparisons and predicates, applied left to right. */
  readonly predicate = this.RULE('predicate', () => {
    this.SUBRULE(this.arith, { LABEL: 'arg' });
    this.MANY(() => this.SUBRULE(this.predicateTail, { LABEL: 'tails' }));
  });

  readonly predicateTail = this.RULE('predicateTail', () => {
    this.OR([
      {
        ALT: () => {
          this.OR2([
            { ALT: () => this.CONSUME(Eq, { LABEL: 'op' }) },
            { ALT: () => this.CONSUME(NotEq, { LABEL: 'op' }) },
            { ALT: () => this.CONSUME(LtEq, { LABEL: 'op' }) },
            { ALT: () => this.CONSUME(GtEq, { LABEL: 'op' }) },
            { ALT: () => this.CONSUME(Lt, { LABEL: 'op' }) },
            { ALT: () => this.CONSUME(Gt, { LABEL: 'op' }) },
          ]);
          this.SUBRULE(this.arith, { LABEL: 'right' });
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.IS);
          this.OPTION(() => this.CONSUME(Kw.NOT, { LABEL: 'not' }));
          this.OR3([
            { ALT: () => this.CONSUME(Kw.NULL, { LABEL: 'isWhat' }) },
            { ALT: () => this.CONSUME(Kw.TRUE, { LABEL: 'isWhat' }) },
            { ALT: () => this.CONSUME(Kw.FALSE, { LABEL: 'isWhat' }) },
            {
              ALT: () => {
                this.CONSUME(Kw.DISTINCT, { LABEL: 'isWhat' });
                this.CONSUME(Kw.FROM);
                this.SUBRULE2(this.arith, { LABEL: 'right' });
              },
            },
          ]);
        },
      },
      {
        ALT: () => {
          this.OPTION2(() => this.CONSUME2(Kw.NOT, { LABEL: 'not' }));
          this.OR4([
            {
              ALT: () => {
                this.CONSUME(Kw.BETWEEN, { LABEL: 'kind' });
                this.SUBRULE3(this.arith, { LABEL: 'low' });
                this.CONSUME(Kw.AND);
                this.SUBRULE4(this.arith, { LABEL: 'high' });
              },
            },
            {
              ALT: () => {
                this.OR6([
                  { ALT: () => this.CONSUME(Kw.LIKE, { LABEL: 'kind' }) },
                  { ALT: () => this.CONSUME(Kw.ILIKE, { LABEL: 'kind' }) },
                ]);
                this.SUBRULE5(this.arith, { LABEL: 'right' });
                this.OPTION4(() => { this.CONSUME(Kw.ESCAPE); this.SUBRULE6(this.arith, { LABEL: 'escape' }); });
              },
            },
            {
              ALT: () => {
                this.CONSUME(Kw.IN, { LABEL: 'kind' });
                this.CONSUME(LParen);
                this.OPTION3(() => {
                  this.OR5([
                    { GATE: () => this.queryAhead(1, false), IGNORE_AMBIGUITIES: true, ALT: () => this.SUBRULE(this.query, { LABEL: 'query' }) },
                    { ALT: () => this.SUBRULE(this.expressionList, { LABEL: 'list' }) },
                  ]);
                }); // an empty list (SQLite) is allowed: x IN () is false
                this.CONSUME(RParen, { LABEL: 'close' });
              },
            },
          ]);
        },
      },
    ]);
  });

  /** Unary operands joined by `||`, `+ -`, `* / // %`, `^ **` (precedence applied when building the AST). */
  readonly arith = this.RULE('arith', () => {
    this.SUBRULE(this.unary, { LABEL: 'operands' });
    this.MANY(() => {
      this.OR([
        { ALT: () => this.CONSUME(Concat, { LABEL: 'ops' }) },
        { ALT: () => this.CONSUME(Plus, { LABEL: 'ops' }) },
        { ALT: () => this.CONSUME(Minus, { LABEL: 'ops' }) },
        { ALT: () => this.CONSUME(Star, { LABEL: 'ops' }) },
        { ALT: () => this.CONSUME(Slash, { LABEL: 'ops' }) },
        { ALT: () => this.CONSUME(Percent, { LABEL: 'ops' }) },
        { ALT: () => this.CONSUME(DoubleSlash, { LABEL: 'ops' }) },
        { ALT: () => this.CONSUME(Caret, { LABEL: 'ops' }) },
        { ALT: () => this.CONSUME(DoubleStar, { LABEL: 'ops' }) },
      ]);
      this.SUBRULE2(this.unary, { LABEL: 'operands' });
    });
  });

  /** `- + ... primary ::type ...`: signs bind looser than casts (`-x::INT` is `-(x::INT)`). */
  readonly unary = this.RULE('unary', () => {
    this.MANY(() => {
      this.OR([{ ALT: () => this.CONSUME(Minus, { LABEL: 'signs' }) }, { ALT: () => this.CONSUME(Plus, { LABEL: 'signs' }) }]);
    });
    this.SUBRULE(this.primary, { LABEL: 'arg' });
    this.MANY2(() => {
      this.CONSUME(DoubleColon);
      this.SUBRULE(this.typeName, { LABEL: 'types' });
    });
  });

  readonly primary = this.RULE('primary', () => {
    // Two tokens decide every alternative (the gates do the rest): the default three made chevrotain's analysis of
    // this OR enumerate every expression's first tokens after `name (` (~250 ms of each process's first query).
    this.OR({ MAX_LOOKAHEAD: 2, DEF: [
      { ALT: () => this.CONSUME(NumberLit, { LABEL: 'literal' }) },
      { ALT: () => this.CONSUME(StringLit, { LABEL: 'literal' }) },
      { ALT: () => this.CONSUME(Kw.TRUE, { LABEL: 'literal' }) },
      { ALT: () => this.CONSUME(Kw.FALSE, { LABEL: 'literal' }) },
      { ALT: () => this.CONSUME(Kw.NULL, { LABEL: 'literal' }) },
      { ALT: () => this.CONSUME(NumberedParam, { LABEL: 'param' }) },
      { ALT: () => this.CONSUME(QuestionMark, { LABEL: 'param' }) },
      { ALT: () => this.SUBRULE(this.typedLiteral, { LABEL: 'typed' }) },
      { ALT: () => this.SUBRULE(this.intervalLiteral, { LABEL: 'interval' }) },
      { ALT: () => this.SUBRULE(this.caseExpr, { LABEL: 'caseExpr' }) },
      { ALT: () => this.SUBRULE(this.castExpr, { LABEL: 'castExpr' }) },
      { ALT: () => { this.CONSUME(Kw.EXISTS, { LABEL: 'exists' }); this.SUBRULE(this.parenQuery, { LABEL: 'subquery' }); } },
      { GATE: () => this.queryAhead(2, false), IGNORE_AMBIGUITIES: true, ALT: () => this.SUBRULE2(this.parenQuery, { LABEL: 'subquery' }) },
      {
        ALT: () => {
          // `(e)`, or a row value `(e1, e2, ...)` (cst-expr.ts; the binder accepts it only in comparisons and IN).
          this.CONSUME(LParen, { LABEL: 'open' });
          this.SUBRULE(this.expression, { LABEL: 'inner' });
          this.MANY(() => { this.CONSUME(Comma); this.SUBRULE3(this.expression, { LABEL: 'rowItems' }); });
          this.CONSUME(RParen, { LABEL: 'close' });
        },
      },
      { GATE: () => this.positionInAhead(), IGNORE_AMBIGUITIES: true, ALT: () => this.SUBRULE(this.positionCall, { LABEL: 'position' }) },
      { ALT: () => this.SUBRULE(this.functionCall, { LABEL: 'call' }) },
      { ALT: () => this.SUBRULE(this.columnRef, { LABEL: 'column' }) },
    ] });
  });

  /** `position(needle IN haystack)` (SQL standard; DuckDB's strpos(haystack, needle)): operands are `||`-level, so IN is not a predicate here. */
  readonly positionCall = this.RULE('positionCall', () => {
    this.CONSUME(Ident, { LABEL: 'name' });
    this.CONSUME(LParen);
    this.SUBRULE(this.arith, { LABEL: 'needle' });
    this.CONSUME(Kw.IN);
    this.SUBRULE2(this.arith, { LABEL: 'haystack' });
    this.CONSUME(RParen, { LABEL: 'close' });
  });

  /** True when LA(1).. is `position (` with an IN at the call's own nesting level before its `)`. */
  private positionInAhead(): boolean {
    if (!tokenMatcher(this.LA(1), Ident) || this.LA(1).image.toLowerCase() !== 'position' || this.LA(2).tokenType !== LParen) return false;
    for (let i = 3, depth = 0; ; i++) {
      const t = this.LA(i).tokenType;
      if (t === EOF) return false;
      if (t === LParen) depth++;
      else if (t === RParen) { if (depth === 0) return false; depth--; }
      else if (t === Kw.IN && depth === 0) return true;
      else if (t === Comma && depth === 0) return false;
    }
  }

  /** `( query )`, for scalar and EXISTS subqueries. */
  readonly parenQuery = this.RULE('parenQuery', () => {
    this.CONSUME(LParen);
    this.SUBRULE(this.query, { LABEL: 'query' });
    this.CONSUME(RParen, { LABEL: 'close' });
  });

  readonly caseExpr = this.RULE('caseExpr', () => {
    this.CONSUME(Kw.CASE);
    this.OPTION(() => this.SUBRULE(this.expression, { LABEL: 'operand' }));
    this.AT_LEAST_ONE(() => {
      this.CONSUME(Kw.WHEN);
      this.SUBRULE2(this.expression, { LABEL: 'whens' });
      this.CONSUME(Kw.THEN);
      this.SUBRULE3(this.expression, { LABEL: 'thens' });
    });
    this.OPTION2(() => {
      this.CONSUME(Kw.ELSE);
      this.SUBRULE4(this.expression, { LABEL: 'else' });
    });
    this.CONSUME(Kw.END, { LABEL: 'end' });
  });

  readonly castExpr = this.RULE('castExpr', () => {
    this.OR([{ ALT: () => this.CONSUME(Kw.CAST) }, { ALT: () => this.CONSUME(Kw.TRY_CAST, { LABEL: 'try' }) }]);
    this.CONSUME(LParen);
    this.SUBRULE(this.expression, { LABEL: 'arg' });
    this.CONSUME(Kw.AS);
    this.SUBRULE(this.typeName, { LABEL: 'type' });
    this.CONSUME(RParen, { LABEL: 'close' });
  });

  /** `name(...)`: `count(*)`, `sum(DISTINCT x)`, `substring(s FROM 1 FOR 3)`, `extract(year FROM d)`. */
  readonly functionCall = this.RULE('functionCall', () => {
    this.OR([
      { ALT: () => this.CONSUME(Ident, { LABEL: 'name' }) },
      { ALT: () => this.CONSUME(Kw.LEFT, { LABEL: 'name' }) },
      { ALT: () => this.CONSUME(Kw.RIGHT, { LABEL: 'name' }) },
    ]);
    this.CONSUME(LParen);
    this.OPTION(() => {
      this.OR2([
        { ALT: () => this.CONSUME(Star, { LABEL: 'star' }) },
        {
          ALT: () => {
            this.OPTION2(() => {
              this.OR3([{ ALT: () => this.CONSUME(Kw.DISTINCT, { LABEL: 'distinct' }) }, { ALT: () => this.CONSUME(Kw.ALL) }]);
            });
            this.SUBRULE(this.expressionList, { LABEL: 'args' });
            this.OPTION3(() => { this.CONSUME(Kw.FROM); this.SUBRULE(this.expression, { LABEL: 'from' }); });
            this.OPTION4(() => { this.CONSUME(Kw.FOR); this.SUBRULE2(this.expression, { LABEL: 'for' }); });
            this.OPTION5(() => {
              this.CONSUME(Kw.ORDER, { LABEL: 'orderBy' });
              this.CONSUME(Kw.BY);
              this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.orderItem, { LABEL: 'order' }) });
            });
          },
        },
      ]);
    });
    this.CONSUME(RParen, { LABEL: 'close' });
    // `WITHIN GROUP (ORDER BY x)` and `FILTER (WHERE c)`: FILTER and WITHIN stay plain identifiers (a column
    // may be called filter), so each clause is taken only when its next words fit (cst-agg-clauses.ts desugars them).
    this.OPTION7({
      GATE: () => /^within$/i.test(this.LA(1).image) && this.LA(1).tokenType !== QuotedIdentifier && this.LA(2).tokenType === Kw.GROUP,
      DEF: () => {
        this.CONSUME2(Ident, { LABEL: 'within' });
        this.CONSUME(Kw.GROUP);
        this.CONSUME2(LParen);
        this.CONSUME2(Kw.ORDER);
        this.CONSUME2(Kw.BY);
        this.AT_LEAST_ONE_SEP2({ SEP: Comma, DEF: () => this.SUBRULE2(this.orderItem, { LABEL: 'withinOrder' }) });
        this.CONSUME2(RParen);
      },
    });
    this.OPTION8({
      GATE: () => /^filter$/i.test(this.LA(1).image) && this.LA(1).tokenType !== QuotedIdentifier && this.LA(2).tokenType === LParen,
      DEF: () => {
        this.CONSUME3(Ident, { LABEL: 'filter' });
        this.CONSUME3(LParen);
        this.OPTION9(() => this.CONSUME(Kw.WHERE));
        this.SUBRULE3(this.expression, { LABEL: 'filterWhere' });
        this.CONSUME3(RParen);
      },
    });
    this.OPTION6(() => this.SUBRULE(this.overClause, { LABEL: 'over' }));
  });

  /** `a`, `t.a`, `"T"."A"`, `s.t.a`. */
  readonly columnRef = this.RULE('columnRef', () => {
    this.CONSUME(Ident, { LABEL: 'parts' });
    this.MANY(() => {
      this.CONSUME(Dot);
      this.CONSUME(Label, { LABEL: 'parts' });
    });
  });

}
