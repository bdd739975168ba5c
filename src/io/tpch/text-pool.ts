/**
 * The text pool comments are cut from. As in the reference generator, a long
 * run of grammar sentences is generated once, and every comment column value
 * is a substring of it at a random offset with a random length. The pool is
 * ASCII, so a comment's UTF-8 bytes are a plain byte copy.
 */
import { Rng, Stream, streamSeed } from './random.js';
import {
  ADJECTIVES, ADVERBS, AUXILIARIES, NOUNS, NOUN_PHRASES, PREPOSITIONS, SENTENCES, TERMINATORS,
  VERBS, VERB_PHRASES, pick,
} from './text-grammar.js';

/** Bytes in the pool (4 MiB: comments of at most 200 bytes rarely repeat). */
export const TEXT_POOL_SIZE = 1 << 22;

/** The pool's fixed seed: the pool is the same for every user seed (offsets differ). */
const POOL_SEED = 0x7e47;

function nounPhrase(rng: Rng, out: string[]): void {
  const form = pick(rng, NOUN_PHRASES);
  for (let i = 0; i < form.length; i++) {
    const c = form[i];
    if (c === ',') {
      out[out.length - 1] += ',';
    } else {
      out.push(pick(rng, c === 'N' ? NOUNS : c === 'J' ? ADJECTIVES : ADVERBS));
    }
  }
}

function verbPhrase(rng: Rng, out: string[]): void {
  const form = pick(rng, VERB_PHRASES);
  for (let i = 0; i < form.length; i++) {
    const c = form[i];
    out.push(pick(rng, c === 'V' ? VERBS : c === 'X' ? AUXILIARIES : ADVERBS));
  }
}

/** Appends the words of one sentence to `out` (the terminator glued to the last word). */
function sentence(rng: Rng, out: string[]): void {
  const form = pick(rng, SENTENCES);
  for (let i = 0; i < form.length; i++) {
    switch (form[i]) {
      case 'N':
        nounPhrase(rng, out);
        break;
      case 'V':
        verbPhrase(rng, out);
        break;
      case 'P':
        out.push(pick(rng, PREPOSITIONS), 'the');
        nounPhrase(rng, out);
        break;
      default:
        out[out.length - 1] += pick(rng, TERMINATORS);
    }
  }
}

let pool: Uint8Array | undefined;

/** The shared text pool (built on first use, ~70 ms). */
export function textPool(): Uint8Array {
  if (pool === undefined) {
    const rng = new Rng();
    rng.reset(streamSeed(POOL_SEED, Stream.TextPool), 0);
    const chunks: string[] = [];
    let length = 0;
    const words: string[] = [];
    while (length <= TEXT_POOL_SIZE) {
      words.length = 0;
      sentence(rng, words);
      const text = words.join(' ');
      chunks.push(text);
      length += text.length + 1;
    }
    pool = new TextEncoder().encode(chunks.join(' ')).subarray(0, TEXT_POOL_SIZE);
  }
  return pool;
}
