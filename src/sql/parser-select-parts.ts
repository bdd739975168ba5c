/**
 * Grammar of two SELECT clauses' extended forms, below the query rules (parser-query.ts): GROUP BY's
 * ROLLUP / CUBE / GROUPING SETS items, a star's DuckDB modifiers `EXCLUDE (...)` / `REPLACE (...)`, and
 * DuckDB's `USING SAMPLE` clause. Their words (grouping, sets, rollup, cube, exclude, replace, sample,
 * percent, repeatable, the sampling methods) stay identifiers, because columns and a
 * function bear those names: each form is taken only when the tokens after the word fit it.
 */
import { WindowParser } from './parser-window.js';
import { Comma, Ident, Kw, Label, LParen, NumberLit, Percent, QuotedIdentifier, RParen } from './lexer.js';

/** GROUP BY grouping-set rules and star modifiers over the expression and window rules. */
export abstract class SelectPartsParser extends WindowParser {
  /**
   * GROUP BY's items: expressions, `ROLLUP (...)`, `CUBE (...)` and `GROUPING SETS (...)`. GROUPING, SETS,
   * ROLLUP and CUBE stay identifiers (columns may bear those names): each form is taken only when its next
   * words fit; cst-grouping-sets.ts expands them.
   */
  readonly groupingList = this.RULE('groupingList', () => {
    this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.groupingElement, { LABEL: 'elements' }) });
  });

  readonly groupingElement = this.RULE('groupingElement', () => {
    this.OR([
      {
        GATE: () => /^grouping$/i.test(this.LA(1).image) && this.LA(1).tokenType !== QuotedIdentifier && /^sets$/i.test(this.LA(2).image) && this.LA(3).tokenType === LParen,
        IGNORE_AMBIGUITIES: true,
        ALT: () => {
          this.CONSUME(Ident, { LABEL: 'grouping' });
          this.CONSUME2(Ident);
          this.CONSUME(LParen);
          this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.groupingSetItem, { LABEL: 'sets' }) });
          this.CONSUME(RParen);
        },
      },
      {
        GATE: () => /^(rollup|cube)$/i.test(this.LA(1).image) && this.LA(1).tokenType !== QuotedIdentifier && this.LA(2).tokenType === LParen,
        IGNORE_AMBIGUITIES: true,
        ALT: () => this.SUBRULE(this.rollupOrCube, { LABEL: 'rollup' }),
      },
      { ALT: () => this.SUBRULE(this.expression, { LABEL: 'expr' }) },
    ]);
  });

  /** One set of GROUPING SETS: `(a, b)`, `()`, `a`, or a ROLLUP / CUBE. */
  readonly groupingSetItem = this.RULE('groupingSetItem', () => {
    this.OR([
      {
        GATE: () => /^(rollup|cube)$/i.test(this.LA(1).image) && this.LA(1).tokenType !== QuotedIdentifier && this.LA(2).tokenType === LParen,
        IGNORE_AMBIGUITIES: true,
        ALT: () => this.SUBRULE(this.rollupOrCube, { LABEL: 'rollup' }),
      },
      {
        // `(a, b)` is a set, never a parenthesized expression (which a one-item set equals anyway).
        IGNORE_AMBIGUITIES: true,
        ALT: () => {
          this.CONSUME(LParen, { LABEL: 'open' });
          this.OPTION(() => this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.expression, { LABEL: 'exprs' }) }));
          this.CONSUME(RParen);
        },
      },
      { ALT: () => this.SUBRULE2(this.expression, { LABEL: 'expr' }) },
    ]);
  });

  /** `ROLLUP (a, b)` / `CUBE (a, b)`. */
  readonly rollupOrCube = this.RULE('rollupOrCube', () => {
    this.CONSUME(Ident, { LABEL: 'kind' });
    this.CONSUME(LParen);
    this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.expression, { LABEL: 'exprs' }) });
    this.CONSUME(RParen);
  });

  /**
   * DuckDB's `* EXCLUDE (a, b)` / `* EXCLUDE a` and `* REPLACE (expr AS a, ...)`. EXCLUDE and REPLACE stay
   * identifiers (replace is also a function): the gate takes them only right after a star.
   */
  readonly starModifiers = this.RULE('starModifiers', () => {
    this.AT_LEAST_ONE(() => {
      this.OR([
        {
          GATE: () => /^exclude$/i.test(this.LA(1).image) && this.LA(1).tokenType !== QuotedIdentifier,
          ALT: () => {
            this.CONSUME(Ident, { LABEL: 'exclude' });
            this.OR2([
              {
                ALT: () => {
                  this.CONSUME(LParen);
                  this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.columnRef, { LABEL: 'excluded' }) });
                  this.CONSUME(RParen);
                },
              },
              { ALT: () => this.SUBRULE2(this.columnRef, { LABEL: 'excluded' }) },
            ]);
          },
        },
        {
          GATE: () => /^replace$/i.test(this.LA(1).image) && this.LA(1).tokenType !== QuotedIdentifier && this.LA(2).tokenType === LParen,
          ALT: () => {
            this.CONSUME2(Ident, { LABEL: 'replace' });
            this.CONSUME2(LParen);
            this.AT_LEAST_ONE_SEP2({
              SEP: Comma,
              DEF: () => {
                this.SUBRULE(this.expression, { LABEL: 'replacement' });
                this.CONSUME(Kw.AS);
                this.CONSUME(Label, { LABEL: 'replaced' });
              },
            });
            this.CONSUME2(RParen);
          },
        },
      ]);
    });
  });

  /**
   * `USING SAMPLE size [ROWS | PERCENT | %] [(method [, seed])]` or `USING SAMPLE method (size [ROWS | PERCENT | %])`,
   * then `[REPEATABLE (seed)]` (DuckDB's forms; cst-sample.ts checks the words and numbers).
   */
  readonly sampleClause = this.RULE('sampleClause', () => {
    this.CONSUME(Kw.USING);
    this.CONSUME(Ident, { LABEL: 'sampleWord' });
    this.SUBRULE(this.sampleBody, { LABEL: 'body' });
  });

  /** What follows USING SAMPLE or a table's TABLESAMPLE: the size and method, then `[REPEATABLE (seed)]`. */
  readonly sampleBody = this.RULE('sampleBody', () => {
    this.OR([
      {
        ALT: () => {
          this.CONSUME2(Ident, { LABEL: 'method' });
          this.CONSUME(LParen);
          this.SUBRULE(this.sampleSize, { LABEL: 'size' });
          this.CONSUME(RParen);
        },
      },
      {
        ALT: () => {
          this.SUBRULE2(this.sampleSize, { LABEL: 'size' });
          this.OPTION(() => {
            this.CONSUME2(LParen);
            this.CONSUME3(Ident, { LABEL: 'method' });
            this.OPTION2(() => { this.CONSUME(Comma); this.CONSUME(NumberLit, { LABEL: 'seed' }); });
            this.CONSUME2(RParen);
          });
        },
      },
    ]);
    this.OPTION3({
      GATE: () => /^repeatable$/i.test(this.LA(1).image) && this.LA(1).tokenType !== QuotedIdentifier,
      DEF: () => {
        this.CONSUME4(Ident, { LABEL: 'repeatable' });
        this.CONSUME3(LParen);
        this.CONSUME2(NumberLit, { LABEL: 'seed' });
        this.CONSUME3(RParen);
      },
    });
  });

  readonly sampleSize = this.RULE('sampleSize', () => {
    this.CONSUME(NumberLit, { LABEL: 'value' });
    // Gated as a whole: an identifier after the size is PERCENT here, or REPEATABLE for the clause.
    this.OPTION({
      GATE: () => this.LA(1).tokenType === Kw.ROWS || this.LA(1).tokenType === Percent || (/^percent$/i.test(this.LA(1).image) && this.LA(1).tokenType !== QuotedIdentifier),
      DEF: () => this.OR([
        { ALT: () => this.CONSUME(Kw.ROWS, { LABEL: 'rows' }) },
        { ALT: () => this.CONSUME(Percent, { LABEL: 'percent' }) },
        {
          GATE: () => /^percent$/i.test(this.LA(1).image) && this.LA(1).tokenType !== QuotedIdentifier,
          IGNORE_AMBIGUITIES: true,
          ALT: () => this.CONSUME(Ident, { LABEL: 'percent' }),
        },
      ]),
    });
  });
}
