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

/** The first keyword with no protobuf form (or a union with other keywords beside it), with why; else undefined. */
export function untranslatableKeyword(
  schema: JsonObject,
  pointer: string,
): { pointer: string; reason: string } | undefined {
  for (const k of Object.keys(schema)) {
    if (TRANSLATED.has(k) || isDropped(k)) continue;
    return { pointer: `${pointer}/${_pointerToken(k)}`, reason: WHY_NOT[k] ?? `"${k}" has no protobuf form` };
  }
  if (schema.anyOf !== undefined && schema.oneOf !== undefined)
    return { pointer: `${pointer}/oneOf`, reason: 'anyOf and oneOf side by side are not translated' };
  const k = schema.anyOf !== undefined ? 'anyOf' : schema.oneOf !== undefined ? 'oneOf' : undefined;
  if (k === undefined) return undefined;
  const beside = Object.keys(schema).find((key) => key !== k && !isDropped(key));
  if (beside !== undefined)
    return {
      pointer: `${pointer}/${_pointerToken(beside)}`,
      reason: `"${beside}" beside ${k} is not translated: it would apply to every branch of the protobuf oneof`,
    };
  if (!Array.isArray(schema[k]) || schema[k].length === 0)
    return { pointer: `${pointer}/${k}`, reason: `${k} must be a non-empty list of schemas` };
  return undefined;
}

/** One branch of a union: its schema, its JSON type, and where it is in the schema text. */
export interface UnionBranch {
  readonly schema: JsonObject;
  readonly type: string;
  readonly pointer: string;
}

/** The order oneof members are numbered in (by JSON type: the same for any branch order). */
export const UNION_TYPE_ORDER = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'];

/** Keywords that apply to values of one JSON type only (others apply to every type). */
const KEYWORDS_OF_TYPE: Readonly<Record<string, readonly string[]>> = {
  string: ['minLength', 'maxLength', 'pattern', 'format'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: ['items', 'minItems', 'maxItems', 'uniqueItems', 'prefixItems', 'contains', 'additionalItems'],
  object: [
    'properties',
    'required',
    'additionalProperties',
    'propertyNames',
    'patternProperties',
    'minProperties',
    'maxProperties',
    'dependentRequired',
    'dependentSchemas',
  ],
};

/** Whether a schema is a union the binding reads as one: a type list, or anyOf/oneOf. */
export function isUnion(schema: JsonObject): boolean {
  return Array.isArray(schema.type) || schema.anyOf !== undefined || schema.oneOf !== undefined;
}

/**
 * A union's branches, when they are told apart by JSON type alone (so a protobuf oneof, which
 * holds one member, stands for it exactly and `oneOf` means what `anyOf` means); else why not.
 * A type list becomes one branch per type, each with the keywords that apply to that type.
 */
export function unionBranches(
  schema: JsonObject,
  pointer: string,
): { ok: true; branches: UnionBranch[] } | { ok: false; pointer: string; reason: string } {
  const branches: UnionBranch[] = [];
  if (Array.isArray(schema.type)) {
    if (schema.enum !== undefined || schema.const !== undefined)
      return {
        ok: false,
        pointer: `${pointer}/${schema.enum !== undefined ? 'enum' : 'const'}`,
        reason:
          'an enum or const beside a list of types is not translated: its values would have to be split by type',
      };
    for (const t of schema.type) {
      if (typeof t !== 'string')
        return { ok: false, pointer: `${pointer}/type`, reason: 'a type list must hold type names' };
      branches.push({ schema: _branchOfType(schema, t), type: t, pointer: `${pointer}/type` });
    }
  } else {
    const k = schema.anyOf !== undefined ? 'anyOf' : 'oneOf';
    const list = schema[k] as JsonValue[];
    for (const [i, b] of list.entries()) {
      const at = `${pointer}/${k}/${i}`;
      const type = isJsonObject(b) && !isUnion(b) ? typeOf(b) : undefined;
      if (type === undefined)
        return {
          ok: false,
          pointer: at,
          reason: `${k} branch ${i} has no single JSON type: a protobuf oneof tells its members apart by JSON type only`,
        };
      branches.push({ schema: b as JsonObject, type, pointer: at });
    }
  }
  const seen = new Map<string, UnionBranch>();
  for (const b of branches) {
    // a whole number is both an integer and a number
    const kind = b.type === 'integer' ? 'number' : b.type;
    const other = seen.get(kind);
    if (other !== undefined)
      return {
        ok: false,
        pointer: b.pointer,
        reason: `two branches accept JSON ${kind === 'number' ? 'numbers' : `${kind}s`} (${other.type} and ${b.type}): a protobuf oneof tells its members apart by JSON type only, and these would need their values to do it`,
      };
    seen.set(kind, b);
  }
  branches.sort((a, b) => UNION_TYPE_ORDER.indexOf(a.type) - UNION_TYPE_ORDER.indexOf(b.type));
  return { ok: true, branches };
}

/** The schema of one type of a type list: that type, with the keywords that apply to it. */
function _branchOfType(schema: JsonObject, type: string): JsonObject {
  const own = KEYWORDS_OF_TYPE[type === 'integer' ? 'number' : type] ?? [];
  const others = new Set(Object.values(KEYWORDS_OF_TYPE).flat());
  const out: JsonObject = { type };
  for (const [k, v] of Object.entries(schema))
    if (k !== 'type' && (own.includes(k) || !others.has(k))) out[k] = v;
  return out;
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
