/**
 * Learned re-ranking (`ToolIndexOptions.ranker`): the feature row ({@link RANKER_FEATURES}) of
 * each of the best candidates by the blended score — the signals the index computed anyway, each
 * relative to the query's best, plus ranks and the evidence of the candidates' servers — and the
 * linear model's scores in place of the blend.
 * @module
 */
import { type _Candidates, type _FeatureInputs, _RERANK_DEPTH } from './_candidates.js';
import type { _InvertedIndex } from './_inverted-index.js';
import { _nameShare } from './_name-coverage.js';
import type { _NamespaceIndex } from './_server-affinity.js';
import { _rankerScore, type LearnedRanker, RANKER_FEATURES } from './ranker.js';
import { _LEX_FIELDS } from './tool-document.js';

/** Server-evidence features per candidate (the last five of RANKER_FEATURES). */
const _SERVER_FEATURES = 5;

/** What re-ranking reads besides the candidates. @internal */
export interface _RerankContext {
  readonly index: _InvertedIndex;
  readonly namespaces: _NamespaceIndex;
  /** Each namespace's BM25 score relative to the best (empty without server affinity). */
  readonly nsScores: ReadonlyMap<string, number>;
  /** The weighted index terms of the query. */
  readonly weights: ReadonlyMap<string, number>;
  /** The model, or null to compute the features only. */
  readonly ranker: LearnedRanker | null;
}

/**
 * The best `_RERANK_DEPTH` candidates (or `limit`, if more) by the blended score get a feature row
 * each; the sink, when given, receives them in that order; with a ranker, their scores become the
 * model's and every other candidate is dropped. @internal
 */
export function _rerank(
  context: _RerankContext,
  state: _Candidates,
  features: _FeatureInputs,
  limit: number,
  sink: ((ids: string[], rows: Float64Array[]) => void) | undefined,
): void {
  const idOf = (i: number): string => context.index.slots[state.candidates[i]!]!.doc.id;
  const top = _topCandidates(state.scores, idOf, Math.max(_RERANK_DEPTH, limit));
  const rows = _featureRows(context, state, features, top);
  if (sink !== undefined) sink(top.map(idOf), rows);
  if (context.ranker === null) return;
  _applyRanker(context.ranker, state.scores, top, rows);
}

/** The `depth` best candidates (not filtered out), best first, ties by id. */
function _topCandidates(scores: Float64Array, idOf: (i: number) => string, depth: number): number[] {
  let order: number[] = [];
  for (let i = 0; i < scores.length; i++) if (scores[i] !== Number.NEGATIVE_INFINITY) order.push(i);
  if (order.length > depth) {
    // Numeric selection first: sorting thousands of candidates by id would cost more than the model.
    const floor = Float64Array.from(order, (i) => scores[i]!).sort()[order.length - depth]!;
    order = order.filter((i) => scores[i]! >= floor);
  }
  order.sort((x, y) => scores[y]! - scores[x]! || (idOf(x) < idOf(y) ? -1 : 1));
  return order.slice(0, depth);
}

/** One row of {@link RANKER_FEATURES} per top candidate, in its order. */
function _featureRows(
  context: _RerankContext,
  state: _Candidates,
  features: _FeatureInputs,
  top: readonly number[],
): Float64Array[] {
  const { index, nsScores, weights } = context;
  const { candidates, scores, lex, con } = state;
  const { fieldAcc, matches, lexical, cosines } = features;
  const best = _bestSignals(state, features, top);
  const rel = (x: number, max: number): number => (max > 0 ? x / max : 0);
  const lexicalRank = _rankDiscounts(top, (i) => lexical[i]!);
  const embeddingRank = _rankDiscounts(top, (i) => cosines[2 * i + 1]!);
  const server = _serverEvidence(
    context,
    top.map((i) => ({ slot: candidates[i]!, blend: rel(scores[i]!, best.blend) })),
  );
  return top.map((i, r) => {
    const slot = candidates[i]!;
    const entry = index.slots[slot]!;
    const row = new Float64Array(RANKER_FEATURES.length);
    row[0] = rel(scores[i]!, best.blend);
    row[1] = rel(lexical[i]!, best.lexical);
    row[2] = rel(lex[slot]!, best.words);
    row[3] = rel(con[slot]!, best.concepts);
    row[4] = cosines[2 * i]!;
    row[5] = cosines[2 * i + 1]!;
    row[6] = nsScores.get(entry.doc.namespace ?? '') ?? 0;
    for (let f = 0; f < _LEX_FIELDS; f++) row[7 + f] = rel(fieldAcc[slot * _LEX_FIELDS + f]!, best.lexical);
    row[14] = matches[i]! & 1;
    row[15] = (matches[i]! >> 1) & 1;
    row[16] = _nameShare(index, slot, weights);
    row[17] = lexicalRank.get(i)!;
    row[18] = embeddingRank.get(i)!;
    for (let k = 0; k < _SERVER_FEATURES; k++) row[19 + k] = server[r * _SERVER_FEATURES + k]!;
    return row;
  });
}

/** The best blended score, lexical score, word BM25F and concept BM25F among the top candidates. */
function _bestSignals(
  state: _Candidates,
  features: _FeatureInputs,
  top: readonly number[],
): { blend: number; lexical: number; words: number; concepts: number } {
  const best = { blend: 0, lexical: 0, words: 0, concepts: 0 };
  for (const i of top) {
    const slot = state.candidates[i]!;
    best.blend = Math.max(best.blend, state.scores[i]!);
    best.lexical = Math.max(best.lexical, features.lexical[i]!);
    best.words = Math.max(best.words, state.lex[slot]!);
    best.concepts = Math.max(best.concepts, state.con[slot]!);
  }
  return best;
}

/** 1 / log2(rank + 2) of each top candidate when ranked by `value` (ties in top order). */
function _rankDiscounts(top: readonly number[], value: (i: number) => number): Map<number, number> {
  const position = new Map(top.map((i, r) => [i, r]));
  const sorted = [...top].sort((x, y) => value(y) - value(x) || position.get(x)! - position.get(y)!);
  return new Map(sorted.map((i, r) => [i, 1 / Math.log2(r + 2)]));
}

/** Replaces the top candidates' scores by the model's and drops every other candidate. */
function _applyRanker(
  ranker: LearnedRanker,
  scores: Float64Array,
  top: readonly number[],
  rows: readonly Float64Array[],
): void {
  const kept = new Set(top);
  for (let i = 0; i < scores.length; i++) if (!kept.has(i)) scores[i] = Number.NEGATIVE_INFINITY;
  top.forEach((i, r) => {
    scores[i] = _rankerScore(ranker, rows[r]!);
  });
}

/**
 * Server evidence of ranked candidates (best first, `blend` relative to the best), flattened,
 * {@link _SERVER_FEATURES} per candidate: the share of the first 10 and first 5 candidates'
 * blend held by the candidate's namespace, the count of its namespace among the first 10 / 10,
 * 1 / log2(rank + 2) among its namespace's candidates, and ln(namespace size) / ln(index size).
 */
function _serverEvidence(
  context: _RerankContext,
  ranked: readonly { readonly slot: number; readonly blend: number }[],
): Float64Array {
  const out = new Float64Array(ranked.length * _SERVER_FEATURES);
  const mass10 = new Map<string, number>();
  const mass5 = new Map<string, number>();
  const count10 = new Map<string, number>();
  let total10 = 0;
  let total5 = 0;
  const nsOf = (r: number): string => context.index.slots[ranked[r]!.slot]!.doc.namespace ?? '';
  for (let r = 0; r < Math.min(10, ranked.length); r++) {
    const ns = nsOf(r);
    const b = Math.max(0, ranked[r]!.blend);
    mass10.set(ns, (mass10.get(ns) ?? 0) + b);
    count10.set(ns, (count10.get(ns) ?? 0) + 1);
    total10 += b;
    if (r < 5) {
      mass5.set(ns, (mass5.get(ns) ?? 0) + b);
      total5 += b;
    }
  }
  const seen = new Map<string, number>();
  const logSize = Math.log(context.index.entries.size);
  for (let r = 0; r < ranked.length; r++) {
    const ns = nsOf(r);
    const within = seen.get(ns) ?? 0;
    seen.set(ns, within + 1);
    const o = r * _SERVER_FEATURES;
    out[o] = total10 > 0 ? (mass10.get(ns) ?? 0) / total10 : 0;
    out[o + 1] = total5 > 0 ? (mass5.get(ns) ?? 0) / total5 : 0;
    out[o + 2] = (count10.get(ns) ?? 0) / 10;
    out[o + 3] = 1 / Math.log2(within + 2);
    out[o + 4] = logSize > 0 ? Math.log(context.namespaces.toolCount(ns) ?? 1) / logSize : 0;
  }
  return out;
}
