/**
 * JSON Schema dialects (DESIGN.md §5): a schema without `$schema` is 2020-12 (MCP 2025-11-25);
 * draft-04, draft-06, draft-07 and 2019-09 are accepted by their own rules; any other `$schema`
 * is refused rather than guessed.
 * @module
 */
import { isJsonObject, type JsonSchema } from './json.js';

/** A JSON Schema dialect this package validates. */
export type SchemaDialect = 'draft-04' | 'draft-06' | 'draft-07' | '2019-09' | '2020-12';

const DIALECTS: ReadonlyArray<[RegExp, SchemaDialect]> = [
  [/^https?:\/\/json-schema\.org\/draft-04\/schema#?$/, 'draft-04'],
  [/^https?:\/\/json-schema\.org\/draft-06\/schema#?$/, 'draft-06'],
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, 'draft-07'],
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, '2019-09'],
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, '2020-12'],
];

/**
 * The dialect of a root schema from its `$schema` (absent → `2020-12`), or `undefined` when
 * `$schema` names something else (the caller refuses it, naming the value).
 * @example
 * schemaDialect({ type: 'object' }); // '2020-12'
 * schemaDialect({ $schema: 'http://json-schema.org/draft-07/schema#' }); // 'draft-07'
 */
export function schemaDialect(schema: JsonSchema): SchemaDialect | undefined {
  if (!isJsonObject(schema) || schema.$schema === undefined) return '2020-12';
  const uri = schema.$schema;
  if (typeof uri !== 'string') return undefined;
  for (const [pattern, dialect] of DIALECTS) if (pattern.test(uri)) return dialect;
  return undefined;
}
