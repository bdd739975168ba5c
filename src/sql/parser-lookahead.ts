/**
 * A lazy LL(k) lookahead strategy for the SQL parser. chevrotain's
 * `performSelfAnalysis` computes the lookahead function of every OR, OPTION
 * and MANY of the grammar up front: ~1.0–1.4 s for eddy's grammar, paid by
 * every process (the REPL's start, each of the test files). This strategy
 * builds each function the first time that decision is taken while parsing
 * and keeps it, so a process pays only for the parts of the grammar its
 * statements reach (a simple SELECT needs a fraction of them). Decisions are
 * identical to chevrotain's own LLkLookaheadStrategy, which does the work;
 * grammar validation (the tests' `validate: true`) is delegated to it too.
 */
import { LLkLookaheadStrategy, type ILookaheadStrategy, type ILookaheadValidationError, type IOrAlt, type Rule, type TokenType } from 'chevrotain';

type AltOptions = Parameters<ILookaheadStrategy['buildLookaheadForAlternation']>[0];
type OptOptions = Parameters<ILookaheadStrategy['buildLookaheadForOptional']>[0];
type AltFn = (this: unknown, orAlts?: IOrAlt<unknown>[]) => number | undefined;
type OptFn = (this: unknown) => boolean;

/** How many lookahead functions were built so far in this process (tests check the laziness with it). */
export const lookaheadStats = { built: 0 };

/** chevrotain's LL(k) strategy, with each lookahead function built on its first call. */
export class LazyLookaheadStrategy implements ILookaheadStrategy {
  private readonly inner: InstanceType<typeof LLkLookaheadStrategy>;

  constructor(options: { readonly maxLookahead: number }) {
    this.inner = new LLkLookaheadStrategy({ maxLookahead: options.maxLookahead });
  }

  validate(options: { rules: Rule[]; tokenTypes: TokenType[]; grammarName: string }): ILookaheadValidationError[] {
    return this.inner.validate(options);
  }

  buildLookaheadForAlternation(options: AltOptions): (orAlts?: IOrAlt<unknown>[]) => number | undefined {
    const inner = this.inner;
    let built: AltFn | undefined;
    return function lazyAlternation(this: unknown, orAlts?: IOrAlt<unknown>[]): number | undefined {
      if (built === undefined) {
        built = inner.buildLookaheadForAlternation(options) as AltFn;
        lookaheadStats.built++;
      }
      return built.call(this, orAlts);
    };
  }

  buildLookaheadForOptional(options: OptOptions): () => boolean {
    const inner = this.inner;
    let built: OptFn | undefined;
    return function lazyOptional(this: unknown): boolean {
      if (built === undefined) {
        built = inner.buildLookaheadForOptional(options) as OptFn;
        lookaheadStats.built++;
      }
      return built.call(this);
    };
  }
}
