/**
 * A query as the index scores it: the verb classes and words its boosts compare, its term
 * frequencies (words and the concepts they evoke), and the index terms to score with their
 * weights — exact matches, prefix matches (`deploy` → `deployment`), one-edit typo matches for
 * words the catalog never uses, and optionally WordNet synonyms.
 * @module
 */
import type { _InvertedIndex } from './_inverted-index.js';
import { _verbLemma } from './_lemma.js';
import { CONCEPT_PREFIX, conceptWeights } from './concepts.js';
import { singularize } from './inflect.js';
import { stemWord, tokenizeForSearch } from './search-tokenizer.js';
import { synonymsOf } from './synonyms.js';
import type { _IndexSettings } from './tool-index-options.js';
import { VERB_GROUPS, type VerbClass, verbGroupOf, WEAK_VERBS } from './verbs.js';

/** Shortest query term that typo matching corrects (shorter words have too many neighbours). */
const TYPO_MIN_LENGTH = 4;

/** Weight of a query term matched only as a prefix of an index term (MiniSearch's default). */
const PREFIX_WEIGHT = 0.375;

/** Stems of the strong verbs of the verb table. */
const _VERB_STEMS: ReadonlySet<string> = (() => {
  const out = new Set<string>();
  for (const group of VERB_GROUPS) {
    for (const verb of group.verbs) if (!WEAK_VERBS.has(verb)) out.add(stemWord(verb));
  }
  return out;
})();

/** What the index scores a query with. @internal */
export interface _QueryTerms {
  /** The verb classes of the query's verbs (the verb-class boost). */
  readonly classes: ReadonlySet<VerbClass>;
  /** The class of the query's first word when it is a verb (an imperative: "save …"), else null. */
  readonly lead: VerbClass | null;
  /** The query's words, singular (the subject boost). */
  readonly words: ReadonlySet<string>;
  /** Query term weights: occurrences of each word, plus the concepts the words evoke. */
  readonly tf: ReadonlyMap<string, number>;
  /** The index terms to score, each with its weight. */
  readonly weights: ReadonlyMap<string, number>;
}

/** The terms of a query (non-empty after stop words) against an index. @internal */
export function _queryTerms(queryText: string, index: _InvertedIndex, settings: _IndexSettings): _QueryTerms {
  const { classes, words, lead } = _queryIntent(queryText);
  const base = tokenizeForSearch(queryText);
  const tf = _queryTermFrequencies(base, settings.concepts);
  const weights = _indexTermWeights(tf, index, settings);
  if (settings.synonymFirst > 0 || settings.synonymOther > 0) _expandSynonyms(base, weights, index, settings);
  return { classes, words, lead, tf, weights };
}

/** The verb classes the query's words name and its words in the singular. */
function _queryIntent(queryText: string): {
  classes: Set<VerbClass>;
  words: Set<string>;
  lead: VerbClass | null;
} {
  const classes = new Set<VerbClass>();
  const words = new Set<string>();
  let lead: VerbClass | null = null;
  let first = true;
  for (const m of queryText.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const lemma = _verbLemma(m[0]);
    if (lemma !== null) classes.add(verbGroupOf(lemma)!.verbClass);
    if (first && lemma !== null) lead = verbGroupOf(lemma)!.verbClass;
    first = false;
    words.add(singularize(m[0]));
  }
  return { classes, words, lead };
}

/** Occurrences of each search term, then the concepts the terms evoke (when `concepts` is on). */
function _queryTermFrequencies(base: readonly string[], concepts: boolean): Map<string, number> {
  const queryTf = new Map<string, number>();
  for (const t of base) queryTf.set(t, (queryTf.get(t) ?? 0) + 1);
  if (concepts) for (const [t, w] of conceptWeights(base)) queryTf.set(t, w);
  return queryTf;
}

/**
 * Index terms to score: the query terms themselves and, for words of `prefixMin` or more
 * characters, the index terms they prefix (weighted PREFIX_WEIGHT), e.g. `deploy` → `deployment`;
 * a word matching neither way brings the index terms one edit away. Strong verbs weigh
 * `verbTermWeight` as much (the verb-class boost carries their meaning).
 */
function _indexTermWeights(
  queryTf: ReadonlyMap<string, number>,
  index: _InvertedIndex,
  settings: _IndexSettings,
): Map<string, number> {
  const weights = new Map<string, number>();
  for (const [term, w] of queryTf) {
    const verbFactor = _VERB_STEMS.has(term) ? settings.verbTermWeight : 1;
    let found = index.postings.has(term);
    if (found) weights.set(term, Math.max(weights.get(term) ?? 0, w * verbFactor));
    if (term.startsWith(CONCEPT_PREFIX)) continue;
    if (settings.prefixMin > 0 && term.length >= settings.prefixMin) {
      if (_addPrefixMatches(term, PREFIX_WEIGHT * verbFactor, index, weights)) found = true;
    }
    // A word the catalog never uses, in any form, is most likely a typo of one it does.
    if (!found && settings.typoWeight > 0 && term.length >= TYPO_MIN_LENGTH) {
      _addTypoMatches(term, settings.typoWeight * verbFactor, index, weights);
    }
  }
  return weights;
}

/** Weighs the index terms `term` is a proper prefix of; true when there is one. */
function _addPrefixMatches(
  term: string,
  weight: number,
  index: _InvertedIndex,
  weights: Map<string, number>,
): boolean {
  let found = false;
  for (const derived of index.dictionary.atPrefix(term).keys()) {
    if (derived === term) continue;
    found = true;
    if ((weights.get(derived) ?? 0) < weight) weights.set(derived, weight);
  }
  return found;
}

/** Weighs the word terms of the index one edit away from `term`. */
function _addTypoMatches(
  term: string,
  weight: number,
  index: _InvertedIndex,
  weights: Map<string, number>,
): void {
  for (const near of index.dictionary.fuzzyGet(term, 1).keys()) {
    if (near.startsWith(CONCEPT_PREFIX)) continue;
    if ((weights.get(near) ?? 0) < weight) weights.set(near, weight);
  }
}

/** Adds the WordNet synonyms of the query's terms that the index holds, never lowering a weight. */
function _expandSynonyms(
  base: readonly string[],
  weights: Map<string, number>,
  index: _InvertedIndex,
  settings: _IndexSettings,
): void {
  const add = (term: string, w: number): void => {
    if (w <= 0 || !index.postings.has(term)) return;
    const weight = w * (_VERB_STEMS.has(term) ? settings.verbTermWeight : 1);
    if ((weights.get(term) ?? 0) < weight) weights.set(term, weight);
  };
  for (const term of [...new Set(base)].sort()) {
    const set = synonymsOf(term);
    if (set === undefined) continue;
    for (const s of set.first) add(s, settings.synonymFirst);
    for (const s of set.other) add(s, settings.synonymOther);
  }
}
