/**
 * Every keyword of JSON Schema drafts 04 to 2020-12, as data (docs/translation.md, "The JSON
 * Schema vocabulary"): its role, the shape of the subschemas it holds, how those apply, and the
 * drafts it belongs to. Everything in this project that walks, compares, serializes or compiles a
 * schema derives its keyword lists from this one table.
 *
 * Sources: the draft-04 validation and core specifications (draft-fge-json-schema-validation-00,
 * draft-zyp-json-schema-04), draft-06 and draft-07 (draft-wright-json-schema[-validation]-01, -00),
 * 2019-09 and 2020-12 (draft-handrews-json-schema[-validation]-02, draft-bhutton-json-schema-00 and
 * -validation-00), and the OpenAPI 3.0 `nullable` extension that MCP servers still emit.
 * @module
 */
import { SCHEMA_DIALECTS, type SchemaDialect } from './dialect.js';

/**
 * What a keyword does. `core`: identifies a schema or holds definitions (never constrains by
 * itself); `reference`: stands for another schema; `applicator`: applies subschemas to the
 * instance or its children; `assertion`: constrains the instance directly; `annotation`: describes,
 * never constrains.
 */
export type KeywordRole = 'core' | 'reference' | 'applicator' | 'assertion' | 'annotation';

/**
 * The shape of a keyword's subschemas. `schema`: one; `schema-array`: an array; `schema-map`: an
 * object of them; `schema-or-array`: one, or (before 2020-12) an array (`items`);
 * `schema-or-strings-map`: an object whose values are a schema or an array of names
 * (`dependencies`).
 */
export type SubschemaShape =
  | 'schema'
  | 'schema-array'
  | 'schema-map'
  | 'schema-or-array'
  | 'schema-or-strings-map';

/**
 * Where a keyword's subschemas apply: `same` to the same instance location (`allOf`, `not`,
 * `if`/`then`/`else`, `dependentSchemas` …), `descend` to a child of the instance or its decoded
 * content (`properties`, `items`, `contentSchema` …), `defs` nowhere unless referenced.
 */
export type SubschemaRelation = 'same' | 'descend' | 'defs';

/** One keyword of the vocabulary. */
export interface KeywordInfo {
  readonly role: KeywordRole;
  /** Present when the keyword holds subschemas. */
  readonly subschemas?: { readonly shape: SubschemaShape; readonly relation: SubschemaRelation };
  /** The first and last dialect that define it (inclusive). */
  readonly since: SchemaDialect;
  readonly until: SchemaDialect;
  /** True for a keyword outside the JSON Schema specifications (OpenAPI's `nullable`). */
  readonly extension?: true;
}

const FIRST: SchemaDialect = 'draft-04';
const LAST: SchemaDialect = '2020-12';

function k(
  role: KeywordRole,
  since: SchemaDialect = FIRST,
  until: SchemaDialect = LAST,
  subschemas?: KeywordInfo['subschemas'],
): KeywordInfo {
  return subschemas === undefined ? { role, since, until } : { role, since, until, subschemas };
}
const sub = (shape: SubschemaShape, relation: SubschemaRelation) => ({ shape, relation });

/** The vocabulary: keyword → its {@link KeywordInfo}. */
// A Map, not an object: `then` is a keyword, and an object with a `then` member looks thenable.
export const KEYWORDS: ReadonlyMap<string, KeywordInfo> = new Map<string, KeywordInfo>([
  // core: identifiers and definitions
  ['$schema', k('core')],
  ['id', k('core', 'draft-04', 'draft-04')],
  ['$id', k('core', 'draft-06')],
  ['$anchor', k('core', '2019-09')],
  ['$dynamicAnchor', k('core', '2020-12')],
  ['$recursiveAnchor', k('core', '2019-09', '2019-09')],
  ['$vocabulary', k('core', '2019-09')],
  // 2019-09 and 2020-12 keep `definitions` and `dependencies` only as deprecated compatibility
  // properties of their top meta-schema; walkers still honour both (see the shape lists below).
  ['definitions', k('core', FIRST, 'draft-07', sub('schema-map', 'defs'))],
  ['$defs', k('core', '2019-09', LAST, sub('schema-map', 'defs'))],
  // references
  ['$ref', k('reference')],
  ['$dynamicRef', k('reference', '2020-12')],
  ['$recursiveRef', k('reference', '2019-09', '2019-09')],
  // applicators, in place
  ['allOf', k('applicator', FIRST, LAST, sub('schema-array', 'same'))],
  ['anyOf', k('applicator', FIRST, LAST, sub('schema-array', 'same'))],
  ['oneOf', k('applicator', FIRST, LAST, sub('schema-array', 'same'))],
  ['not', k('applicator', FIRST, LAST, sub('schema', 'same'))],
  ['if', k('applicator', 'draft-07', LAST, sub('schema', 'same'))],
  ['then', k('applicator', 'draft-07', LAST, sub('schema', 'same'))],
  ['else', k('applicator', 'draft-07', LAST, sub('schema', 'same'))],
  ['dependencies', k('applicator', FIRST, 'draft-07', sub('schema-or-strings-map', 'same'))],
  ['dependentSchemas', k('applicator', '2019-09', LAST, sub('schema-map', 'same'))],
  // applicators, to children
  ['properties', k('applicator', FIRST, LAST, sub('schema-map', 'descend'))],
  ['patternProperties', k('applicator', FIRST, LAST, sub('schema-map', 'descend'))],
  ['additionalProperties', k('applicator', FIRST, LAST, sub('schema', 'descend'))],
  ['propertyNames', k('applicator', 'draft-06', LAST, sub('schema', 'descend'))],
  ['unevaluatedProperties', k('applicator', '2019-09', LAST, sub('schema', 'descend'))],
  ['items', k('applicator', FIRST, LAST, sub('schema-or-array', 'descend'))],
  ['prefixItems', k('applicator', '2020-12', LAST, sub('schema-array', 'descend'))],
  ['additionalItems', k('applicator', FIRST, '2019-09', sub('schema', 'descend'))],
  ['contains', k('applicator', 'draft-06', LAST, sub('schema', 'descend'))],
  ['unevaluatedItems', k('applicator', '2019-09', LAST, sub('schema', 'descend'))],
  // assertions
  ['type', k('assertion')],
  ['enum', k('assertion')],
  ['const', k('assertion', 'draft-06')],
  ['multipleOf', k('assertion')],
  ['maximum', k('assertion')],
  ['exclusiveMaximum', k('assertion')],
  ['minimum', k('assertion')],
  ['exclusiveMinimum', k('assertion')],
  ['maxLength', k('assertion')],
  ['minLength', k('assertion')],
  ['pattern', k('assertion')],
  ['format', k('assertion')],
  ['maxItems', k('assertion')],
  ['minItems', k('assertion')],
  ['uniqueItems', k('assertion')],
  ['maxContains', k('assertion', '2019-09')],
  ['minContains', k('assertion', '2019-09')],
  ['maxProperties', k('assertion')],
  ['minProperties', k('assertion')],
  ['required', k('assertion')],
  ['dependentRequired', k('assertion', '2019-09')],
  ['nullable', { role: 'assertion', since: FIRST, until: LAST, extension: true }],
  // annotations
  ['title', k('annotation')],
  ['description', k('annotation')],
  ['default', k('annotation')],
  ['examples', k('annotation', 'draft-06')],
  ['readOnly', k('annotation', 'draft-07')],
  ['writeOnly', k('annotation', 'draft-07')],
  ['deprecated', k('annotation', '2019-09')],
  ['$comment', k('annotation', 'draft-07')],
  ['contentMediaType', k('annotation', 'draft-07')],
  ['contentEncoding', k('annotation', 'draft-07')],
  ['contentSchema', k('annotation', '2019-09', LAST, sub('schema', 'descend'))],
]);

/** The {@link KeywordInfo} of `keyword`, or `undefined` for a keyword outside the vocabulary. */
export function keywordInfo(keyword: string): KeywordInfo | undefined {
  return KEYWORDS.get(keyword);
}

/**
 * The keywords `dialect` defines, optionally only those of the given roles, in table order.
 * Extensions (`nullable`) are included: MCP servers emit them in every dialect.
 * @example
 * keywordsOf('draft-04', ['reference']); // ['$ref']
 */
export function keywordsOf(dialect: SchemaDialect, roles?: readonly KeywordRole[]): string[] {
  const at = SCHEMA_DIALECTS.indexOf(dialect);
  return [...KEYWORDS]
    .filter(
      ([, info]) =>
        SCHEMA_DIALECTS.indexOf(info.since) <= at &&
        at <= SCHEMA_DIALECTS.indexOf(info.until) &&
        (roles === undefined || roles.includes(info.role)),
    )
    .map(([name]) => name);
}

function _names(test: (info: KeywordInfo) => boolean): readonly string[] {
  return Object.freeze([...KEYWORDS].filter(([, info]) => test(info)).map(([name]) => name));
}

/** Keywords (any draft) whose value may be one subschema. */
export const SINGLE_SUBSCHEMA_KEYWORDS = _names(
  (i) => i.subschemas?.shape === 'schema' || i.subschemas?.shape === 'schema-or-array',
);
/** Keywords (any draft) whose value may be an array of subschemas. */
export const ARRAY_SUBSCHEMA_KEYWORDS = _names(
  (i) => i.subschemas?.shape === 'schema-array' || i.subschemas?.shape === 'schema-or-array',
);
/** Keywords (any draft) whose value is an object of subschemas (or, for `dependencies`, of names). */
export const MAP_SUBSCHEMA_KEYWORDS = _names(
  (i) => i.subschemas?.shape === 'schema-map' || i.subschemas?.shape === 'schema-or-strings-map',
);

/**
 * Keywords (any draft) that can make a schema reject an instance: references, applicators and
 * assertions. Every other keyword (core, annotations, unknown ones) never does.
 */
export const CONSTRAINING_KEYWORDS: ReadonlySet<string> = new Set(
  _names((i) => i.role === 'reference' || i.role === 'applicator' || i.role === 'assertion'),
);

/** Keywords (any draft) that only describe: a change to one never changes what validates. */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set(_names((i) => i.role === 'annotation'));
