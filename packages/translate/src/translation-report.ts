/**
 * What a translation reports besides its contracts: refusals (each with a stable code, a reason
 * and, for schema problems, the JSON pointer at fault) and warnings.
 * @module
 */

/** Why a tool or prompt was refused. */
export type RefusalCode =
  | 'INVALID_TOOL'
  | 'INVALID_NAME'
  | 'NAME_COLLISION'
  | 'UNSAFE_SCHEMA'
  | 'INVALID_SCHEMA'
  | 'INVALID_OVERRIDE'
  | 'CAPABILITY_UNMAPPED'
  | 'LOW_QUALITY';

/** A tool (or prompt) that did not become a contract. */
export interface Refusal {
  /** The tool's name as the server sent it (a preview when it was not a string). */
  tool: string;
  entry: 'tool' | 'prompt' | 'resource_template';
  code: RefusalCode;
  reason: string;
  /** JSON pointer from the tool object's root, for schema refusals (e.g. `/inputSchema/properties/a/$ref`). */
  pointer?: string;
  /** The kind the tool would have had, when the refusal came after its name was mapped. */
  kind?: string;
  /** For `LOW_QUALITY`: the description quality score (docs/design.md §7). */
  description_quality_score?: number;
}

/** Kinds of warning. None of them stops a contract from being published. */
export type WarningCode =
  | 'NO_DESCRIPTION'
  | 'UNKNOWN_FORMAT'
  | 'NON_UNICODE_PATTERN'
  | 'LOW_QUALITY_DESCRIPTION'
  | 'RECURSIVE_SCHEMA'
  | 'GRAMMAR_FAILED'
  | 'GRAMMAR_APPROXIMATE'
  | 'ANNOTATE_FAILED'
  | 'OUTPUT_SCHEMA_NOT_EMBEDDED'
  | 'UNKNOWN_OVERRIDE'
  | 'UNKNOWN_ALLOWLIST_ENTRY'
  | 'WILDCARD_CAPABILITY';

/** A warning about one tool (or the whole source when `tool` is absent). */
export interface TranslationWarning {
  tool?: string;
  code: WarningCode;
  message: string;
}
