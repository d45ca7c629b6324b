/**
 * Internal: walking the subschemas of a JSON Schema, across drafts 04 to 2020-12, with the keyword
 * lists of `@xprotocol/json-schema-vocabulary`. Used by the safety check (references and cycles),
 * the canonical serializer (which maps keep declaration order) and the version comparison.
 * @module
 */
import {
  ARRAY_SUBSCHEMA_KEYWORDS,
  KEYWORDS,
  MAP_SUBSCHEMA_KEYWORDS,
  SINGLE_SUBSCHEMA_KEYWORDS,
  type SubschemaRelation,
} from '@xprotocol/json-schema-vocabulary';
import { _pointerToken } from './_json-util.js';
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';

/** How a subschema relates to its parent (the vocabulary's `SubschemaRelation`). */
export type _Relation = SubschemaRelation;

function _byRelation(keywords: readonly string[]): Readonly<Record<string, _Relation>> {
  return Object.freeze(
    Object.fromEntries(keywords.map((k) => [k, KEYWORDS.get(k)?.subschemas?.relation ?? 'same'] as const)),
  );
}

/** Keywords whose value is one subschema (from `@xprotocol/json-schema-vocabulary`). */
export const _SINGLE = _byRelation(SINGLE_SUBSCHEMA_KEYWORDS);

/** Keywords whose value is an array of subschemas. */
export const _ARRAY = _byRelation(ARRAY_SUBSCHEMA_KEYWORDS);

/** Keywords whose value maps names to subschemas. */
export const _MAP = _byRelation(MAP_SUBSCHEMA_KEYWORDS);

/** A subschema found by {@link _forEachSubschema}. */
export interface _Subschema {
  readonly schema: JsonObject | boolean;
  readonly pointer: string;
  readonly relation: _Relation;
  readonly keyword: string;
}

/**
 * Calls `visit` for every direct subschema of `schema` (at JSON pointer `pointer`). Values that
 * are not schemas (a `dependencies` entry that is a string array, a malformed `items`) are skipped:
 * the validator compile step reports those.
 */
export function _forEachSubschema(
  schema: JsonObject,
  pointer: string,
  visit: (sub: _Subschema) => void,
): void {
  // sorted: whatever is found first must not depend on the input's key order
  for (const keyword of Object.keys(schema).sort()) {
    const value = schema[keyword] as JsonValue;
    const at = `${pointer}/${_pointerToken(keyword)}`;
    if (Array.isArray(value)) {
      const relation = _ARRAY[keyword];
      if (relation === undefined) continue;
      value.forEach((item, i) => {
        if (_isSchema(item)) visit({ schema: item, pointer: `${at}/${i}`, relation, keyword });
      });
      continue;
    }
    const single = Object.hasOwn(_SINGLE, keyword) ? _SINGLE[keyword] : undefined;
    if (single !== undefined) {
      if (_isSchema(value)) visit({ schema: value, pointer: at, relation: single, keyword });
      continue;
    }
    const map = Object.hasOwn(_MAP, keyword) ? _MAP[keyword] : undefined;
    if (map !== undefined && isJsonObject(value)) {
      for (const name of Object.keys(value).sort()) {
        const item = value[name] as JsonValue;
        if (_isSchema(item)) {
          visit({ schema: item, pointer: `${at}/${_pointerToken(name)}`, relation: map, keyword });
        }
      }
    }
  }
}

/** True for a value usable as a schema: an object or a boolean. */
export function _isSchema(value: JsonValue | undefined): value is JsonObject | boolean {
  return typeof value === 'boolean' || isJsonObject(value);
}
