/**
 * Candidate generation for one query: term-at-a-time BM25F over the postings (field frequencies
 * combined before one saturation, Robertson, Zaragoza and Taylor 2004), the verb-class and
 * data-subject boosts and the domain filter; and the candidate state the later steps (vector
 * blend, server affinity, name coverage, learned ranker) read and rewrite.
 * @module
 */
import type { _InvertedIndex } from './_inverted-index.js';
import type { _QueryTerms } from './_query-terms.js';
import { CONCEPT_PREFIX } from './concepts.js';
import { _FIELD_COUNT, _FIELDS, _LEX_FIELDS } from './tool-document.js';
import type { _IndexSettings } from './tool-index-options.js';
import type { VerbClass } from './verbs.js';

/** How many of the best lexical matches the vectors, name coverage and ranker reorder (at least `limit`). @internal */
export const _RERANK_DEPTH = 100;

/** The candidates of one query. @internal */
export interface _Candidates {
  /** Slots of the tools that match at least one weighted term, in first-match order. */
  readonly candidates: readonly number[];
  /** Per candidate: its score, rewritten by each step; −∞ = filtered out. */
  readonly scores: Float64Array;
  /** Per slot: BM25F of the word terms. */
  readonly lex: Float64Array;
  /** Per slot: BM25F of the concept terms. */
  readonly con: Float64Array;
  /** What the learned ranker's features need beyond that; null when no one asks for features. */
  readonly features: _FeatureInputs | null;
}

/** Per-candidate signals kept for the ranker's features. @internal */
export interface _FeatureInputs {
  /** Per slot and word field (`slot * _LEX_FIELDS + f`): BM25 of the word terms in that field, unboosted. */
  readonly fieldAcc: Float64Array;
  /** Per candidate: bit 0 = verb class matched, bit 1 = data subject matched. */
  readonly matches: Uint8Array;
  /** Per candidate: the score after the boosts, before any blend. */
  readonly lexical: Float64Array;
  /** Per candidate: cosine of the word vectors (`2i`) and of the embeddings (`2i + 1`), 0 when none. */
  readonly cosines: Float64Array;
}

/**
 * The tools that share a weighted term with the query, scored by BM25F times the boosts (tools
 * outside `domain` at −∞), with the ranker's inputs when `features` is set. @internal
 */
export function _candidates(
  index: _InvertedIndex,
  settings: _IndexSettings,
  query: _QueryTerms,
  domain: string | undefined,
  features: boolean,
): _Candidates {
  const { candidates, lex, con, fieldAcc } = _scoreBm25f(index, settings, query.weights, features);
  const scores = new Float64Array(candidates.length);
  const matches = features ? new Uint8Array(candidates.length) : null;
  _boostIntentMatches(index, settings, { candidates, lex, con, scores, matches }, query, domain);
  return {
    candidates,
    scores,
    lex,
    con,
    features:
      features && fieldAcc !== null && matches !== null
        ? {
            fieldAcc,
            matches,
            lexical: Float64Array.from(scores),
            cosines: new Float64Array(candidates.length * 2),
          }
        : null,
  };
}

/**
 * The best score and the lowest score the reordering steps reach: that of the `max(_RERANK_DEPTH,
 * limit)`-th best (ties included). @internal
 */
export function _rerankWindow(scores: Float64Array, limit: number): { best: number; floor: number } {
  const sorted = Float64Array.from(scores).sort();
  const best = sorted[sorted.length - 1]!;
  const floor = sorted[Math.max(0, sorted.length - Math.max(_RERANK_DEPTH, limit))]!;
  return { best, floor };
}

/**
 * Term-at-a-time BM25F of the weighted index terms, terms in sorted order so the float sums never
 * depend on insertion order; word terms and concept terms accumulate apart, and with `features`
 * the word terms' BM25 of each field alone, unboosted.
 */
function _scoreBm25f(
  index: _InvertedIndex,
  settings: _IndexSettings,
  weights: ReadonlyMap<string, number>,
  features: boolean,
): { candidates: number[]; lex: Float64Array; con: Float64Array; fieldAcc: Float64Array | null } {
  const n = index.entries.size;
  const { k1, b } = settings;
  const norm = new Float64Array(_FIELD_COUNT);
  const boosts = _FIELDS.map((f) => settings.boosts[f]);
  for (let f = 0; f < _FIELD_COUNT; f++) norm[f] = index.totalLen[f]! > 0 ? n / index.totalLen[f]! : 1;
  const size = index.slots.length;
  const lex = new Float64Array(size);
  const con = new Float64Array(size);
  const touched = new Uint8Array(size);
  const candidates: number[] = [];
  // Features of the learned ranker: per-field BM25 of the word terms, unboosted.
  const fieldAcc = features ? new Float64Array(size * _LEX_FIELDS) : null;
  for (const term of [...weights.keys()].sort()) {
    const posting = index.postings.get(term)!;
    const df = posting.slots.length;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const scale = weights.get(term)! * idf;
    const acc = term.startsWith(CONCEPT_PREFIX) ? con : lex;
    const { slots, tf: tfs } = posting;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      const len = index.slots[slot]!.len;
      let tf = 0;
      for (let f = 0, o = i * _FIELD_COUNT; f < _FIELD_COUNT; f++, o++) {
        const c = tfs[o]!;
        if (c !== 0) tf += (boosts[f]! * c) / (1 - b + b * len[f]! * norm[f]!);
      }
      if (tf === 0) continue;
      acc[slot] = acc[slot]! + (scale * (tf * (k1 + 1))) / (k1 + tf);
      if (fieldAcc !== null && acc === lex) {
        for (let f = 0, o = i * _FIELD_COUNT; f < _LEX_FIELDS; f++, o++) {
          const c = tfs[o]!;
          if (c === 0) continue;
          const t = c / (1 - b + b * len[f]! * norm[f]!);
          fieldAcc[slot * _LEX_FIELDS + f] =
            fieldAcc[slot * _LEX_FIELDS + f]! + (scale * t * (k1 + 1)) / (k1 + t);
        }
      }
      if (touched[slot] === 0) {
        touched[slot] = 1;
        candidates.push(slot);
      }
    }
  }
  return { candidates, lex, con, fieldAcc };
}

/**
 * Each candidate's score: its word and concept BM25F times 1 + `verbBoost` when the query's verb
 * class is the tool's, or − `verbConflict` when the query asks for the opposite (see
 * {@link _contradicts}), + `subjectBoost` when the query names one of its subjects (recorded in
 * `matches`); −∞ for a tool outside `domain`.
 */
function _boostIntentMatches(
  index: _InvertedIndex,
  settings: _IndexSettings,
  state: {
    readonly candidates: readonly number[];
    readonly lex: Float64Array;
    readonly con: Float64Array;
    readonly scores: Float64Array;
    readonly matches: Uint8Array | null;
  },
  query: _QueryTerms,
  domain: string | undefined,
): void {
  const { candidates, lex, con, scores, matches } = state;
  candidates.forEach((slot, i) => {
    const entry = index.slots[slot]!;
    if (domain !== undefined && entry.domain !== domain) {
      scores[i] = Number.NEGATIVE_INFINITY;
      return;
    }
    let bonus = 1;
    if (entry.verbClass !== null && query.classes.has(entry.verbClass)) {
      bonus += settings.verbBoost;
      if (matches !== null) matches[i] = 1;
    } else if (_contradicts(query, entry.verbClass)) {
      bonus -= settings.verbConflict;
    }
    for (const s of entry.subjects) {
      if (query.words.has(s)) {
        bonus += settings.subjectBoost;
        if (matches !== null) matches[i] = matches[i]! | 2;
        break;
      }
    }
    scores[i] = (lex[slot]! + con[slot]!) * bonus;
  });
}

/** Verb classes that read, and verb classes that change: each contradicts the other. */
const _READS: ReadonlySet<VerbClass> = new Set(['read', 'list']);
const _CHANGES: ReadonlySet<VerbClass> = new Set(['write', 'update', 'delete']);

/**
 * True when the query asks for the opposite of what the tool does: it starts with a verb (an
 * imperative, "save the text …"), names no verb of another class, and that verb reads where the
 * tool changes, or changes where the tool reads. A query that names several kinds of action (a
 * task of several steps) contradicts nothing.
 */
function _contradicts(query: _QueryTerms, verbClass: VerbClass | null): boolean {
  if (verbClass === null || query.lead === null || query.classes.size !== 1) return false;
  return (
    (_READS.has(query.lead) && _CHANGES.has(verbClass)) || (_CHANGES.has(query.lead) && _READS.has(verbClass))
  );
}
