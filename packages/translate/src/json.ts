/**
 * JSON value types. Everything a contract holds is plain JSON: it is serialized canonically,
 * signed and sent (docs/translation.md, "Determinism").
 * @module
 */

/** A JSON value as `JSON.parse` returns it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

/** A JSON object. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** A JSON Schema: an object, or (draft-06 and later) a boolean. */
export type JsonSchema = JsonObject | boolean;

/** True for a non-null, non-array object. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
