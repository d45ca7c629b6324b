/**
 * The learned re-ranker of {@link ToolIndex}: a linear model over per-candidate features of the
 * best lexical matches (the signals the index computes anyway: BM25F field scores, concepts, word
 * vectors, static embeddings, server affinity, name coverage, verb and subject matches, ranks),
 * trained by pairwise logistic regression on the MCP tuning tasks (`scripts/train-ranker.mjs`,
 * which regenerates `src/_ranker-weights.data.ts`). See the README, "Round 5".
 * @module
 */
import { _RANKER_WEIGHTS } from './_ranker-weights.data.js';
import { SemanticError } from './errors.js';

/**
 * The features of one (query, candidate tool) pair, in vector order. Scores are relative to the
 * query's best candidate, so they mean the same for short and long queries:
 *
 * - `blend`: the index's hand-weighted score (lexical, vectors, embeddings, server) / the best.
 * - `lexical`: BM25F of words and concepts, with the verb/subject boosts, / the best.
 * - `words`, `concepts`: BM25F of the word terms / of the concept terms, each / its best.
 * - `wordVector`, `staticEmbedding`: cosine of the query's and the tool's vectors (0 when none).
 * - `server`: the tool's namespace's BM25 score / the best namespace's (0 with one namespace).
 * - `field.<f>`: BM25 of the word terms in field f alone (unboosted, saturated per field) / the
 *   best `lexical` score before division.
 * - `verbMatch`, `subjectMatch`: 1 when the query's verb class is the tool's / names its subject.
 * - `nameCoverage`: the idf-weighted share of the name's words (server words excluded) the query asks for.
 * - `lexicalRank`, `embeddingRank`: 1 / log2(rank + 2) of the tool among the candidates by
 *   `lexical` and by `staticEmbedding` (rank 0 = best).
 * - `serverVote10`, `serverVote5`: the share of the first 10 (5) candidates' `blend` that tools of
 *   the tool's own namespace hold: the server most of the best hits come from is the likely one,
 *   and a multi-step task needs several of its tools.
 * - `serverCount10`: how many of the first 10 candidates are of the tool's namespace, / 10.
 * - `serverRank`: 1 / log2(rank + 2) of the tool among its own namespace's candidates.
 * - `serverSize`: ln(tools in the namespace) / ln(tools in the index) (0 with one tool).
 */
export const RANKER_FEATURES = Object.freeze([
  'blend',
  'lexical',
  'words',
  'concepts',
  'wordVector',
  'staticEmbedding',
  'server',
  'field.name',
  'field.annotations',
  'field.description',
  'field.params',
  'field.namespace',
  'field.server',
  'field.instructions',
  'verbMatch',
  'subjectMatch',
  'nameCoverage',
  'lexicalRank',
  'embeddingRank',
  'serverVote10',
  'serverVote5',
  'serverCount10',
  'serverRank',
  'serverSize',
] as const);

/** A feature name of {@link RANKER_FEATURES}. */
export type RankerFeature = (typeof RANKER_FEATURES)[number];

/** A linear re-ranker: score = sigmoid(bias + Σ weights[i] × feature i). */
export interface LearnedRanker {
  /** The feature names, exactly {@link RANKER_FEATURES} in order. */
  readonly features: readonly string[];
  /** One weight per feature. */
  readonly weights: readonly number[];
  /** Added before the sigmoid (it does not change the order). */
  readonly bias: number;
}

/** The ranker shipped with the package (trained on the MCP tuning tasks). */
export const DEFAULT_RANKER: LearnedRanker = Object.freeze({
  features: RANKER_FEATURES,
  weights: Object.freeze([..._RANKER_WEIGHTS.weights]),
  bias: _RANKER_WEIGHTS.bias,
});

/** Checks a ranker's shape; throws {@link SemanticError} `INVALID_ARGUMENT`. @internal */
export function _checkRanker(ranker: LearnedRanker): LearnedRanker {
  const names = ranker?.features;
  if (
    !Array.isArray(names) ||
    names.length !== RANKER_FEATURES.length ||
    names.some((n, i) => n !== RANKER_FEATURES[i])
  ) {
    throw new SemanticError(
      'INVALID_ARGUMENT',
      `ranker.features: expected ${JSON.stringify(RANKER_FEATURES)}, got ${JSON.stringify(names)?.slice(0, 200)}`,
    );
  }
  const weights = ranker.weights;
  if (
    !Array.isArray(weights) ||
    weights.length !== RANKER_FEATURES.length ||
    weights.some((w) => typeof w !== 'number' || !Number.isFinite(w))
  ) {
    throw new SemanticError(
      'INVALID_ARGUMENT',
      `ranker.weights: expected ${RANKER_FEATURES.length} finite numbers, got ${JSON.stringify(weights)?.slice(0, 200)}`,
    );
  }
  if (typeof ranker.bias !== 'number' || !Number.isFinite(ranker.bias)) {
    throw new SemanticError(
      'INVALID_ARGUMENT',
      `ranker.bias: expected a finite number, got ${String(ranker.bias)}`,
    );
  }
  return ranker;
}

/** The ranker's score of one feature row, in (0, 1). @internal */
export function _rankerScore(ranker: LearnedRanker, row: ArrayLike<number>): number {
  let z = ranker.bias;
  const w = ranker.weights;
  for (let i = 0; i < w.length; i++) z += w[i]! * row[i]!;
  return 1 / (1 + Math.exp(-z));
}
