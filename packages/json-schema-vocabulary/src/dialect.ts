/**
 * JSON Schema dialects (docs/translation.md, "Dialects"): a schema without `$schema` is 2020-12
 * (the MCP 2025-11-25 default); draft-04, draft-06, draft-07 and 2019-09 are read by their own
 * rules; any other `$schema` is not recognised, and the caller decides (translate refuses it, the
 * grammar compiler reads it as 2020-12 and says so in a warning).
 * @module
 */

/** The dialects, oldest first. */
export const SCHEMA_DIALECTS = Object.freeze([
  'draft-04',
  'draft-06',
  'draft-07',
  '2019-09',
  '2020-12',
] as const);

/** A JSON Schema dialect. */
export type SchemaDialect = (typeof SCHEMA_DIALECTS)[number];

/** The dialect of a schema without `$schema`. */
export const DEFAULT_SCHEMA_DIALECT: SchemaDialect = '2020-12';

/** The meta-schema URI of each dialect, as its specification writes it. */
export const DIALECT_URIS: Readonly<Record<SchemaDialect, string>> = Object.freeze({
  'draft-04': 'http://json-schema.org/draft-04/schema#',
  'draft-06': 'http://json-schema.org/draft-06/schema#',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
});

// http or https, with or without the empty fragment: every spelling seen in published schemas.
const PATTERNS: ReadonlyArray<[RegExp, SchemaDialect]> = [
  [/^https?:\/\/json-schema\.org\/draft-04\/schema#?$/, 'draft-04'],
  [/^https?:\/\/json-schema\.org\/draft-06\/schema#?$/, 'draft-06'],
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, 'draft-07'],
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, '2019-09'],
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, '2020-12'],
];

/**
 * The dialect of a root schema from its `$schema` ({@link DEFAULT_SCHEMA_DIALECT} when absent or
 * when the schema is a boolean), or `undefined` when `$schema` names anything else.
 * @example
 * schemaDialect({ type: 'object' }); // '2020-12'
 * schemaDialect({ $schema: 'http://json-schema.org/draft-07/schema#' }); // 'draft-07'
 * schemaDialect({ $schema: 'http://json-schema.org/draft-03/schema#' }); // undefined
 */
export function schemaDialect(schema: unknown): SchemaDialect | undefined {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return DEFAULT_SCHEMA_DIALECT;
  const uri = (schema as Record<string, unknown>).$schema;
  if (uri === undefined) return DEFAULT_SCHEMA_DIALECT;
  if (typeof uri !== 'string') return undefined;
  for (const [pattern, dialect] of PATTERNS) if (pattern.test(uri)) return dialect;
  return undefined;
}
