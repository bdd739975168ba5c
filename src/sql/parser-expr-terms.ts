/**
 * The terms of the SQL expression grammar below the operators: typed and interval literals, type
 * names, comma-separated expression lists (with the fast path for long literal lists), named
 * table-function arguments and struct literals. Split from parser-expr.ts (which extends this class
 * with the precedence levels, primaries, CASE, CAST and calls) when that file passed 400 lines; the
 * rules that refer back to `expression` find it on the subclass when the grammar is recorded.
 */
import { CstParser, type CstNode, type ParserMethod } from 'chevrotain';
import { allTokens, Colon, ColonEq, Comma, Eq, Ident, Kw, LBrace, LiteralList, LParen, Minus, NumberLit, PlainLiteral, RBrace, RParen, StringLit } from './lexer.js';
import { LazyLookaheadStrategy } from './parser-lookahead.js';

/** Second words of two-word type names (`DOUBLE PRECISION`, `CHARACTER VARYING`). */
const TYPE_SECOND_WORDS = new Set(['precision', 'varying']);

/** Literal, type and list rules shared by every SQL entry point. */
export abstract class ExprTermsParser extends CstParser {
  /** Any expression, defined by the subclass (parser-expr.ts). */
  abstract readonly expression: ParserMethod<[], CstNode>;

  /** `validate` runs chevrotain's grammar checks (ambiguities, left recursion): ~100 ms more, done in tests. */
  constructor(validate: boolean) {
    // Lookahead functions are built on first use (parser-lookahead.ts): the eager analysis cost ~1.3 s per process.
    super(allTokens as never, {
      maxLookahead: 3, recoveryEnabled: false, nodeLocationTracking: 'full', skipValidations: !validate,
      lookaheadStrategy: new LazyLookaheadStrategy({ maxLookahead: 3 }),
    });
  }

  /** `DATE '1998-12-01'`, `TIMESTAMP '...'`. */
  readonly typedLiteral = this.RULE('typedLiteral', () => {
    this.OR([{ ALT: () => this.CONSUME(Kw.DATE, { LABEL: 'type' }) }, { ALT: () => this.CONSUME(Kw.TIMESTAMP, { LABEL: 'type' }) }]);
    this.CONSUME(StringLit, { LABEL: 'value' });
  });

  /** `INTERVAL '90' DAY`, `INTERVAL 3 MONTH`, `INTERVAL '-1' YEAR`, `INTERVAL '2 days'`. */
  readonly intervalLiteral = this.RULE('intervalLiteral', () => {
    this.CONSUME(Kw.INTERVAL);
    this.OPTION(() => this.CONSUME(Minus, { LABEL: 'minus' }));
    this.OR([{ ALT: () => this.CONSUME(StringLit, { LABEL: 'value' }) }, { ALT: () => this.CONSUME(NumberLit, { LABEL: 'value' }) }]);
    this.OPTION2(() => this.CONSUME(Ident, { LABEL: 'unit' }));
  });

  /**
   * Comma-separated expressions. A list of only (optionally negated) number and string literals up to a `)`
   * takes a fast path: one token test per item instead of a descent through every precedence level
   * (a 100k-item `IN (...)` or VALUES list parses in milliseconds, not seconds).
   */
  readonly expressionList = this.RULE('expressionList', () => {
    this.OR([
      // 256 literals or more: one token, made by the lexer (literal-runs.ts).
      { ALT: () => this.CONSUME(LiteralList, { LABEL: 'literalRun' }) },
      {
        GATE: () => this.plainLiteralsAhead(),
        IGNORE_AMBIGUITIES: true,
        ALT: () => this.AT_LEAST_ONE_SEP({
          SEP: Comma,
          DEF: () => { this.OPTION(() => this.CONSUME(Minus, { LABEL: 'signs' })); this.CONSUME(PlainLiteral, { LABEL: 'literals' }); },
        }),
      },
      { ALT: () => this.AT_LEAST_ONE_SEP2({ SEP: Comma, DEF: () => this.SUBRULE(this.expression, { LABEL: 'items' }) }) },
    ]);
  });

  /** True when LA(1).. is `[-] literal (, [-] literal)* )`: the fast path of expressionList. */
  private plainLiteralsAhead(): boolean {
    for (let i = 1; ; i++) {
      if (this.LA(i).tokenType === Minus) i++;
      const t = this.LA(i).tokenType;
      if (t !== NumberLit && t !== StringLit) return false;
      const next = this.LA(i + 1).tokenType;
      if (next === RParen) return true;
      if (next !== Comma) return false;
      i++;
    }
  }

  /** `INTEGER`, `VARCHAR(25)`, `DECIMAL(15,2)`, `DOUBLE PRECISION`. */
  readonly typeName = this.RULE('typeName', () => {
    this.CONSUME(Ident, { LABEL: 'words' });
    this.OPTION({
      GATE: () => TYPE_SECOND_WORDS.has(this.LA(1).image.toLowerCase()),
      DEF: () => this.CONSUME2(Ident, { LABEL: 'words' }),
    });
    this.OPTION2(() => {
      this.CONSUME(LParen);
      this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.CONSUME(NumberLit, { LABEL: 'params' }) });
      this.CONSUME(RParen, { LABEL: 'close' });
    });
  });

  /** An optional `name :=` before a table-function argument; `name = {...}` / `name := {...}` give a struct literal. */
  readonly namedArg = this.RULE('namedArg', () => {
    this.OR([
      {
        GATE: () => this.LA(3).tokenType === LBrace,
        IGNORE_AMBIGUITIES: true,
        ALT: () => {
          this.CONSUME2(Ident, { LABEL: 'name' });
          this.OR2([{ ALT: () => this.CONSUME2(ColonEq) }, { ALT: () => this.CONSUME(Eq) }]);
          this.SUBRULE(this.structLiteral, { LABEL: 'struct' });
        },
      },
      {
        ALT: () => {
          this.OPTION(() => {
            this.CONSUME(Ident, { LABEL: 'name' });
            this.CONSUME(ColonEq);
          });
          this.SUBRULE(this.expression, { LABEL: 'value' });
        },
      },
    ]);
  });

  /** `{'key': 'value', ...}` (keys and values strings or names): read_csv's columns / types. */
  readonly structLiteral = this.RULE('structLiteral', () => {
    this.CONSUME(LBrace);
    this.MANY_SEP({
      SEP: Comma,
      DEF: () => {
        this.OR([{ ALT: () => this.CONSUME(StringLit, { LABEL: 'keys' }) }, { ALT: () => this.CONSUME(Ident, { LABEL: 'keys' }) }]);
        this.CONSUME(Colon);
        this.OR2([{ ALT: () => this.CONSUME2(StringLit, { LABEL: 'values' }) }, { ALT: () => this.CONSUME2(Ident, { LABEL: 'values' }) }]);
      },
    });
    this.CONSUME(RBrace, { LABEL: 'close' });
  });
}
