/**
 * Which JSON Schema keywords the proto3 binding reads, which it refuses and why, and the small
 * readings of a schema it needs before choosing a protobuf type (its type, `X or null`, a pattern
 * protovalidate's RE2 can evaluate).
 * @module
 */
import { keywordInfo } from '@xprotocol/json-schema-vocabulary';
import { RE2JS } from 're2js';
import { _pointerToken } from '../_json-util.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../json.js';

/** Keywords that change no instance's verdict: dropped. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  // definitions decide nothing until a $ref uses them, and every $ref is refused on its own
  'definitions',
  '$defs',
]);
/**
 * Whether a keyword is dropped: an annotation, a core keyword (`$schema`, `$id`, `definitions`…:
 * they decide nothing until a `$ref` uses them, and every `$ref` is refused), or a word no JSON
 * Schema dialect defines (validators ignore those, so they decide nothing either).
 */
export function isDropped(keyword: string): boolean {
  if (ANNOTATIONS.has(keyword)) return true;
  const info = keywordInfo(keyword);
  return info === undefined || info.role === 'annotation' || info.role === 'core';
}

/** Keywords with a protobuf form; anything else is refused by name. */
export const TRANSLATED = new Set([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'anyOf',
  'oneOf',
]);
export const WHY_NOT: Readonly<Record<string, string>> = {
  $ref: 'a reference has no protobuf form unless it names a message; references are not followed',
  patternProperties: 'protobuf map keys cannot be split by pattern into differently typed values',
  if: 'conditional schemas (if/then/else) have no protobuf form',
  not: 'a negated schema has no protobuf form',
  allOf: 'an intersection of schemas has no protobuf form',
  prefixItems: 'a tuple (prefixItems) has no protobuf form: a repeated field has one element type',
  dependentSchemas: 'dependent schemas have no protobuf form',
  dependentRequired: 'dependent requirements have no protobuf form',
  multipleOf: 'protovalidate has no multiple-of rule',
  minProperties: 'protovalidate counts no message members',
  maxProperties: 'protovalidate counts no message members',
  contains: 'protovalidate has no contains rule for repeated fields',
};

export function typeOf(schema: JsonObject): string | undefined {
  // object and array keywords without a type also let every other type through: no inference
  if (typeof schema.type === 'string') return schema.type;
  const values = Array.isArray(schema.enum)
    ? schema.enum
    : 'const' in schema
      ? [schema.const as JsonValue]
      : [];
  if (values.length > 0 && values.every((v) => typeof v === 'string')) return 'string';
  if (values.length > 0 && values.every((v) => typeof v === 'boolean')) return 'boolean';
  if (values.length > 0 && values.every((v) => typeof v === 'number' && Number.isInteger(v)))
    return 'integer';
  if (values.length > 0 && values.every((v) => typeof v === 'number')) return 'number';
  return undefined;
}

export function trivialKeys(names: JsonValue): boolean {
  return (
    names === true ||
    (isJsonObject(names) &&
      Object.keys(names).every((k) => k === 'type' || isDropped(k)) &&
      (names.type === undefined || names.type === 'string'))
  );
}

export function nonNullIndex(schema: JsonObject): number {
  const branches = (schema.anyOf ?? schema.oneOf) as JsonValue[];
  return branches.findIndex((b) => !(isJsonObject(b) && b.type === 'null'));
}

/** `type: [X, "null"]` or `anyOf: [S, {type: "null"}]` → the non-null schema; else undefined. */
export function nullableOf(schema: JsonValue): JsonValue | undefined {
  if (!isJsonObject(schema)) return undefined;
  if (Array.isArray(schema.type) && schema.type.length === 2 && schema.type.includes('null')) {
    const other = schema.type.find((t) => t !== 'null') as string;
    const copy: JsonObject = { ...schema, type: other };
    if (Array.isArray(schema.enum)) copy.enum = schema.enum.filter((v) => v !== null);
    return copy;
  }
  const branches = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(branches) || branches.length !== 2) return undefined;
  const rest = Object.keys(schema).filter((k) => k !== 'anyOf' && k !== 'oneOf' && !isDropped(k));
  const nulls = branches.filter(
    (b) => isJsonObject(b) && b.type === 'null' && Object.keys(b).every((k) => k === 'type' || isDropped(k)),
  );
  if (rest.length > 0 || nulls.length !== 1) return undefined;
  return branches.find((b) => !nulls.includes(b));
}

/** The first keyword with no protobuf form (or a union other than `X or null`), with why; else undefined. */
export function untranslatableKeyword(
  schema: JsonObject,
  pointer: string,
): { pointer: string; reason: string } | undefined {
  for (const k of Object.keys(schema)) {
    if (TRANSLATED.has(k) || isDropped(k)) continue;
    return { pointer: `${pointer}/${_pointerToken(k)}`, reason: WHY_NOT[k] ?? `"${k}" has no protobuf form` };
  }
  if (schema.anyOf !== undefined || schema.oneOf !== undefined) {
    const k = schema.anyOf !== undefined ? 'anyOf' : 'oneOf';
    return {
      pointer: `${pointer}/${k}`,
      reason: `${k} other than "X or null" is not translated: a protobuf oneof would need one JSON name per branch`,
    };
  }
  return undefined;
}

/** The JSON Schema type name of a JSON value (`integer` for whole numbers). */

export function jsonTypeOf(v: JsonValue): string {
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (v === null) return 'null';
  return Array.isArray(v) ? 'array' : typeof v;
}

/** A pattern protovalidate's RE2 cannot read is refused. */
export function patternChecked(
  schema: JsonObject,
): { ok: false; keyword: string; reason: string } | undefined {
  if (typeof schema.pattern !== 'string') return undefined;
  try {
    RE2JS.compile(schema.pattern);
    return undefined;
  } catch (e) {
    return {
      ok: false,
      keyword: 'pattern',
      reason: `pattern is not RE2 syntax, which protovalidate evaluates (${(e as Error).message})`,
    };
  }
}
