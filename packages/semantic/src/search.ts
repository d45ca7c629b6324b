/**
 * `@xprotocol/semantic/search` — tool search: the BM25F `ToolIndex` with its concept, word-vector
 * and static-embedding signals, `describeQuery`, and the search tokenizer. A subpath of its own
 * because the word vectors and static embeddings weigh 8.8 MB: annotations and quality scores (the
 * root entry) load without them.
 * @module
 */
export { CONCEPT_LEXICON, CONCEPT_PREFIX, conceptWeights } from './concepts.js';
export {
  DESCRIBE_DEFAULT_LIMIT,
  DESCRIBE_MAX_LIMIT,
  type DescribeMatch,
  type DescribeQuery,
  describeQuery,
} from './describe.js';
export { AGENT_JARGON } from './query-plan.js';
export {
  DEFAULT_RANKER,
  type LearnedRanker,
  RANKER_FEATURES,
  type RankerFeature,
} from './ranker.js';
export { STOP_WORDS, stemWord, tokenizeForSearch } from './search-tokenizer.js';
export { STATIC_EMBEDDING_DIMENSIONS, staticEmbedder, staticTextVector } from './static-embeddings.js';
export { type SynonymSet, synonymsOf } from './synonyms.js';
export { DEFAULT_EMBEDDER_WEIGHT, type TextEmbedder } from './text-embedder.js';
export {
  DEFAULT_FIELD_BOOSTS,
  type SearchField,
  type ToolDocument,
  type ToolServerInfo,
} from './tool-document.js';
export { type SearchHit, type SearchOptions, ToolIndex } from './tool-index.js';
export type { ToolIndexOptions } from './tool-index-options.js';
export { textVector, vectorSimilarity, WORD_VECTOR_DIMENSIONS } from './word-vectors.js';
