/**
 * `@xprotocol/json-schema-vocabulary` — the JSON Schema vocabulary of drafts 04 to 2020-12 as
 * data: dialect detection and every keyword with its role, subschema shape and drafts. Pure, no
 * dependencies; the translator and the grammar compiler both derive their keyword lists from it.
 * @module
 */
export {
  DEFAULT_SCHEMA_DIALECT,
  DIALECT_URIS,
  SCHEMA_DIALECTS,
  type SchemaDialect,
  schemaDialect,
} from './dialect.js';
export {
  ANNOTATION_KEYWORDS,
  ARRAY_SUBSCHEMA_KEYWORDS,
  CONSTRAINING_KEYWORDS,
  KEYWORDS,
  type KeywordInfo,
  type KeywordRole,
  keywordInfo,
  keywordsOf,
  MAP_SUBSCHEMA_KEYWORDS,
  SINGLE_SUBSCHEMA_KEYWORDS,
  type SubschemaRelation,
  type SubschemaShape,
} from './keywords.js';
