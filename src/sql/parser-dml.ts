/**
 * Grammar of the data-changing and data-moving statements (chevrotain rules
 * as class properties, between the query rules and the statement rules of
 * parser.ts): UPDATE, DELETE, COPY, and the inspection statements DESCRIBE
 * and SUMMARIZE, which take a table name or a query. DuckDB's syntax: COPY
 * options are `(name [value], ...)` with an optional WITH before them, and a
 * bare option name means true (`HEADER`).
 */
import { Comma, Eq, Ident, Kw, Label, LParen, Minus, NumberLit, RParen, StringLit } from './lexer.js';
import { QueryParser } from './parser-query.js';

/** UPDATE / DELETE / COPY / DESCRIBE / SUMMARIZE rules over the query rules. */
export abstract class DmlParser extends QueryParser {
  /** `UPDATE t SET c = expr [, ...] [WHERE cond]`. */
  readonly updateStatement = this.RULE('updateStatement', () => {
    this.CONSUME(Kw.UPDATE);
    this.SUBRULE(this.qualifiedName, { LABEL: 'table' });
    this.CONSUME(Kw.SET);
    this.AT_LEAST_ONE_SEP({
      SEP: Comma,
      DEF: () => this.SUBRULE(this.assignment, { LABEL: 'sets' }),
    });
    this.OPTION(() => { this.CONSUME(Kw.WHERE); this.SUBRULE(this.expression, { LABEL: 'where' }); });
  });

  /** `column = expr` in UPDATE ... SET. */
  readonly assignment = this.RULE('assignment', () => {
    this.CONSUME(Ident, { LABEL: 'column' });
    this.CONSUME(Eq);
    this.SUBRULE(this.expression, { LABEL: 'value' });
  });

  /** `DELETE FROM t [WHERE cond]`. */
  readonly deleteStatement = this.RULE('deleteStatement', () => {
    this.CONSUME(Kw.DELETE);
    this.CONSUME(Kw.FROM);
    this.SUBRULE(this.qualifiedName, { LABEL: 'table' });
    this.OPTION(() => { this.CONSUME(Kw.WHERE); this.SUBRULE(this.expression, { LABEL: 'where' }); });
  });

  /** `COPY (query) | t [(cols)] TO | FROM 'file' [WITH] [(option [value], ...)]`. */
  readonly copyStatement = this.RULE('copyStatement', () => {
    this.CONSUME(Kw.COPY);
    this.OR([
      { ALT: () => { this.CONSUME(LParen); this.SUBRULE(this.query, { LABEL: 'query' }); this.CONSUME(RParen); } },
      {
        ALT: () => {
          this.SUBRULE(this.qualifiedName, { LABEL: 'table' });
          this.OPTION(() => this.SUBRULE(this.nameList, { LABEL: 'columns' }));
        },
      },
    ]);
    this.OR2([{ ALT: () => this.CONSUME(Kw.TO, { LABEL: 'to' }) }, { ALT: () => this.CONSUME(Kw.FROM, { LABEL: 'from' }) }]);
    this.CONSUME(StringLit, { LABEL: 'path' });
    this.OPTION2(() => this.CONSUME(Kw.WITH));
    this.OPTION3(() => {
      this.CONSUME2(LParen);
      this.MANY_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.copyOption, { LABEL: 'options' }) });
      this.CONSUME2(RParen);
    });
  });

  /** `name [value]`: a value is a string, a number, true/false or a bare word. */
  readonly copyOption = this.RULE('copyOption', () => {
    this.CONSUME(Label, { LABEL: 'name' });
    this.OPTION(() => {
      this.OR([
        { ALT: () => this.CONSUME(StringLit, { LABEL: 'value' }) },
        { ALT: () => { this.OPTION2(() => this.CONSUME(Minus, { LABEL: 'minus' })); this.CONSUME(NumberLit, { LABEL: 'value' }); } },
        { ALT: () => this.CONSUME(Kw.TRUE, { LABEL: 'value' }) },
        { ALT: () => this.CONSUME(Kw.FALSE, { LABEL: 'value' }) },
        { ALT: () => this.CONSUME(Ident, { LABEL: 'value' }) },
      ]);
    });
  });

  /** `DESCRIBE t` or `DESCRIBE query` (a parenthesised query included). */
  readonly describeStatement = this.RULE('describeStatement', () => {
    this.CONSUME(Kw.DESCRIBE);
    this.OR([
      // `DESCRIBE pivot` is a table; `DESCRIBE PIVOT t ON ...` a query (pivot is not a reserved word).
      { GATE: () => !this.queryAhead(1, false), IGNORE_AMBIGUITIES: true, ALT: () => this.SUBRULE(this.qualifiedName, { LABEL: 'table' }) },
      { ALT: () => this.SUBRULE(this.query, { LABEL: 'query' }) },
    ]);
  });

  /** `SUMMARIZE t` or `SUMMARIZE query`. */
  readonly summarizeStatement = this.RULE('summarizeStatement', () => {
    this.CONSUME(Kw.SUMMARIZE);
    this.OR([
      // `DESCRIBE pivot` is a table; `DESCRIBE PIVOT t ON ...` a query (pivot is not a reserved word).
      { GATE: () => !this.queryAhead(1, false), IGNORE_AMBIGUITIES: true, ALT: () => this.SUBRULE(this.qualifiedName, { LABEL: 'table' }) },
      { ALT: () => this.SUBRULE(this.query, { LABEL: 'query' }) },
    ]);
  });
}
