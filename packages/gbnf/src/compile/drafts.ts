/**
 * JSON Schema dialects: which draft a schema is written in (`$schema`; absent = 2020-12, the
 * MCP 2025-11-25 default) and where each draft keeps its subschemas.
 * @module
 */

/** The dialects the compiler reads. */
export type SchemaDraft = 'draft-04' | 'draft-06' | 'draft-07' | '2019-09' | '2020-12';

/** @internal The dialect named by a root `$schema` (absent or unknown: 2020-12). */
export function _detectDraft(schema: unknown): SchemaDraft {
  const uri =
    schema !== null && typeof schema === 'object' ? (schema as Record<string, unknown>).$schema : undefined;
  if (typeof uri !== 'string') return '2020-12';
  if (uri.includes('draft-04') || uri.includes('draft-03')) return 'draft-04';
  if (uri.includes('draft-06')) return 'draft-06';
  if (uri.includes('draft-07')) return 'draft-07';
  if (uri.includes('2019-09')) return '2019-09';
  return '2020-12';
}

/** @internal Keywords that hold one subschema. */
export const _SINGLE_SCHEMA_KEYWORDS = [
  'additionalItems',
  'additionalProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
] as const;

/** @internal Keywords that hold a map of subschemas. */
export const _MAP_SCHEMA_KEYWORDS = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
] as const;

/** @internal Keywords that hold an array of subschemas. */
export const _ARRAY_SCHEMA_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;

/**
 * @internal Keywords that never constrain an instance: annotations, identifiers, containers of
 * definitions. Everything not listed here nor handled by the compiler is checked against
 * {@link _CONSTRAINING_KEYWORDS}: a constraining keyword the compiler does not handle is an error;
 * any other unknown keyword is ignored, as validators do.
 */
export const _CONSTRAINING_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'items',
  'prefixItems',
  'additionalItems',
  'maxItems',
  'minItems',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'maxProperties',
  'minProperties',
  'required',
  'properties',
  'patternProperties',
  'additionalProperties',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
  'propertyNames',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  'unevaluatedItems',
  'unevaluatedProperties',
  'nullable',
]);
