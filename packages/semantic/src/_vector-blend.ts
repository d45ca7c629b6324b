/**
 * The vector blend: word vectors and the embedder reorder the lexical matches. They never add a
 * tool that shares no term or concept with the query (averaged word vectors of unrelated texts are
 * still fairly similar); the lexical score counts relative to the query's best, plus each weighted
 * cosine similarity.
 * @module
 */
import { type _Candidates, _rerankWindow } from './_candidates.js';
import type { _Entry } from './_inverted-index.js';
import { vectorSimilarity } from './word-vectors.js';

/** The query's vectors and their weights in the blend. @internal */
export interface _QueryVectors {
  /** The query's word vector, or null (word vectors off, or no word has one). */
  readonly wordVector: Float32Array | null;
  readonly vectorWeight: number;
  /** The embedder's unit vector of the query, or null (no embedder, or nothing to embed). */
  readonly embedding: Float32Array | null;
  readonly embeddingWeight: number;
}

/**
 * Blends the candidates' scores with their vectors' similarity to the query's, recording each
 * cosine for the ranker. Only the best `_RERANK_DEPTH` lexical matches (or `limit`, if more) gain
 * similarity; the rest keep their relative lexical score, which is what bounds the cost on big
 * catalogs. Returns whether the query has a vector at all (scores are relative only then). @internal
 */
export function _blendVectors(
  state: _Candidates,
  slots: readonly (_Entry | undefined)[],
  query: _QueryVectors,
  limit: number,
): boolean {
  const { wordVector, embedding: queryEmbedding } = query;
  const blended = wordVector !== null || queryEmbedding !== null;
  const { candidates, scores } = state;
  if (!blended || candidates.length === 0) return blended;
  const cosines = state.features?.cosines ?? null;
  const { best, floor } = _rerankWindow(scores, limit);
  candidates.forEach((slot, i) => {
    if (scores[i] === Number.NEGATIVE_INFINITY || best <= 0) return;
    const lexical = scores[i]! / best;
    const { vector, embedding } = slots[slot]!;
    let score = lexical;
    if (scores[i]! >= floor) {
      if (wordVector !== null && vector !== null) {
        const cos = vectorSimilarity(wordVector, vector);
        score += query.vectorWeight * cos;
        if (cosines !== null) cosines[2 * i] = cos;
      }
      if (queryEmbedding !== null && embedding !== null) {
        const cos = vectorSimilarity(queryEmbedding, embedding);
        score += query.embeddingWeight * cos;
        if (cosines !== null) cosines[2 * i + 1] = cos;
      }
    }
    scores[i] = score;
  });
  return blended;
}
