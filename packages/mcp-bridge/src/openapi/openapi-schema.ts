/**
 * An OpenAPI Schema Object as the JSON Schema an MCP tool carries. OpenAPI 3.1 schemas are JSON
 * Schema 2020-12 already; OpenAPI 3.0 ones are a dialect of draft 4 whose differences are
 * rewritten here: `nullable: true` adds `"null"` to the type, a boolean `exclusiveMinimum` or
 * `exclusiveMaximum` becomes the number form. Keywords only OpenAPI reads (`discriminator`, `xml`,
 * `externalDocs`, `example`) are dropped in both versions. The result shares nothing with the
 * document (a deep copy), so the caller may change it.
 * @module
 */

/** Keywords of the Schema Object that are OpenAPI's, not JSON Schema's. */
const OPENAPI_ONLY = new Set(['discriminator', 'xml', 'externalDocs', 'example', 'nullable']);

/** Keywords whose value is one schema. */
const ONE_SCHEMA = new Set([
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'additionalItems',
]);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * `schema` as JSON Schema, for an OpenAPI `version` of `3.0.x` or `3.1.x`. Throws an `Error`
 * saying where when the schema still holds a `$ref`: a recursive one the dereferencer left, or
 * one to another file or address, which the dereferencer is not allowed to read.
 */
export function toJsonSchema(schema: unknown, version: string, at = '#'): unknown {
  const legacy = version.startsWith('3.0');
  return _convert(schema, legacy, at);
}

function _convert(schema: unknown, legacy: boolean, at: string): unknown {
  if (typeof schema === 'boolean') return schema;
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const source = schema as Record<string, unknown>;
  if (typeof source.$ref === 'string')
    throw new Error(
      `a $ref not resolved inside the document (recursive, or to another file or address, which is never read) at ${at} (${source.$ref})`,
    );
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (OPENAPI_ONLY.has(key)) continue;
    if (ONE_SCHEMA.has(key)) out[key] = _convert(value, legacy, `${at}/${key}`);
    else if (SCHEMA_LIST.has(key) && Array.isArray(value))
      out[key] = value.map((item, i) => _convert(item, legacy, `${at}/${key}/${i}`));
    else if (SCHEMA_MAP.has(key) && value !== null && typeof value === 'object')
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, _convert(sub, legacy, `${at}/${key}/${name}`)]),
      );
    else out[key] = structuredClone(value);
  }
  if (legacy) _fromDraft4(source, out);
  return out;
}

/** The OpenAPI 3.0 forms that JSON Schema 2020-12 writes otherwise. */
function _fromDraft4(source: Record<string, unknown>, out: Record<string, unknown>): void {
  if (source.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof source[flag] !== 'boolean') continue;
    delete out[flag];
    if (source[flag] === true && typeof source[bound] === 'number') {
      out[flag] = source[bound];
      delete out[bound];
    }
  }
}
