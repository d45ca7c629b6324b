/**
 * `@xprotocol/semantic` — tool annotations, the description quality score and the verb parser.
 * Tool search (the index, `describe`, the word vectors) is the `@xprotocol/semantic/search`
 * subpath, so importing this entry never loads the 4.5 MB vector table (docs/architecture.md,
 * "Packaging").
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
