/**
 * `@xprotocol/semantic` — annotations, description quality, tool search (issue #4).
 * @module
 */
export {
  annotateTool,
  annotateTools,
  CONTAINER_NOUNS,
  domainOf,
  MAX_RELATED_SCHEMAS,
  type SemanticAnnotations,
  type SemanticOverrides,
  type ToolLike,
} from './annotate.js';
export { CONCEPT_LEXICON, CONCEPT_PREFIX, conceptWeights } from './concepts.js';
export {
  DESCRIBE_DEFAULT_LIMIT,
  DESCRIBE_MAX_LIMIT,
  type DescribeMatch,
  type DescribeQuery,
  describeQuery,
} from './describe.js';
export { SemanticError, type SemanticErrorCode } from './errors.js';
export { splitIdentifier } from './identifier.js';
export { pluralize, singularize, UNCOUNTABLE_NOUNS } from './inflect.js';
export { type ParsedToolName, parseToolName } from './parse-tool-name.js';
export {
  classifyQualityScore,
  DATA_SUBJECT_NOUNS,
  DEFAULT_QUALITY_FLOOR,
  DEFAULT_QUALITY_THRESHOLD,
  descriptionQualityScore,
  GENERIC_NOUNS,
  type LowQualitySchema,
  lowQualitySchemaEntry,
  lowQualitySchemas,
  MIN_DESCRIPTION_LENGTH,
  QUALITY_INDICATORS,
  type QualityContext,
  type QualityFinding,
  type QualityIndicator,
  type QualityScore,
  type QualityThresholds,
  type QualityVerdict,
  USAGE_GUIDANCE_PATTERNS,
  VAGUE_PHRASE_PATTERNS,
} from './quality.js';
export { STOP_WORDS, stemWord, tokenizeForSearch } from './search-tokenizer.js';
export {
  DEFAULT_FIELD_BOOSTS,
  type SearchField,
  type SearchHit,
  type SearchOptions,
  type ToolDocument,
  ToolIndex,
  type ToolIndexOptions,
} from './tool-index.js';
export {
  type CapabilityClass,
  CLASS_INTENT_VERBS,
  capabilityClassOf,
  VERB_CLASSES,
  VERB_GROUPS,
  type VerbClass,
  type VerbGroup,
  verbClassOf,
  verbGroupOf,
  WEAK_VERBS,
} from './verbs.js';
export { textVector, vectorSimilarity, WORD_VECTOR_DIMENSIONS } from './word-vectors.js';
