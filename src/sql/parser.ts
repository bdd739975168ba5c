/**
 * The SQL parser: statement rules (chevrotain CstParser, rules as class
 * properties) on top of the query rules of parser-query.ts and the
 * expression rules of parser-expr.ts. `sqlParser()` builds the one instance
 * on first use; every parse reuses it. Entry rules: `statement`, `query`,
 * `expression`, `selectList`.
 */
import { EarlyExitException, NoViableAltException } from 'chevrotain';
import { Comma, Eq, Ident, Kw, LParen, Minus, NumberLit, RParen, StringLit } from './lexer.js';
import { DmlParser } from './parser-dml.js';

/** chevrotain's internal error recorder (a method of every parser, absent from its typings). */
interface ErrorRecorder {
  SAVE_ERROR(e: Error): Error;
}

/** The full SQL grammar. Build it once through `sqlParser()`. */
export class SqlParser extends DmlParser {
  /** Builds and analyses the grammar; `validate` also runs chevrotain's grammar checks (the tests do). */
  constructor(options: { readonly validate?: boolean } = {}) {
    super(options.validate ?? false);
    this.performSelfAnalysis();
  }

  /**
   * Overrides chevrotain's (13.2) no-viable-alternative error, which first computes every expected token path of
   * the failing decision: slow, and unused here since parse-errors.ts finds what was expected by itself.
   */
  raiseNoAltException(): never {
    throw (this as unknown as ErrorRecorder).SAVE_ERROR(new NoViableAltException('no viable alternative', this.LA(1), this.LA(0)));
  }

  /** As raiseNoAltException, for AT_LEAST_ONE loops that found no first iteration. */
  raiseEarlyExitException(): never {
    throw (this as unknown as ErrorRecorder).SAVE_ERROR(new EarlyExitException('expected at least one', this.LA(1), this.LA(0)));
  }

  /** One statement, without its `;`. */
  readonly statement = this.RULE('statement', () => {
    this.OR([
      { ALT: () => this.SUBRULE(this.query, { LABEL: 'query' }) },
      { ALT: () => this.SUBRULE(this.createStatement, { LABEL: 'create' }) },
      { ALT: () => this.SUBRULE(this.insertStatement, { LABEL: 'insert' }) },
      { ALT: () => this.SUBRULE(this.dropStatement, { LABEL: 'drop' }) },
      { ALT: () => { this.CONSUME(Kw.SHOW); this.OR2([{ ALT: () => this.CONSUME(Kw.TABLES, { LABEL: 'showTables' }) }, { ALT: () => this.CONSUME(Kw.CACHES, { LABEL: 'showCaches' }) }]); } },
      { ALT: () => this.SUBRULE(this.describeStatement, { LABEL: 'describe' }) },
      {
        ALT: () => {
          this.CONSUME(Kw.EXPLAIN, { LABEL: 'explain' });
          this.OPTION(() => this.CONSUME(Kw.ANALYZE, { LABEL: 'analyze' }));
          this.SUBRULE(this.statement, { LABEL: 'explained' });
        },
      },
      { ALT: () => this.SUBRULE(this.setStatement, { LABEL: 'set' }) },
      { ALT: () => this.SUBRULE(this.cacheStatement, { LABEL: 'cache' }) },
      {
        ALT: () => {
          this.CONSUME(Kw.UNCACHE, { LABEL: 'uncache' });
          this.CONSUME(Kw.TABLE);
          this.OPTION2(() => { this.CONSUME(Kw.IF, { LABEL: 'ifExists' }); this.CONSUME(Kw.EXISTS); });
          this.SUBRULE2(this.qualifiedName, { LABEL: 'name' });
        },
      },
      { ALT: () => { this.CONSUME(Kw.CLEAR, { LABEL: 'clearCache' }); this.CONSUME(Kw.CACHE); } },
      { ALT: () => this.SUBRULE(this.updateStatement, { LABEL: 'update' }) },
      { ALT: () => this.SUBRULE(this.deleteStatement, { LABEL: 'delete' }) },
      { ALT: () => this.SUBRULE(this.copyStatement, { LABEL: 'copy' }) },
      { ALT: () => this.SUBRULE(this.summarizeStatement, { LABEL: 'summarize' }) },
      {
        ALT: () => {
          this.CONSUME(Kw.PREPARE, { LABEL: 'prepare' });
          this.CONSUME(Ident, { LABEL: 'preparedName' });
          this.CONSUME(Kw.AS);
          this.SUBRULE2(this.query, { LABEL: 'prepared' });
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.EXECUTE, { LABEL: 'execute' });
          this.CONSUME2(Ident, { LABEL: 'preparedName' });
          this.OPTION3(() => {
            this.CONSUME(LParen);
            this.OPTION4(() => this.SUBRULE(this.expressionList, { LABEL: 'args' }));
            this.CONSUME(RParen);
          });
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.DEALLOCATE, { LABEL: 'deallocate' });
          this.OPTION5(() => this.CONSUME2(Kw.PREPARE));
          this.CONSUME3(Ident, { LABEL: 'preparedName' });
        },
      },
    ]);
  });

  /** CREATE [OR REPLACE] [TEMP] TABLE / VIEW / [UNIQUE] INDEX / EXTERNAL TABLE. */
  readonly createStatement = this.RULE('createStatement', () => {
    this.CONSUME(Kw.CREATE);
    this.OPTION(() => { this.CONSUME(Kw.OR, { LABEL: 'orReplace' }); this.CONSUME(Kw.REPLACE); });
    this.OPTION2(() => {
      this.OR([{ ALT: () => this.CONSUME(Kw.TEMP) }, { ALT: () => this.CONSUME(Kw.TEMPORARY) }]);
    });
    this.OR2([
      {
        ALT: () => {
          this.CONSUME(Kw.TABLE, { LABEL: 'table' });
          this.SUBRULE(this.ifNotExists, { LABEL: 'ifNotExists' });
          this.SUBRULE(this.qualifiedName, { LABEL: 'name' });
          this.OPTION8(() => this.SUBRULE(this.tableElements, { LABEL: 'elements' }));
          // Without elements AS is required (checked when building the AST); with them it is DataFusion's typed CTAS.
          this.OPTION9(() => { this.CONSUME(Kw.AS); this.SUBRULE(this.query, { LABEL: 'query' }); });
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.VIEW, { LABEL: 'view' });
          this.SUBRULE2(this.ifNotExists, { LABEL: 'ifNotExists' });
          this.SUBRULE2(this.qualifiedName, { LABEL: 'name' });
          this.OPTION3(() => this.SUBRULE(this.nameList, { LABEL: 'columns' }));
          this.CONSUME2(Kw.AS);
          this.SUBRULE2(this.query, { LABEL: 'query' });
        },
      },
      {
        ALT: () => {
          this.OPTION4(() => this.CONSUME(Kw.UNIQUE));
          this.CONSUME(Kw.INDEX, { LABEL: 'index' });
          this.SUBRULE3(this.ifNotExists, { LABEL: 'ifNotExists' });
          this.SUBRULE3(this.qualifiedName, { LABEL: 'name' });
          this.CONSUME(Kw.ON);
          this.SUBRULE4(this.qualifiedName, { LABEL: 'on' });
          this.CONSUME(LParen);
          this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.orderItem, { LABEL: 'indexColumns' }) });
          this.CONSUME(RParen);
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.EXTERNAL, { LABEL: 'external' });
          this.CONSUME2(Kw.TABLE);
          this.SUBRULE4(this.ifNotExists, { LABEL: 'ifNotExists' });
          this.SUBRULE5(this.qualifiedName, { LABEL: 'name' });
          this.OPTION5(() => this.SUBRULE2(this.tableElements, { LABEL: 'elements' }));
          this.CONSUME(Kw.STORED);
          this.CONSUME3(Kw.AS);
          this.CONSUME(Ident, { LABEL: 'format' });
          this.OPTION6(() => { this.CONSUME(Kw.WITH, { LABEL: 'withHeader' }); this.CONSUME(Kw.HEADER); this.CONSUME(Kw.ROW); });
          this.CONSUME(Kw.LOCATION);
          this.CONSUME(StringLit, { LABEL: 'location' });
          this.OPTION7(() => this.SUBRULE(this.optionList, { LABEL: 'options' }));
        },
      },
    ]);
  });

  /** Optional IF NOT EXISTS (an empty node when absent). */
  readonly ifNotExists = this.RULE('ifNotExists', () => {
    this.OPTION(() => { this.CONSUME(Kw.IF, { LABEL: 'present' }); this.CONSUME(Kw.NOT); this.CONSUME(Kw.EXISTS); });
  });

  /** `(col type [constraints], ..., [PRIMARY KEY (cols)])`. */
  readonly tableElements = this.RULE('tableElements', () => {
    this.CONSUME(LParen);
    this.AT_LEAST_ONE_SEP({
      SEP: Comma,
      DEF: () => {
        this.OR([
          {
            IGNORE_AMBIGUITIES: true,
            ALT: () => {
              this.OR2([
                { ALT: () => { this.CONSUME(Kw.PRIMARY); this.CONSUME(Kw.KEY); } },
                { ALT: () => this.CONSUME(Kw.UNIQUE) },
              ]);
              this.SUBRULE(this.nameList, { LABEL: 'primaryKey' });
            },
          },
          { ALT: () => this.SUBRULE(this.columnDef, { LABEL: 'columns' }) },
        ]);
      },
    });
    this.CONSUME(RParen);
  });

  /** `name type [NOT NULL | NULL | PRIMARY KEY | UNIQUE]...`. */
  readonly columnDef = this.RULE('columnDef', () => {
    this.CONSUME(Ident, { LABEL: 'name' });
    this.SUBRULE(this.typeName, { LABEL: 'type' });
    this.MANY(() => {
      this.OR([
        { ALT: () => { this.CONSUME(Kw.NOT, { LABEL: 'notNull' }); this.CONSUME(Kw.NULL); } },
        { ALT: () => this.CONSUME2(Kw.NULL) },
        { ALT: () => { this.CONSUME(Kw.PRIMARY, { LABEL: 'primaryKey' }); this.CONSUME(Kw.KEY); } },
        { ALT: () => this.CONSUME(Kw.UNIQUE) },
      ]);
    });
  });

  /** INSERT INTO t [(cols)] VALUES ... | query. */
  readonly insertStatement = this.RULE('insertStatement', () => {
    this.CONSUME(Kw.INSERT);
    this.CONSUME(Kw.INTO);
    this.SUBRULE(this.qualifiedName, { LABEL: 'table' });
    this.OPTION(() => this.SUBRULE(this.nameList, { LABEL: 'columns' }));
    this.SUBRULE(this.query, { LABEL: 'source' });
  });

  /** DROP TABLE | VIEW | INDEX [IF EXISTS] name. */
  readonly dropStatement = this.RULE('dropStatement', () => {
    this.CONSUME(Kw.DROP);
    this.OR([
      { ALT: () => this.CONSUME(Kw.TABLE, { LABEL: 'object' }) },
      { ALT: () => this.CONSUME(Kw.VIEW, { LABEL: 'object' }) },
      { ALT: () => this.CONSUME(Kw.INDEX, { LABEL: 'object' }) },
    ]);
    this.OPTION(() => { this.CONSUME(Kw.IF, { LABEL: 'ifExists' }); this.CONSUME(Kw.EXISTS); });
    this.SUBRULE(this.qualifiedName, { LABEL: 'name' });
  });

  /** SET name = value | SET name TO value | PRAGMA name [= value]. */
  readonly setStatement = this.RULE('setStatement', () => {
    this.OR([
      {
        ALT: () => {
          this.CONSUME(Kw.SET);
          this.SUBRULE(this.qualifiedName, { LABEL: 'name' });
          this.OR2([{ ALT: () => this.CONSUME(Eq) }, { ALT: () => this.CONSUME(Kw.TO) }]);
          this.SUBRULE(this.settingValue, { LABEL: 'value' });
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.PRAGMA);
          this.SUBRULE2(this.qualifiedName, { LABEL: 'name' });
          this.OPTION(() => { this.CONSUME2(Eq); this.SUBRULE2(this.settingValue, { LABEL: 'value' }); });
        },
      },
    ]);
  });

  /** CACHE [LAZY] TABLE name [OPTIONS (...)] [AS query]. */
  readonly cacheStatement = this.RULE('cacheStatement', () => {
    this.CONSUME(Kw.CACHE);
    this.OPTION(() => this.CONSUME(Kw.LAZY, { LABEL: 'lazy' }));
    this.CONSUME(Kw.TABLE);
    this.SUBRULE(this.qualifiedName, { LABEL: 'name' });
    this.OPTION2(() => this.SUBRULE(this.optionList, { LABEL: 'options' }));
    this.OPTION3(() => { this.CONSUME(Kw.AS); this.SUBRULE(this.query, { LABEL: 'query' }); });
  });

  /** `'key' [=] 'value'` in OPTIONS (...) lists; keys and values may also be names or numbers. */
  readonly optionList = this.RULE('optionList', () => {
    this.CONSUME(Kw.OPTIONS);
    this.CONSUME(LParen);
    this.MANY_SEP({
      SEP: Comma,
      DEF: () => {
        this.OR([{ ALT: () => this.CONSUME(StringLit, { LABEL: 'keys' }) }, { ALT: () => this.SUBRULE(this.qualifiedName, { LABEL: 'keys' }) }]);
        this.OPTION(() => this.CONSUME(Eq));
        this.SUBRULE(this.settingValue, { LABEL: 'values' });
      },
    });
    this.CONSUME(RParen, { LABEL: 'close' });
  });

  /** A literal or bare word as a setting or option value (`'x'`, `-5`, `true`, `main`). */
  readonly settingValue = this.RULE('settingValue', () => {
    this.OR([
      { ALT: () => this.CONSUME(StringLit, { LABEL: 'value' }) },
      { ALT: () => { this.OPTION(() => this.CONSUME(Minus, { LABEL: 'minus' })); this.CONSUME(NumberLit, { LABEL: 'value' }); } },
      { ALT: () => this.CONSUME(Kw.TRUE, { LABEL: 'value' }) },
      { ALT: () => this.CONSUME(Kw.FALSE, { LABEL: 'value' }) },
      { ALT: () => this.CONSUME(Kw.NULL, { LABEL: 'value' }) },
      { ALT: () => this.CONSUME(Ident, { LABEL: 'value' }) },
    ]);
  });
}

let instance: SqlParser | undefined;

/** The one SqlParser, built on first use (analysing the grammar takes ~0.1 s once; the checks run in the tests). */
export function sqlParser(): SqlParser {
  instance ??= new SqlParser();
  return instance;
}

