/**
 * The window-function grammar: `OVER (...)` / `OVER name` after a call, the
 * window specification (`[base] [PARTITION BY ...] [ORDER BY ...] [frame]`),
 * ROWS / RANGE frames with UNBOUNDED / n PRECEDING / FOLLOWING / CURRENT ROW
 * bounds, and the WINDOW clause (`WINDOW w AS (...), ...`). PARTITION, ROWS,
 * RANGE and the bound words are non-reserved (columns may be called `range`),
 * so gates decide where a name is a base window or an offset expression.
 */
import type { TokenType } from 'chevrotain';
import { Comma, Ident, Kw, LParen, RParen } from './lexer.js';
import { ExprParser } from './parser-expr.js';

/** Words that begin a window specification's clauses (never a base window's name there). */
const SPEC_WORDS: ReadonlySet<TokenType> = new Set([Kw.PARTITION, Kw.ORDER, Kw.ROWS, Kw.RANGE]);

/** Window rules over the expression rules. */
export abstract class WindowParser extends ExprParser {
  readonly overClause = this.RULE('overClause', () => {
    this.CONSUME(Kw.OVER);
    this.OR([
      {
        ALT: () => {
          this.CONSUME(LParen);
          this.SUBRULE(this.windowSpec, { LABEL: 'spec' });
          this.CONSUME(RParen, { LABEL: 'close' });
        },
      },
      { ALT: () => this.CONSUME(Ident, { LABEL: 'name' }) },
    ]);
  });

  /** The inside of `OVER (...)` and of `WINDOW w AS (...)` (every part optional). */
  readonly windowSpec = this.RULE('windowSpec', () => {
    this.OPTION({ GATE: () => !SPEC_WORDS.has(this.LA(1).tokenType), DEF: () => this.CONSUME(Ident, { LABEL: 'base' }) });
    this.OPTION2(() => {
      this.CONSUME(Kw.PARTITION);
      this.CONSUME(Kw.BY);
      this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.expression, { LABEL: 'partition' }) });
    });
    this.OPTION3(() => {
      this.CONSUME(Kw.ORDER);
      this.CONSUME2(Kw.BY);
      this.AT_LEAST_ONE_SEP2({ SEP: Comma, DEF: () => this.SUBRULE(this.orderItem, { LABEL: 'order' }) });
    });
    this.OPTION4(() => this.SUBRULE(this.frameClause, { LABEL: 'frame' }));
  });

  /** `ROWS | RANGE (BETWEEN bound AND bound | bound)`. */
  readonly frameClause = this.RULE('frameClause', () => {
    this.OR([{ ALT: () => this.CONSUME(Kw.ROWS, { LABEL: 'mode' }) }, { ALT: () => this.CONSUME(Kw.RANGE, { LABEL: 'mode' }) }]);
    this.OR2([
      {
        ALT: () => {
          this.CONSUME(Kw.BETWEEN);
          this.SUBRULE(this.frameBound, { LABEL: 'start' });
          this.CONSUME(Kw.AND);
          this.SUBRULE2(this.frameBound, { LABEL: 'end' });
        },
      },
      { ALT: () => this.SUBRULE3(this.frameBound, { LABEL: 'start' }) },
    ]);
  });

  /** `UNBOUNDED PRECEDING | UNBOUNDED FOLLOWING | CURRENT ROW | expr PRECEDING | expr FOLLOWING`. */
  readonly frameBound = this.RULE('frameBound', () => {
    this.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        {
          ALT: () => {
            this.CONSUME(Kw.UNBOUNDED, { LABEL: 'unbounded' });
            this.OR2([{ ALT: () => this.CONSUME(Kw.PRECEDING, { LABEL: 'preceding' }) }, { ALT: () => this.CONSUME(Kw.FOLLOWING, { LABEL: 'following' }) }]);
          },
        },
        { ALT: () => { this.CONSUME(Kw.CURRENT, { LABEL: 'current' }); this.CONSUME(Kw.ROW); } },
        {
          GATE: () => this.LA(1).tokenType !== Kw.UNBOUNDED && this.LA(1).tokenType !== Kw.CURRENT,
          ALT: () => {
            this.SUBRULE(this.expression, { LABEL: 'offset' });
            this.OR3([{ ALT: () => this.CONSUME2(Kw.PRECEDING, { LABEL: 'preceding' }) }, { ALT: () => this.CONSUME2(Kw.FOLLOWING, { LABEL: 'following' }) }]);
          },
        },
      ],
    });
  });

  /** `WINDOW name AS (spec), ...`. */
  readonly windowClause = this.RULE('windowClause', () => {
    this.CONSUME(Kw.WINDOW);
    this.AT_LEAST_ONE_SEP({
      SEP: Comma,
      DEF: () => {
        this.CONSUME(Ident, { LABEL: 'names' });
        this.CONSUME(Kw.AS);
        this.CONSUME(LParen);
        this.SUBRULE(this.windowSpec, { LABEL: 'specs' });
        this.CONSUME(RParen);
      },
    });
  });
}
