/**
 * The pseudo-text grammar of the TPC-H specification (clause 4.2.2.10) with
 * the word weights of the reference generator: sentences are built from noun
 * phrases, verb phrases, prepositional phrases and terminators.
 */
import type { Rng } from './random.js';

/** A list of choices with integer weights. */
export interface Weighted {
  readonly items: readonly string[];
  /** cumulative[i] = sum of the weights of items 0..i. */
  readonly cumulative: Int32Array;
}

function weighted(pairs: readonly (readonly [string, number])[]): Weighted {
  const cumulative = new Int32Array(pairs.length);
  let total = 0;
  pairs.forEach(([, w], i) => {
    total += w;
    cumulative[i] = total;
  });
  return { items: pairs.map(([s]) => s), cumulative };
}

/** One item of `dist`, drawn with probability proportional to its weight. */
export function pick(rng: Rng, dist: Weighted): string {
  const c = dist.cumulative;
  const r = rng.int(0, c[c.length - 1]! - 1);
  let i = 0;
  while (c[i]! <= r) i++;
  return dist.items[i]!;
}

const ones = (words: string): [string, number][] => words.split(',').map((w) => [w, 1]);

/** Nouns. */
export const NOUNS = weighted([
  ['packages', 40], ['requests', 40], ['accounts', 40], ['deposits', 40], ['foxes', 20], ['ideas', 20],
  ['theodolites', 20], ['pinto beans', 20], ['instructions', 20], ['dependencies', 10], ['excuses', 10],
  ['platelets', 10], ['asymptotes', 10], ['courts', 5], ['dolphins', 5],
  ...ones('multipliers,sauternes,warthogs,frets,dinos,attainments,somas,Tiresias,patterns,forges,braids,' +
    'frays,warhorses,dugouts,notornis,epitaphs,pearls,tithes,waters,orbits,gifts,sheaves,depths,' +
    'sentiments,decoys,realms,pains,grouches,escapades,hockey players'),
]);

/** Verbs. */
export const VERBS = weighted([
  ['sleep', 20], ['wake', 20], ['are', 20], ['cajole', 20], ['haggle', 20], ['nag', 10], ['use', 10],
  ['boost', 10], ['affix', 5], ['detect', 5], ['integrate', 5],
  ...ones('maintain,nod,was,lose,sublate,solve,thrash,promise,engage,hinder,print,x-ray,breach,eat,grow,' +
    'impress,mold,poach,serve,run,dazzle,snooze,doze,unwind,kindle,play,hang,believe,doubt'),
]);

/** Adjectives. */
export const ADJECTIVES = weighted([
  ['special', 20], ['pending', 20], ['unusual', 20], ['express', 20],
  ...ones('furious,sly,careful,blithe,quick,fluffy,slow,quiet,ruthless,thin,close,dogged,daring,brave,' +
    'stealthy,permanent,enticing,idle,busy'),
  ['regular', 50], ['final', 40], ['ironic', 40], ['even', 30], ['bold', 20], ['silent', 10],
]);

/** Adverbs. */
export const ADVERBS = weighted([
  ...ones('sometimes,always,never'),
  ['furiously', 50], ['slyly', 50], ['carefully', 50], ['blithely', 40], ['quickly', 30], ['fluffily', 20],
  ...ones('slowly,quietly,ruthlessly,thinly,closely,doggedly,daringly,bravely,stealthily,permanently,' +
    'enticingly,idly,busily,regularly,finally,ironically,evenly,boldly,silently'),
]);

/** Prepositions. */
export const PREPOSITIONS = weighted([
  ['about', 50], ['above', 50], ['according to', 50], ['across', 50], ['after', 50], ['against', 40],
  ['along', 40], ['alongside of', 30], ['among', 30], ['around', 20], ['at', 10],
  ...ones('atop,before,behind,beneath,beside,besides,between,beyond,by,despite,during,except,for,from,' +
    'in place of,inside,instead of,into,near,of,on,outside,over,past,since,through,throughout,to,' +
    'toward,under,until,up,upon,without,with,within'),
]);

/** Auxiliaries. */
export const AUXILIARIES = weighted(
  ones('do,may,might,shall,will,would,can,could,should,ought to,must,will have to,shall have to,' +
    'could have to,should have to,must have to,need to,try to'),
);

/** Sentence terminators. */
export const TERMINATORS = weighted([['.', 50], [';', 1], [':', 1], ['?', 1], ['!', 1], ['--', 1]]);

/** Sentence forms: N noun phrase, V verb phrase, P prepositional phrase, T terminator. */
export const SENTENCES = weighted([['NVT', 3], ['NVPT', 3], ['NVNT', 3], ['NPVNT', 1], ['NPVPT', 1]]);

/** Noun phrase forms: N noun, J adjective, D adverb (',' separates two adjectives). */
export const NOUN_PHRASES = weighted([['N', 10], ['JN', 20], ['J,JN', 10], ['DJN', 50]]);

/** Verb phrase forms: V verb, X auxiliary, D adverb. */
export const VERB_PHRASES = weighted([['V', 30], ['XV', 1], ['VD', 40], ['XVD', 1]]);
