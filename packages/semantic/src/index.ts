/**
 * `@xprotocol/semantic` — annotations, description quality, tool search (issue #4).
 * @module
 */
export { SemanticError, type SemanticErrorCode } from './errors.js';
export { splitIdentifier } from './identifier.js';
export { type ParsedToolName, parseToolName } from './parse-tool-name.js';
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
